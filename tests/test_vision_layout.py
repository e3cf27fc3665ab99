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


def test_superheld_graph_when_outlines_are_off() -> None:
    """In a map read off a camera some outlines are a few mm off or turned (a box spanning two touching
    cards): the map's grid puts them back on their cells, so the graph stays right."""
    for seed in range(4):
        rng = np.random.default_rng(seed)
        placements, truth = superheld_layout(rng, n=int(rng.integers(16, 40)))
        _, truths, _ = compose(placements, rng, (1280, 720), effects=False, max_tilt=0.3, fill=(0.8, 0.95))
        dets = truth_detections(truths)
        for k in range(0, len(dets), 5):  # every fifth card: shifted by a tenth of its width, turned 15 degrees
            q = dets.corners[k]
            centre = q.mean(axis=0) + 0.1 * (q[1] - q[0])
            a = np.radians(15.0)
            turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
            dets.corners[k] = (q - q.mean(axis=0)) @ turn.T + centre
        graph = superheld_map(dets, table_homography(dets))
        assert {tuple(e) for e in graph["edges"]} == set(truth["edges"])


def test_a_card_laid_across_a_map_keeps_its_outline() -> None:
    """The rules let a card touch its neighbour short side to long side: it is not forced onto a cell."""
    from vision.cards.grid import PITCH_MM, on_cells

    cells = [(i, j) for i in range(3) for j in range(2)]
    portrait = [_card("x", i * PITCH_MM[0], j * PITCH_MM[1]) for i, j in cells]
    across = _card("x", 3 * PITCH_MM[0] + 1, 10, w=CARD_H_MM, h=CARD_W_MM)
    off = portrait[0] + np.array([4.0, -3.0], np.float32)  # a portrait card a few mm off its cell
    out = on_cells(np.array([*portrait[1:], off, across]))
    assert np.allclose(out[:-1], np.array([*portrait[1:], portrait[0]]), atol=1e-3)
    assert np.allclose(out[-1], across)


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


def test_homography_jacobian_is_the_residuals_derivative() -> None:
    from scipy.optimize import least_squares
    from scipy.optimize._numdiff import approx_derivative

    from vision.homography import _shape_jacobian, _shape_residuals

    rng = np.random.default_rng(12)
    placements, _ = superheld_layout(rng, n=24)
    _, truths, _ = compose(placements, rng, (1280, 720), effects=False, max_tilt=0.4, fill=(0.8, 0.95))
    dets = truth_detections(truths)
    quads = dets.corners.astype(np.float64) + rng.normal(0, 1.0, dets.corners.shape)  # outlines a pixel off
    h = table_homography(CardDetections(dets.codes, quads.astype(np.float32), dets.confidence, dets.backs,
                                        dets.index_seen))
    ref = quads[int(np.argmax(dets.confidence))]
    params = h.reshape(-1)[:8]
    numeric = approx_derivative(lambda p: _shape_residuals(p, quads, ref), params, method="3-point")
    closed = _shape_jacobian(params, quads, ref)
    assert np.allclose(closed, numeric, rtol=1e-4, atol=1e-6 * np.abs(closed).max())
    # the fit with finite differences lands where the closed form's does
    fd = least_squares(_shape_residuals, params * (1 + 1e-3), args=(quads, ref), loss="soft_l1", f_scale=3.0,
                       max_nfev=200, x_scale="jac")
    assert np.allclose(np.append(fd.x, 1.0).reshape(3, 3), h, rtol=1e-4, atol=1e-9)
