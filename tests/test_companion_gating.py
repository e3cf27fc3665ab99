"""Stable-frame gating on the shipped demo video (real frames through cv2.VideoCapture, hands included)."""

from __future__ import annotations

import json

import cv2
import numpy as np

from companion.demo_render import DEMO_DIR, DEMO_NAME
from companion.gating import GateConfig, StillnessGate

VIDEO = DEMO_DIR / f"{DEMO_NAME}.mp4"
TIMELINE = json.loads((DEMO_DIR / f"{DEMO_NAME}.timeline.json").read_text())


def gate_commits(config: GateConfig | None = None) -> list[int]:
    cap = cv2.VideoCapture(str(VIDEO))
    fps = cap.get(cv2.CAP_PROP_FPS)
    gate = StillnessGate(config)
    commits, pos = [], 0
    while True:
        ok, frame = cap.read()
        if not ok:
            break
        if gate.feed(frame, pos / fps):
            commits.append(pos)
        pos += 1
    cap.release()
    assert pos == TIMELINE["frames"]
    return commits


def test_one_read_per_hand_visit_soon_after_the_hand_leaves_and_none_while_it_is_there() -> None:
    commits = gate_commits()
    leaves = [entry["frame"] for entry in TIMELINE["leaves"]]
    fps = TIMELINE["fps"]
    assert commits[0] < leaves[0]  # the empty table at the start
    later = commits[1:]
    assert len(later) == len(leaves)
    for leave, commit in zip(leaves, later, strict=True):
        # a fingertip at the frame's edge on the way out may already count as gone
        assert leave - 3 <= commit <= leave + round(0.2 * fps) + 2, (leave, commit)


def test_a_resting_hand_is_not_read_until_it_leaves() -> None:
    table = np.full((180, 320, 3), (90, 60, 30), np.uint8)
    cv2.rectangle(table, (100, 40), (140, 100), (250, 250, 250), -1)
    with_hand = table.copy()
    cv2.rectangle(with_hand, (150, 60), (200, 179), (120, 160, 220), -1)  # an arm from the bottom edge, still
    gate = StillnessGate(GateConfig(still_s=0.2))
    t = 0.0
    reads = []
    for frame in [table] * 8 + [with_hand] * 40 + [table] * 8:
        reads.append(gate.feed(frame, t))
        t += 0.04
    assert reads[:8].count(True) == 1  # the first still view
    assert not any(reads[8:48])  # 1.6 s of a still hand: never read
    assert gate.state == "still" and not any(reads[48:])  # it left everything as it was: nothing new to read


def test_a_new_card_is_read_after_stillness_and_a_play_area_limits_what_counts() -> None:
    table = np.full((180, 320, 3), (90, 60, 30), np.uint8)
    changed = table.copy()
    cv2.rectangle(changed, (100, 40), (140, 100), (250, 250, 250), -1)
    gate = StillnessGate(GateConfig(still_s=0.2))
    reads = [gate.feed(f, i * 0.04) for i, f in enumerate([table] * 8 + [changed] * 8)]
    assert reads.index(True) < 8 and reads[8:].count(True) == 1
    outside = changed.copy()
    cv2.rectangle(outside, (280, 10), (310, 50), (250, 250, 250), -1)
    gate.set_play_area([[0.0, 0.0], [0.75, 0.0], [0.75, 1.0], [0.0, 1.0]])
    reads = [gate.feed(f, 1.0 + i * 0.04) for i, f in enumerate([changed] * 8 + [outside] * 8)]
    assert True not in reads and gate.state == "still"  # a change outside the play area is not read


def test_a_change_of_the_room_light_is_no_arm_and_no_new_view() -> None:
    table = np.full((180, 320, 3), (90, 60, 30), np.uint8)
    cv2.rectangle(table, (100, 40), (140, 100), (250, 250, 250), -1)
    dim = (table * 0.5).astype(np.uint8)  # a lamp put out: every pixel at once, the edges too
    laid = dim.copy()
    cv2.rectangle(laid, (180, 40), (220, 100), (125, 125, 125), -1)  # then a card laid, in the dimmer light
    with_hand = laid.copy()
    cv2.rectangle(with_hand, (150, 60), (200, 179), (60, 80, 110), -1)  # an arm from the bottom edge, still
    gate = StillnessGate(GateConfig(still_s=0.2))
    t, reads, states = 0.0, [], []
    for frame in [table] * 8 + [dim] * 12 + [with_hand] * 20 + [laid] * 10:
        reads.append(gate.feed(frame, t))
        states.append(gate.state)
        t += 0.04
    assert reads[:8].count(True) == 1
    assert "hand" not in states[8:20] and not any(reads[8:20])  # the light alone: nothing to read, no arm
    assert "hand" in states[20:40] and not any(reads[20:40])  # an arm in the new light is still an arm
    assert reads[40:].count(True) == 1  # the card laid is read once the arm has left
