"""Layouts from perfect detections: Scoundrel zones, the Superheld map graph, the table homography."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.geometry import CARD_H_MM, CARD_W_MM
from vision.detections import CardDetections
from vision.homography import table_homography, to_table
from vision.layout import scoundrel_zones, superheld_map
from vision.synth.layouts import scoundrel_table
from vision.synth.layouts import superheld_map as superheld_layout
from vision.synth.scene import compose
from vision.truth import truth_detections


def _zones_match(found: dict, truth: dict) -> bool:
    return (found["room"] == truth["room"] and found["weapon"] == truth["weapon"]
            and found["weapon_monsters"] == truth["weapon_monsters"]
            and bool(found["dungeon"]) == truth["dungeon"] and bool(found["discard"]) == truth["discard"])


def test_scoundrel_zones_from_perfect_cards() -> None:
    right = 0
    for seed in range(40):
        rng = np.random.default_rng(seed)
        placements, truth = scoundrel_table(rng)
        image, truths, _ = compose(placements, rng, (640, 360), effects=False, max_turn=12)
        right += _zones_match(scoundrel_zones(truth_detections(truths), image.shape), truth["zones"])
    assert right >= 38  # a lone face-down pile left of nothing is ambiguous by design


def _card(code: str, x: float, y: float, w: float = 63, h: float = 88) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def test_scoundrel_zones_by_hand() -> None:
    cards = [("back", _card("back", 0, 0)), ("5S", _card("5S", 100, 0)), ("7H", _card("7H", 180, 0)),
             ("8D", _card("8D", 150, 130)), ("QC", _card("QC", 152, 155)), ("3S", _card("3S", 154, 180)),
             ("back", _card("back", 300, 0))]
    dets = CardDetections([c for c, _ in cards], np.stack([q for _, q in cards]), np.ones(7, np.float32),
                          np.array([0, -1, -1, -1, -1, -1, 0], np.int16), np.ones(7, bool))
    zones = scoundrel_zones(dets, (400, 500, 3))
    assert zones == {"room": ["5S", "7H"], "weapon": "8D", "weapon_monsters": ["QC", "3S"], "dungeon": 1,
                     "discard": 1}


def test_superheld_graph_from_perfect_cards() -> None:
    for seed in range(6):
        rng = np.random.default_rng(seed)
        placements, truth = superheld_layout(rng, n=int(rng.integers(10, 40)))
        _, truths, _ = compose(placements, rng, (1280, 720), effects=False, max_tilt=0.3, fill=(0.8, 0.95))
        dets = truth_detections(truths)
        graph = superheld_map(dets, table_homography(dets))
        assert {tuple(e) for e in graph["edges"]} == set(truth["edges"])
        assert len(graph["cards"]) == len(placements)


def test_homography_measures_cards_in_millimetres() -> None:
    rng = np.random.default_rng(11)
    placements, _ = superheld_layout(rng, n=20)
    _, truths, _ = compose(placements, rng, (1280, 720), effects=False, max_tilt=0.4, fill=(0.8, 0.95))
    dets = truth_detections(truths)
    mm = to_table(table_homography(dets), dets.corners)
    widths = np.linalg.norm(mm[:, 1] - mm[:, 0], axis=1)
    heights = np.linalg.norm(mm[:, 3] - mm[:, 0], axis=1)
    assert np.median(widths) == pytest.approx(CARD_W_MM, rel=0.03)
    assert np.median(heights) == pytest.approx(CARD_H_MM, rel=0.03)


def test_empty_detections() -> None:
    empty = CardDetections()
    assert table_homography(empty) is None
    assert superheld_map(empty, None) == {"cards": [], "edges": []}
    assert scoundrel_zones(empty, (10, 10, 3))["room"] == []
    assert empty.to_json() == []


def test_detections_to_json_and_select() -> None:
    dets = CardDetections(["QS", "back"], np.stack([_card("QS", 0, 0), _card("b", 70, 0)]),
                          np.array([0.97, 0.8], np.float32), np.array([-1, 1], np.int16), np.array([True, False]))
    out = dets.to_json()
    assert out[0]["code"] == "QS" and len(out[0]["corners"]) == 4 and out[0]["confidence"] == pytest.approx(0.97)
    assert out[1] == {"code": "back", "corners": out[1]["corners"], "confidence": 0.8, "back": 1}
    assert dets[dets.face_down].codes == ["back"]
