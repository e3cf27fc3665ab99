"""vision.pawns on rendered tables: the demo's painter lays real-looking cards and stands shaded pawns on them.

The card outlines are the painter's own (a CardDetections of the true corners), so these tests judge the pawn
finder alone; the Superheld camera tests run it behind the card reader.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from companion.demo_render import CARD_H, CARD_W, Painter, draw_pawn
from vision import degrade
from vision.detections import CardDetections
from vision.pawns import Pawn, find_pawns, in_paper_light, paper_seen, pawn_colours
from vision.tiles.figures import MEEPLE_PAINT

PITCH = (80.0, 104.0)
COURTS = ["JH", "QH", "KH", "JD", "QD", "KD", "JS", "QC", "KS"]  # red faces first: red blocks the size of a pawn


def table(cards: list[tuple[str, float]], pawns: list[tuple[int, str, float, tuple[float, float]]],
          seed: int = 3) -> tuple[np.ndarray, CardDetections, list[tuple[float, float]]]:
    """Cards (code, rotation in degrees) in rows of five; pawns (card, colour, tilt, offset mm from the card's
    centre in its own frame); returns the picture as a camera's JPEG gives it, the cards' outlines and the feet."""
    painter = Painter((1280, 720), seed=seed)
    scene = painter.texture.copy()
    corners, centres = [], []
    for k, (code, angle) in enumerate(cards):
        centre = (k % 5 * PITCH[0], k // 5 * PITCH[1])
        corners.append(painter.paste(scene, code, centre, angle))
        centres.append((centre, angle))
    feet = []
    for n, (k, colour, tilt, (dx, dy)) in enumerate(pawns):
        (cx, cy), angle = centres[k]
        a = np.radians(angle)
        at = (cx + dx * np.cos(a) - dy * np.sin(a), cy + dx * np.sin(a) + dy * np.cos(a))
        feet.append(painter.pawn(scene, at, MEEPLE_PAINT[colour], tilt, seed=n))
    image = (scene.astype(np.float32) * painter.light).clip(0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    codes = [c for c, _ in cards]
    dets = CardDetections(codes, np.array(corners, np.float32), np.ones(len(codes), np.float32),
                          np.full(len(codes), -1, np.int16), np.ones(len(codes), bool))
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR), dets, feet


def calibration_photo(names: tuple[str, ...]) -> np.ndarray:
    """The player's pawns shown once, apart on a plain grey cloth (what `--pawn-photo` takes)."""
    photo = np.full((360, 480, 3), (118, 124, 128), np.uint8)
    rng = np.random.default_rng(11)
    photo = np.clip(photo + rng.normal(0, 3, photo.shape), 0, 255).astype(np.uint8)
    for k, name in enumerate(names):
        draw_pawn(photo, (120.0 + 240 * k, 220.0), 2.5, MEEPLE_PAINT[name], 20.0, rng)
    return photo


def px_per_mm(dets: CardDetections, i: int) -> float:
    return float(np.linalg.norm(dets.corners[i][1] - dets.corners[i][0])) / CARD_W


def near(pawn: Pawn, foot: tuple[float, float], dets: CardDetections, mm: float = 5.0) -> bool:
    assert pawn.card is not None
    return float(np.hypot(pawn.point[0] - foot[0], pawn.point[1] - foot[1])) <= mm * px_per_mm(dets, pawn.card)


@pytest.mark.parametrize(("rotation", "tilt"), [(0.0, 0.0), (8.0, 25.0), (-12.0, 45.0), (90.0, 15.0), (180.0, 35.0)])
def test_a_pawn_is_found_on_its_card_at_rotations_and_angles(rotation: float, tilt: float) -> None:
    cards = [(c, rotation) for c in ("7H", "9S", "4D", "10C", "2H", "QH", "8C", "KD", "3S", "6H")]
    image, dets, feet = table(cards, [(6, "red", tilt, (3.0, -6.0))])
    found = find_pawns(image, dets, pawn_colours(["red"]))
    assert [(p.colour, p.card) for p in found] == [("red", 6)], found
    assert near(found[0], feet[0], dets) and found[0].confidence >= 0.5


def test_no_pawn_is_seen_in_court_faces_red_pips_indices_or_backs() -> None:
    cards = [(c, a) for c, a in zip([*COURTS, "10H", "9D", "8H", "7D", "AH", "AD", "back", "back"],
                                     [0, 5, -7, 90, 180, 3, 0, -4, 8, 0, 2, -3, 90, 0, 6, 0, 4], strict=True)]
    image, dets, _ = table(cards, [])
    every = ("red", "blue", "yellow", "black", "green")
    trace: list[dict[str, Any]] = []
    assert find_pawns(image, dets, pawn_colours(every), trace) == []
    assert any(t["colour"] == "red" and t["area_mm2"] > 100 for t in trace)  # court blocks were looked at
    assert find_pawns(image, dets, pawn_colours(("red", "blue"), calibration_photo(("red", "blue")))) == []


def test_two_heroes_pawns_are_told_apart_by_their_calibrated_colours() -> None:
    names = ("red", "blue")
    colours = pawn_colours(names, calibration_photo(names))
    assert list(colours.colours) == list(names)
    cards = [(c, 0.0) for c in ("5H", "6S", "KH", "9C", "3D")]
    image, dets, feet = table(cards, [(0, "blue", 30.0, (0.0, 0.0)), (2, "red", 10.0, (0.0, 8.0))])
    found = sorted(find_pawns(image, dets, colours), key=lambda p: p.colour)
    assert [(p.colour, p.card) for p in found] == [("blue", 0), ("red", 2)], found
    assert all(near(p, feet[0 if p.colour == "blue" else 1], dets) for p in found)
    # the same two pawns, swapped: each colour follows its own pawn
    image, dets, _ = table(cards, [(3, "red", 20.0, (0.0, 0.0)), (1, "blue", 40.0, (2.0, 0.0))])
    assert sorted((p.colour, p.card) for p in find_pawns(image, dets, colours)) == [("blue", 1), ("red", 3)]


@pytest.mark.parametrize("code", ["QH", "8D", "5S"])
def test_a_pawn_half_over_a_cards_index_is_found_on_that_card(code: str) -> None:
    over_index = (-CARD_W / 2 + 9.0, -CARD_H / 2 + 13.0)  # the index's rank and suit, under the pawn's base
    cards = [("4H", 0.0), (code, 4.0), ("2D", 0.0)]
    image, dets, feet = table(cards, [(1, "red", 20.0, over_index)])
    found = find_pawns(image, dets, pawn_colours(["red", "yellow"]))
    assert [(p.colour, p.card) for p in found] == [("red", 1)], found
    assert near(found[0], feet[0], dets)


def test_pawns_off_the_cards_or_without_cards_are_not_looked_for() -> None:
    image, dets, _ = table([("7H", 0.0)], [(0, "red", 0.0, (0.0, 70.0))])  # beside the card, on the cloth
    assert find_pawns(image, dets, pawn_colours(["red"])) == []
    assert find_pawns(image, CardDetections(), pawn_colours(["red"])) == []


def test_pawn_colours_must_be_known_and_distinct() -> None:
    for bad in (["purple"], ["red", "red"], []):
        with pytest.raises(ValueError, match="pawn colours"):
            pawn_colours(bad)
    assert Pawn("red", (1.0, 2.0), 3, 0.9).to_json() == {"colour": "red", "point": [1.0, 2.0], "card": 3,
                                                         "confidence": 0.9}


def test_pawns_in_a_dimmer_room_are_found_in_the_papers_first_light() -> None:
    names = ("red", "blue")
    colours = pawn_colours(names, calibration_photo(names))
    cards = [(c, 0.0) for c in ("5H", "6S", "KH", "9C", "3D")]
    image, dets, _ = table(cards, [(0, "blue", 30.0, (0.0, 0.0)), (2, "red", 10.0, (0.0, 8.0))])
    paper = paper_seen(image, dets)
    assert paper is not None and paper[0] > 200  # the faces' paper, not their print
    assert in_paper_light(image, dets, paper) is image  # the same light: nothing done
    dim = degrade.relit(image, 0.5)
    assert find_pawns(dim, dets, colours) == []  # both pawns out of their calibrated colours' cuts
    found = find_pawns(in_paper_light(dim, dets, paper), dets, colours)
    assert sorted((p.colour, p.card) for p in found) == [("blue", 0), ("red", 2)]
    assert in_paper_light(dim, dets, None) is dim  # no reference yet
    backs = CardDetections(["back"], dets.corners[:1], dets.confidence[:1], dets.backs[:1], dets.index_seen[:1])
    assert paper_seen(image, backs) is None  # a back's design is no paper
