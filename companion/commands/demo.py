"""`companion demo`: the bundled recording of a Scoundrel game played as if it were a camera, with the dashboard.

When the video ends, the companion's own record is compared with the true record shipped beside it.
`--check` runs the same loop without a server, as fast as the machine goes, and exits 1 on a mismatch; with
`--jpeg`, `--noise`, `--scale` or `--light` it reads the frames as a worse camera shows them, and `--general` reads the
cards with the general recogniser instead of the demo deck's profile.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.cli import CAMERA_AS_IS, UsageError, add_camera_arguments
from companion.commands.serve import add_server_arguments, announce_start, check_profile, open_browser, start
from companion.demo_render import DEMO_DIR, DEMO_NAME
from companion.recognisers import RecogniserUnavailable, recogniser_for
from companion.runtime import Config, default_db
from vision import degrade


@dataclass(frozen=True)
class Demo:
    video: Path
    record: Path
    timeline: Path
    game: str
    options: dict[str, Any]
    setup: dict[str, Any]

    @classmethod
    def load(cls, folder: Path = DEMO_DIR, name: str = DEMO_NAME) -> Demo:
        path = folder / f"{name}.demo.json"
        try:
            cfg = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise UsageError(f"cannot read the demo description {path}: {exc}") from None
        return cls(folder / cfg["video"], folder / cfg["record"], folder / cfg["timeline"], cfg["game"],
                   cfg["options"], cfg["setup"])

    def true_record(self) -> dict[str, Any]:
        return json.loads(self.record.read_text(encoding="utf-8"))


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="play the bundled table recording as a camera and serve the dashboard")
    p.add_argument("--speed", type=float, default=1.0, help="play the recording this many times faster")
    p.add_argument("--check", action="store_true",
                   help="no server: referee every frame as fast as possible and compare with the true record")
    p.add_argument("--general", action="store_true",
                   help="read the cards with the general recogniser (vision.cards) instead of the demo deck's profile")
    add_camera_arguments(p, "frame")
    add_server_arguments(p)
    p.set_defaults(run=run)


def demo_profile(ref: str | None) -> str:
    """The profile the demo reads its cards with: the one asked for, else the demo deck (enrolled on first use)."""
    if ref is not None:
        return str(check_profile(ref))
    from companion.demo_deck import PROFILE_NAME, ensure_profile
    from vision.enroll.store import ProfileStore

    if not ProfileStore().exists(PROFILE_NAME):
        print(f"enrolling the demo deck from its photo into the profile store as {PROFILE_NAME!r} (once)...",
              file=sys.stderr, flush=True)
    return str(ensure_profile())


def run(args: argparse.Namespace) -> int:
    demo = Demo.load()
    if args.general and args.profile is not None:
        raise UsageError("--general reads without a deck profile: leave out --profile")
    profile = None if args.general else demo_profile(args.profile)
    camera = {key: getattr(args, key) for key in CAMERA_AS_IS}
    try:
        degrade.check(**camera)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    worse = camera != CAMERA_AS_IS
    if args.check:
        return check(demo, profile, camera if worse else None)
    if worse:
        raise UsageError("--jpeg, --noise, --scale and --light go with --check")
    config = Config(db=args.db or default_db(), source=str(demo.video), game=demo.game, options=demo.options,
                    setup=demo.setup, host=args.host, port=args.port, resume=args.resume, speed=args.speed,
                    profile=profile)
    companion = start(config)
    announce_start(companion)
    if not args.no_browser:
        open_browser(companion.url)
    watcher = threading.Thread(target=_report_at_end, args=(companion, demo), daemon=True)
    watcher.start()
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        companion.stop()
    return 0


def _report_at_end(companion: Any, demo: Demo) -> None:
    source = companion.source
    while not source.finished:
        time.sleep(0.2)
    time.sleep(0.5)  # the loop reads the last still frames
    same = companion.session.record() == demo.true_record()
    text = "equals" if same else "DIFFERS from"
    print(f"the demo video ended: the companion's record {text} {demo.record.name}", flush=True)


CAMERA_SEED = 0  # the sensor noise's random stream: one run is the same as the next


def check(demo: Demo, profile: str | None = None, camera: dict[str, Any] | None = None) -> int:
    """Referee the whole video offline; print the outcome and whether the record matches. `camera`: the frames as a
    worse camera shows them (`vision.degrade.camera_view`'s jpeg, noise, scale and light)."""
    import tempfile

    from companion.loop import RefereeLoop
    from companion.session import Session
    from companion.store import Store

    try:
        recogniser = recogniser_for(demo.game, profile, demo.setup.get("deck"))
    except RecogniserUnavailable as exc:
        raise UsageError(str(exc)) from None
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "demo.db")
        session = Session(store)
        session.new_game(demo.game, demo.options, demo.setup)
        loop = RefereeLoop(session, recogniser)
        started = time.perf_counter()
        rng = np.random.default_rng(CAMERA_SEED)
        seen = functools.partial(degrade.camera_view, rng=rng, **camera) if camera else None
        frames = loop.run_file(str(demo.video), seen=seen)
        elapsed = time.perf_counter() - started
        record = session.record()
        store.close()
    truth = demo.true_record()
    same = record == truth
    verdicts = [c.verdict for c in loop.commits]
    print(json.dumps({"recogniser": recogniser.name if recogniser else None, **({"camera": camera} if camera else {}),
                      "frames": frames, "seconds": round(elapsed, 1), "reads": len(loop.commits),
                      "moves": len(record["moves"]), "true_moves": len(truth["moves"]),
                      "misreads": verdicts.count("misread"), "ambiguous": verdicts.count("ambiguous"),
                      "record_equal": same}))
    if not same:
        print(f"companion record: {json.dumps(record)}", file=sys.stderr)
    return 0 if same else 1
