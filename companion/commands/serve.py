"""`companion serve --source SRC --game G`: referee a real table from a camera and serve the dashboard."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any

from companion.cli import UsageError
from companion.runtime import DEFAULT_PORT, Companion, Config, default_db
from engine.game import RecordError


def add_server_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; 0.0.0.0 for a phone, "
                                                       "which then needs the access token printed at start)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 picks a free one)")
    p.add_argument("--db", type=Path, default=None, help=f"the companion's SQLite database (default {default_db()})")
    p.add_argument("--resume", action="store_true", help="continue the database's latest game exactly where it was")
    p.add_argument("--no-browser", action="store_true", help="do not open the dashboard in a browser")
    p.add_argument("--profile", default=None, help="an enrolled deck (profile name, or the path of its folder): cards "
                                                   "are identified against it instead of by the general recogniser")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="referee the table seen by a camera and serve the dashboard")
    p.add_argument("--source", required=True,
                   help="webcam index (0), RTSP or HTTP MJPEG URL, video file or folder of images")
    p.add_argument("--game", default="scoundrel", help="the game on the table (default scoundrel)")
    p.add_argument("--options", default="{}", help="the game's options as JSON")
    p.add_argument("--setup", default=None, help='the game\'s setup as JSON (Scoundrel default {"deck": "full"})')
    p.add_argument("--speed", type=float, default=1.0, help="play a video file this many times faster")
    p.add_argument("--pawns", default=None, help="Superheld: the heroes' pawn colours, hero 1 first (red, blue, "
                                                 "yellow, black, green; e.g. red or red,blue): the camera then sees "
                                                 "where each hero stands")
    p.add_argument("--pawn-photo", type=Path, default=None,
                   help="a photo of those pawns apart on a plain surface: their colours are measured on it "
                        "(else typical paint is assumed)")
    add_server_arguments(p)
    p.set_defaults(run=run)


def json_arg(text: str, name: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name} is not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise UsageError(f"{name} must be a JSON object")
    return value


def run(args: argparse.Namespace) -> int:
    setup = json_arg(args.setup, "--setup") if args.setup else ({"deck": "full"} if args.game == "scoundrel" else {})
    config = Config(db=args.db or default_db(), source=args.source, game=args.game,
                    options=json_arg(args.options, "--options"), setup=setup, host=args.host, port=args.port,
                    resume=args.resume, speed=args.speed, profile=check_profile(args.profile, args.game),
                    pawns=pawn_colours(args.pawns, args.pawn_photo))
    return serve(config, args.no_browser)


def pawn_colours(names: str | None, photo: Path | None) -> dict[str, list[float]] | None:
    """The pawn colours' calibration (JSON), measured on the photo when there is one; refused before anything starts."""
    if names is None:
        if photo is not None:
            raise UsageError("--pawn-photo needs --pawns, the colours it shows (hero 1 first)")
        return None
    import cv2

    from vision.pawns import pawn_colours as calibrate

    image = None
    if photo is not None:
        image = cv2.imread(str(photo), cv2.IMREAD_COLOR)
        if image is None:
            raise UsageError(f"--pawn-photo: cannot read an image at {photo}")
    try:
        return calibrate([n.strip() for n in names.split(",")], image).to_json()
    except ValueError as exc:
        raise UsageError(f"--pawns: {exc}") from None


def check_profile(ref: str | None, game: str = "scoundrel") -> str | None:
    """Refuse an unknown or unreadable profile, or one of another kind than the game reads, before anything starts."""
    if ref is None:
        return None
    from companion.recognisers import PROFILE_KIND_OF, RecogniserUnavailable, load_deck_profile

    try:
        load_deck_profile(ref, PROFILE_KIND_OF.get(game, "cards"))
    except RecogniserUnavailable as exc:
        raise UsageError(str(exc)) from None
    return ref


def start(config: Config) -> Companion:
    try:
        return Companion(config).start()
    except RecordError as exc:
        raise UsageError(str(exc)) from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(f"cannot serve on {config.host}:{config.port}: {exc.strerror or exc}") from None


def announce_start(companion: Companion) -> None:
    print(f"Table Companion: dashboard at {companion.url}", flush=True)
    if companion.token:
        print(f"access token: {companion.token} (needed from other devices; it is part of the address above)",
              flush=True)
    if companion.warning:
        print(f"note: {companion.warning}; the camera feeds the live view and moves are entered on the dashboard",
              file=sys.stderr, flush=True)


def open_browser(url: str) -> None:
    """Only where a graphical browser can appear (never a terminal browser on a headless machine)."""
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform in ("darwin", "win32"):
        webbrowser.open(url)


def stop_on_signals() -> None:
    """Ctrl-C and SIGTERM stop the server cleanly, even when started from a shell that ignores SIGINT.

    A background job of a non-interactive shell inherits SIGINT as ignored, and Python then installs
    no KeyboardInterrupt handler; the store must still be closed properly on the player's Ctrl-C.
    """
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def serve(config: Config, no_browser: bool, until: threading.Event | None = None) -> int:
    stop_on_signals()
    companion = start(config)
    announce_start(companion)
    if not no_browser:
        open_browser(companion.url)
    try:
        (until or threading.Event()).wait()
    except KeyboardInterrupt:
        pass
    finally:
        companion.stop()
    return 0
