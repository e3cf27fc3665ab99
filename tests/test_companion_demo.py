"""The demo: its shipped video, record and timeline agree, and the referee loop on the video gives back the record."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.commands.demo import Demo
from companion.demo_deck import PHOTO, PROFILE_NAME, ensure_profile
from companion.demo_render import SIZE, Painter, demo_record, frames, plan
from companion.loop import RefereeLoop
from companion.recognisers import RecogniserUnavailable, load_profile, recogniser_for
from companion.session import Session
from companion.store import Store
from engine.match import Match
from engine.record import load_record

DEMO = Demo.load()


def test_shipped_record_timeline_and_video_agree() -> None:
    record = load_record(DEMO.record.read_text(encoding="utf-8"))
    assert record.to_json() == demo_record().to_json()
    out = Match.replay(record).to_json()
    assert out["status"] == "won" and [v["rule"] for v in out["violations"]] == ["weapon-blunted"]
    assert 20 <= len(record.moves) <= 40
    timeline = json.loads(DEMO.timeline.read_text(encoding="utf-8"))
    assert [m for leave in timeline["leaves"] for m in leave["moves"]] == record.moves
    assert len(timeline["leaves"]) == len(plan(record)[1])
    cap = cv2.VideoCapture(str(DEMO.video))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == timeline["frames"]
    assert round(cap.get(cv2.CAP_PROP_FPS)) == timeline["fps"]
    cap.release()
    assert DEMO.video.stat().st_size < 8_000_000
    assert timeline["size"] == list(SIZE) == [960, 540]
    # the demo declares the cards of its dungeon, never their order
    assert DEMO.setup == {"deck": sorted(record.setup["dungeon"])}


def test_rendering_is_deterministic() -> None:
    first = [f for f, _ in zip(frames(demo_record(), Painter()), range(30), strict=False)][25][0]
    again = [f for f, _ in zip(frames(demo_record(), Painter()), range(30), strict=False)][25][0]
    assert first.shape == (540, 960, 3) and np.array_equal(first, again)


@pytest.fixture(scope="module")
def demo_profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo deck enrolled from its shipped photo by the normal enrollment path, in a store of its own."""
    return ensure_profile(tmp_path_factory.mktemp("profiles"))


def test_the_demo_deck_profile_is_enrolled_from_its_photo_and_reused(demo_profile: Path) -> None:
    assert PHOTO.stat().st_size < 4_000_000
    profile = load_profile(demo_profile)
    assert profile.name == PROFILE_NAME and profile.kind == "cards"
    assert len(profile.labels) == 53 and "back0" in profile.labels and profile.manifest["missing"] == []
    stamp = (demo_profile / "manifest.json").stat().st_mtime_ns
    assert ensure_profile(demo_profile.parent) == demo_profile  # the same photo: not enrolled again
    assert (demo_profile / "manifest.json").stat().st_mtime_ns == stamp


def test_the_deck_recogniser_reads_a_fan_and_the_room(demo_profile: Path,
                                                      demo_frame: Callable[[int], np.ndarray]) -> None:
    """Frame 245: 7C in the room, the 10D weapon with 9S and 8S fanned over it, the dungeon pile."""
    recogniser = recogniser_for(DEMO.game, demo_profile, DEMO.setup["deck"])
    assert recogniser is not None
    reading = recogniser.read(demo_frame(245))
    assert reading.observation["room"] == ["7C"]
    assert reading.observation["weapon"] == "10D" and reading.observation["weapon_monsters"] == ["9S", "8S"]
    assert reading.observation["dungeon"] == 1


def test_an_unknown_profile_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecogniserUnavailable):
        recogniser_for(DEMO.game, tmp_path / "no-such-profile")


@pytest.mark.slow
def test_the_companion_watching_the_demo_video_ends_with_the_true_record(tmp_path: Path, demo_profile: Path) -> None:
    recogniser = recogniser_for(DEMO.game, demo_profile, DEMO.setup["deck"])
    session = Session(Store(tmp_path / "demo.db"))
    session.new_game(DEMO.game, DEMO.options, DEMO.setup)
    loop = RefereeLoop(session, recogniser)
    loop.run_file(str(DEMO.video))
    verdicts = [c.verdict for c in loop.commits]
    assert set(verdicts) <= {"same", "moves", "violation", "violation-standing"}, verdicts  # no misread, no doubt
    assert verdicts.count("violation") == 1
    assert session.record() == DEMO.true_record()


@pytest.mark.parametrize("weapon, monsters, room", [
    ("5D", ["QC", "JS", "9C", "2S"], ["8H", "KS", "2D"]),  # a fan of five with court cards, a full Scoundrel deck
    ("9D", [], ["3C", "10H", "4S", "7H"]),  # a lone weapon below a full room
])
def test_the_deck_recogniser_reads_tables_the_demo_never_shows(demo_profile: Path, weapon: str, monsters: list[str],
                                                               room: list[str]) -> None:
    from companion.demo_render import Table

    image = Painter().frame(Table(dungeon=5, slots=[*room, *[None] * (4 - len(room))], weapon=weapon,
                                  monsters=monsters, discard=3), None, None, 0)
    recogniser = recogniser_for(DEMO.game, demo_profile, "full")  # any card of the Scoundrel deck
    assert recogniser is not None
    obs = recogniser.read(image).observation
    assert obs["room"] == room and obs["weapon"] == weapon and obs["weapon_monsters"] == monsters
    assert obs["dungeon"] == 1 and obs["discard"] == 1


def test_court_cards_render_alike_in_every_process() -> None:
    """The demo video and the enrollment photo are rendered in different processes: a court card must not change."""
    import os
    import subprocess
    import sys

    from vision.synth.cards import render_face

    code = "import sys, numpy; from vision.synth.cards import render_face; sys.stdout.buffer.write(" \
           "render_face('JS', 0, 60).tobytes())"
    here = render_face("JS", 0, 60).tobytes()
    for seed in ("1", "2"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}, cwd=Path(__file__).resolve().parents[1])
        assert out.stdout == here


def test_the_cards_in_play_cut_the_profile_down(demo_profile: Path) -> None:
    from vision.cards.recognise import in_play

    profile = load_profile(demo_profile)
    cut = in_play(profile, {"8C", "8S", "10D"})
    assert cut.labels == [lab for lab in profile.labels if lab in {"8C", "8S", "10D", "back0"}]
    owners = set(cut.arrays["owner"].tolist())
    assert owners == set(range(len(cut.labels))) and len(cut.arrays["crops"]) == len(cut.arrays["crop_owner"]) == 4
    assert len(cut.arrays["features"]) == len(cut.arrays["owner"]) == len(cut.arrays["turn"])


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["--jpeg", "50", "--noise", "3"], ["--general", "--jpeg", "70"]])
def test_demo_check_reads_the_frames_as_a_worse_camera_shows_them(capsys: pytest.CaptureFixture[str],
                                                                  demo_profile: Path, argv: list[str]) -> None:
    """A webcam's MJPEG stream (and its sensor noise) read by the deck profile or the general recogniser: the
    companion's record is the true one."""
    profile = [] if "--general" in argv else ["--profile", str(demo_profile)]
    assert main(["demo", "--check", *argv, *profile]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["record_equal"] and out["moves"] == out["true_moves"] == 22
    assert out["camera"]["jpeg"] == int(argv[argv.index("--jpeg") + 1])
    assert out["recogniser"].startswith("vision.cards" if "--general" in argv else "deck profile")


@pytest.mark.parametrize(("argv", "message"), [
    (["--check", "--noise", "99"], "noise is 0 to 50"),
    (["--jpeg", "50"], "go with --check"),
    (["--check", "--general", "--profile", "demo-deck"], "leave out --profile"),
])
def test_demo_refuses_a_camera_or_recogniser_it_cannot_give(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                            message: str) -> None:
    assert main(["demo", *argv]) == 2
    assert message in capsys.readouterr().err
