"""The demo: its shipped video, record and timeline agree, and the referee loop on the video gives back the record."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.commands.demo import Demo
from companion.demo_render import Painter, demo_record, frames, plan
from companion.loop import RefereeLoop
from companion.recognisers import RecogniserUnavailable, recogniser_for
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
    assert DEMO.video.stat().st_size < 5_000_000
    # the demo declares the cards of its dungeon, never their order
    assert DEMO.setup == {"deck": sorted(record.setup["dungeon"])}


def test_rendering_is_deterministic() -> None:
    first = [f for f, _ in zip(frames(demo_record(), Painter()), range(30), strict=False)][25][0]
    again = [f for f, _ in zip(frames(demo_record(), Painter()), range(30), strict=False)][25][0]
    assert first.shape == (360, 640, 3) and np.array_equal(first, again)


@pytest.mark.slow
def test_the_companion_watching_the_demo_video_ends_with_the_true_record(tmp_path: Path) -> None:
    try:
        recogniser = recogniser_for(DEMO.game)
    except RecogniserUnavailable as exc:
        pytest.skip(str(exc))
    session = Session(Store(tmp_path / "demo.db"))
    session.new_game(DEMO.game, DEMO.options, DEMO.setup)
    loop = RefereeLoop(session, recogniser)
    loop.run_file(str(DEMO.video))
    verdicts = [c.verdict for c in loop.commits]
    assert "misread" not in verdicts and "ambiguous" not in verdicts, verdicts
    assert session.record() == DEMO.true_record()
