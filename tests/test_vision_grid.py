"""Cards read again through outlines truer than their boxes: the grid of a map of touching cards (found from
the cards' centres, its cells outlining each card) where a card's own outline was wrong or missing, and a
turned outline off a map."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards.detect import DETECTOR, int8_exact
from vision.cards.geometry import CARD_H_MM, CARD_W_MM, quad_iou
from vision.cards.grid import cells_beside, lattice_grid, map_grid
from vision.cards.labels import UNREAD
from vision.detections import CardDetections
from vision.synth.layouts import scoundrel_table, superheld_map
from vision.synth.scene import compose


def _map_scene(seed: int = 5, n: int = 20) -> tuple[np.ndarray, list]:
    rng = np.random.default_rng(seed)
    placements, _ = superheld_map(rng, n=n, style=0, compact=True)
    image, truths, _ = compose(placements, rng, hands=0, max_tilt=0.3, fill=(0.8, 0.9))
    return image, truths


def _corners(truths: list) -> np.ndarray:
    return np.array([t.corners for t in truths], np.float32)


def _shifted(corners: np.ndarray, along: float) -> np.ndarray:
    """The outline moved sideways by `along` of a card's width: a box spanning two touching cards."""
    return (corners + along * (corners[1] - corners[0])).astype(np.float32)


def _map_read(seed: int, scene: int) -> tuple[list, CardDetections]:
    """A map scene of the synthetic evaluation (`synthetic_scenes`) and the pipeline's reading of it."""
    from vision.cards import predict
    from vision.evaluate import synthetic_scenes

    *_, (kind, _, _, image, truths) = synthetic_scenes(seed, scene + 1)
    assert kind == "superheld"
    return truths, predict(image)


def _outlines_of(dets: CardDetections, code: str) -> list[np.ndarray]:
    return [q for c, q in zip(dets.codes, dets.corners, strict=True) if c == code]


def _read_once_iou(truths: list, dets: CardDetections, code: str) -> float:
    """How well the one reading of `code` outlines its true card (0 where it is read more or less than once)."""
    truth = next(t for t in truths if t.code == code)
    found = _outlines_of(dets, code)
    return quad_iou(found[0], truth.corners) if len(found) == 1 else 0.0


def test_every_card_of_a_map_lies_in_its_grid_cell() -> None:
    _, truths = _map_scene()
    corners = _corners(truths)
    grid = map_grid(corners, np.linspace(0.5, 1.0, len(corners)))
    assert grid is not None and grid.members.all()
    assert len({tuple(c) for c in grid.cells}) == len(truths)  # one card per cell
    for cell, card in zip(grid.cells, corners, strict=True):
        assert quad_iou(grid.outline(cell), card) > 0.85


def test_a_wrong_first_outline_does_not_spoil_the_grid() -> None:
    """The most confident card's outline is too short (a box cut on a court's picture): another start wins."""
    _, truths = _map_scene()
    corners = _corners(truths)
    confidence = np.full(len(corners), 0.6)
    confidence[0] = 1.0
    corners[0, 2:] = corners[0, :2] + 0.7 * (corners[0, 2:] - corners[0, :2])
    grid = map_grid(corners, confidence)
    assert grid is not None and grid.members[1:].sum() >= len(corners) - 2


def test_cards_scattered_over_a_table_make_no_grid() -> None:
    rng = np.random.default_rng(3)
    quads = []
    for x, y, angle in ((100, 100, 0), (400, 130, 35), (250, 420, 70), (600, 380, 15), (520, 600, 50)):
        a = np.radians(angle + rng.normal(0, 2))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        card = np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]]) @ rot.T
        quads.append(card + [x, y])
    assert map_grid(np.array(quads, np.float32), np.ones(5)) is None


def test_a_scoundrel_table_is_no_map() -> None:
    """Its room row is spaced wider than a map's pitch: few of its cards would lie in cells."""
    rng = np.random.default_rng(11)
    placements, _ = scoundrel_table(rng, style=0)
    _, truths, _ = compose(placements, rng, hands=0, max_tilt=0.2, fill=(0.7, 0.9), max_turn=12)
    faces = [t for t in truths if t.code != "back" and t.visible > 0.9]
    grid = map_grid(_corners(faces), np.ones(len(faces))) if len(faces) else None
    assert grid is None or grid.members.sum() <= len(faces) // 2 + 1


def test_an_outline_spanning_two_cards_gets_both_cells() -> None:
    _, truths = _map_scene()
    corners = _corners(truths)
    grid = map_grid(corners, np.ones(len(corners)))
    assert grid is not None
    k = int(np.argmin(np.abs(grid.cells - np.median(grid.cells, axis=0)).sum(axis=1)))  # a card inside the map
    wrong = _shifted(corners[k], 0.45)
    outlines = [grid.outline(c) for c in grid.cells_under(wrong.mean(axis=0))]
    assert len(outlines) == 2
    assert max(quad_iou(o, corners[k]) for o in outlines) > 0.85
    near = cells_beside(wrong, np.delete(corners, k, axis=0))
    assert max(quad_iou(o, corners[k]) for o in near) > 0.8


def test_a_missing_card_leaves_its_cell_empty() -> None:
    _, truths = _map_scene()
    corners = _corners(truths)
    grid = map_grid(corners, np.ones(len(corners)))
    assert grid is not None
    k = int(np.argmin(np.abs(grid.cells - np.median(grid.cells, axis=0)).sum(axis=1)))
    empty = grid.empty_cells(np.delete(corners, k, axis=0).mean(axis=1), ring=0)
    assert tuple(grid.cells[k]) in {tuple(c) for c in empty}
    assert len(grid.empty_cells(corners.mean(axis=1), ring=1)) > 0  # the ring around the map


def test_a_full_map_has_no_empty_cells_and_outlines_none() -> None:
    """OpenCV transforms no points to None; a map with no hole must give empty arrays, not fail."""
    _, truths = _map_scene()
    corners = _corners(truths)
    grid = map_grid(corners, np.ones(len(corners)))
    assert grid is not None
    empty = grid.empty_cells(corners.mean(axis=1), ring=0)
    assert grid.outlines(empty).shape == (len(empty), 4, 2)
    assert grid.outlines(np.zeros((0, 2), int)).shape == (0, 4, 2)


@pytest.mark.parametrize("along", [0.4, -0.45])
def test_a_card_misread_through_a_wrong_outline_is_read_again_in_its_cell(along: float) -> None:
    from vision.cards.maps import _read_in_grid
    from vision.detections import CardDetections

    image, truths = _map_scene(seed=8, n=16)
    corners = _corners(truths)
    grid = map_grid(corners, np.ones(len(corners)))
    assert grid is not None
    k = [i for i, t in enumerate(truths) if t.code != "back"][5]
    outlines = corners.copy()
    outlines[k] = _shifted(corners[k], along)
    n = len(truths)
    codes = ["9D" if i == k else t.code for i, t in enumerate(truths)]  # misread, unsure
    faces = CardDetections(codes, outlines, np.where(np.arange(n) == k, 0.3, 1.0).astype(np.float32),
                           np.full(n, -1, np.int16), np.ones(n, bool))
    cards = _read_in_grid(image, grid, faces, CardDetections(), CardDetections())
    assert len(cards) == n
    j = int(np.argmax([quad_iou(c, corners[k]) for c in cards.corners]))
    assert cards.codes[j] == truths[k].code and quad_iou(cards.corners[j], corners[k]) > 0.85
    assert cards.confidence[j] > 0.3


def test_a_card_in_a_hole_of_the_map_and_an_unread_card_are_read() -> None:
    from vision.cards.maps import _read_in_grid
    from vision.detections import CardDetections

    image, truths = _map_scene(seed=8, n=16)
    corners = _corners(truths)
    grid = map_grid(corners, np.ones(len(corners)))
    assert grid is not None
    hole, lost = [i for i, t in enumerate(truths) if t.code != "back"][4:6]
    n = len(truths)
    rest = [i for i in range(n) if i not in (hole, lost)]
    faces = CardDetections([truths[i].code for i in rest], corners[rest], np.ones(len(rest), np.float32),
                           np.full(len(rest), -1, np.int16), np.ones(len(rest), bool))
    unread = CardDetections(["?"], _shifted(corners[lost], 0.4)[None], np.ones(1, np.float32),
                            np.full(1, -1, np.int16), np.zeros(1, bool))
    cards = _read_in_grid(image, grid, faces, CardDetections(), unread)
    assert len(cards) == n and "?" not in cards.codes
    for i in (hole, lost):
        j = int(np.argmax([quad_iou(c, corners[i]) for c in cards.corners]))
        assert cards.codes[j] == truths[i].code and quad_iou(cards.corners[j], corners[i]) > 0.8


def test_an_unread_card_whose_box_is_turned_is_read_through_a_turned_outline() -> None:
    """Off a map there is no grid: a box turned 20 degrees off its card is turned back to read it."""
    from vision.cards.geometry import turned_by
    from vision.cards.reread import _read_turned
    from vision.detections import CardDetections
    from vision.synth.cards import render_face
    from vision.synth.scene import paste_card

    scene = np.full((540, 960, 3), 40, np.uint8)
    card = np.array([[400, 150], [526, 150], [526, 326], [400, 326]], np.float32)
    paste_card(scene, render_face("KC", 0, 252), card)
    box = turned_by(card, 20.0)
    unread = CardDetections(["?"], box[None], np.ones(1, np.float32), np.full(1, -1, np.int16), np.zeros(1, bool))
    read, still = _read_turned(scene, unread)
    assert read.codes == ["KC"] and len(still) == 0
    assert quad_iou(read.corners[0], card) > 0.8
    nothing, kept = _read_turned(np.full((540, 960, 3), 40, np.uint8), unread)  # no card there: still unread
    assert len(nothing) == 0 and len(kept) == 1


@pytest.mark.parametrize("degrees", [20.0, -30.0])
def test_an_unread_card_in_an_upright_box_is_read_through_the_turned_card_the_box_holds(degrees: float) -> None:
    """A real photo's box of a partly covered card is upright (its labels were): the card it holds, turned,
    is smaller than the box."""
    import cv2

    from vision.cards.geometry import turned_by
    from vision.cards.reread import _inscribed, _read_turned
    from vision.detections import CardDetections
    from vision.synth.cards import render_face
    from vision.synth.scene import paste_card

    scene = np.full((540, 960, 3), 40, np.uint8)
    card = turned_by(np.array([[400, 150], [526, 150], [526, 326], [400, 326]], np.float32), degrees)
    paste_card(scene, render_face("9D", 0, 252), card)
    x, y, w, h = cv2.boundingRect(card.astype(np.float32))
    box = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
    assert quad_iou(_inscribed(box, degrees), card) > 0.9
    unread = CardDetections(["?"], box[None], np.ones(1, np.float32), np.full(1, -1, np.int16), np.zeros(1, bool))
    read, still = _read_turned(scene, unread)
    assert read.codes == ["9D"] and len(still) == 0
    assert quad_iou(read.corners[0], card) > 0.8


def test_cards_laid_apart_in_rows_make_no_grid_of_touching_cards() -> None:
    """A map laid 16 mm apart is no mosaic: its cells would cut cards in two. (Seen in perspective, with the
    piles beside it, every fourth card fell near a line of a grid of touching cards: the Superheld video test
    in test_companion_superheld_camera.py caught that, and only cells joined edge to edge now count.)"""
    gap = 16.0
    quads = [np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]], np.float32)
             + [i * (CARD_W_MM + gap), j * (CARD_H_MM + gap)] for i in range(8) for j in range(6)]
    corners = np.array(quads, np.float32) * 2.0 + 40.0  # 2 px per mm
    assert map_grid(corners, np.linspace(0.5, 1.0, len(corners))) is None


@pytest.mark.parametrize("loose", [1.06, 1.12])
def test_a_map_whose_outlines_are_looser_than_its_cells_still_has_a_grid(loose: float) -> None:
    """The outlines of a map's tiny cards (35 px wide) come out a tenth wider than the cards: the cells, set by the
    cards' centres, are the cards' size, and the grid stands (selection seed 5353: a map at 45 degrees)."""
    _, truths = _map_scene()
    corners = _corners(truths)
    centres = corners.mean(axis=1, keepdims=True)
    grid = map_grid(centres + (corners - centres) * loose, np.linspace(0.5, 1.0, len(corners)))
    assert grid is not None and grid.members.sum() >= len(corners) - 1


def test_a_map_whose_outlines_are_tighter_than_its_cells_still_has_a_grid() -> None:
    """A map in steep perspective under a hand (seed 80996, scene 22): its faces' outlines came out a ninth shorter
    than their cells, the grid was refused, and the map was read as loose cards (10 of its cards wrong)."""
    _, truths = _map_scene()
    corners = _corners(truths)
    centres = corners.mean(axis=1, keepdims=True)
    grid = map_grid(centres + (corners - centres) / 1.12, np.linspace(0.5, 1.0, len(corners)))
    assert grid is not None and grid.members.sum() >= len(corners) - 1


def test_only_cards_joined_to_the_first_through_the_map_count() -> None:
    from vision.cards.grid import JOIN_CELLS, _joined

    cells = np.array([[0, 0], [1, 0], [1, 0], [3, 0], [3 + JOIN_CELLS + 1, 0], [0, 1]])
    candidates = np.array([True, True, True, True, True, False])
    joined = _joined(cells, candidates, 0)
    assert joined.tolist() == [True, True, True, True, False, False]  # two cards in one cell; a hole crossed
    assert not _joined(cells, ~candidates, 0).any()  # the first card is no candidate: no grid



def test_a_map_under_a_hand_is_read_as_its_grid_grows_beyond_the_rows_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Selection seed 5353, scene 2: a hand over a 46-card map leaves 11 faces read and 17 unread boxes, mostly
    spanning two cards; the homography fitted to the faces read (a band of rows) tilts the rows beyond them, so
    their cells cut across two cards. Read again round by round through free cells of the grid refitted to the
    cards read so far, and of an affine fit (`Grid.flat`), more cards are read right (20 -> 27 of 46; with session
    20's readers, which read more of the map at once, 22 -> 26), none wrong."""
    import vision.cards as cards_module
    import vision.cards.maps as maps_module
    from vision.evaluate import match_cards, synthetic_scenes

    *_, image, truths = list(synthetic_scenes(5353, 3))[2]
    figures = {}
    for rounds in (0, maps_module.GRID_ROUNDS):
        monkeypatch.setattr(maps_module, "GRID_ROUNDS", rounds)
        right, wrong, extra, _ = match_cards(cards_module.predict(image), truths)
        figures[rounds] = (right, wrong, extra)
    (right0, wrong0, extra0), (right, wrong, extra) = figures[0], figures[maps_module.GRID_ROUNDS]
    assert right >= right0 + 4
    assert wrong + extra <= wrong0 + extra0



def test_a_card_of_a_map_read_twice_through_overlapping_outlines_is_one_card() -> None:
    """Selection seed 777, scene 10: a fanned card's reading (a neighbour's index read through the card beside
    moved onto it) and a face read in its cell lay on one 9S, read 9S and 10D: the 10D was an extra card."""
    from vision.cards import predict
    from vision.cards.geometry import pairwise_iou
    from vision.cards.labels import CARD_CODES
    from vision.cards.maps import _once_each
    from vision.detections import CardDetections
    from vision.evaluate import match_cards, synthetic_scenes

    card = np.array([[100, 100], [163, 100], [163, 188], [100, 188]], np.float32)
    apart = card + [64, 0]
    cards = CardDetections(["9S", "10D", "?", "?", "back"], np.array([card, card + [8, 4], card + [2, 0], apart,
                                                                    card + [0, 2]]),
                           np.array([1.0, 0.86, 0.9, 0.7, 0.8], np.float32), np.full(5, -1, np.int16), np.ones(5, bool))
    once = _once_each(cards)
    assert sorted(once.codes) == ["9S", "?", "back"]  # the surer reading, the unread box beside, the back under
    assert quad_iou(once.corners[once.codes.index("?")], apart) > 0.99

    *_, image, truths = list(synthetic_scenes(777, 11))[10]
    seen = predict(image)
    read = seen[np.array([c in CARD_CODES for c in seen.codes], bool)]
    overlap = pairwise_iou(read.corners, read.corners) - np.eye(len(read))
    assert (overlap < 0.5).all()  # no card read twice (an unread box over a covered card is another matter: it
    # came and went with the machine's floating point)
    assert "9S" in read.codes and "10D" not in read.codes
    _, wrong, _, _ = match_cards(read, truths)
    assert wrong == 0


def test_an_unread_card_is_read_through_its_cell_moved_a_few_pixels() -> None:
    """A grid fitted a few pixels off (cards under a hand pull it) puts the index crop of a small card beside its
    index: the unread card is read through its cell moved and scaled a little, with the outline that read."""
    from vision.cards import read_cards
    from vision.cards.maps import _read_jittered
    from vision.detections import CardDetections

    image, truths = _map_scene(seed=5, n=40)  # 57 px cards
    corners = _corners(truths)
    off = corners + np.array([6.0, -6.0], np.float32)  # every outline, and so the grid, 6 px off each way
    grid = map_grid(off, np.ones(len(off)))
    assert grid is not None
    lost = [i for i, t in enumerate(truths) if t.code != "back"][5]
    codes, conf, _ = read_cards(image, off[lost][None])
    assert codes[0] != truths[lost].code or conf[0] < 0.9  # its cell alone does not read it
    n = len(truths)
    codes = ["?" if i == lost else t.code for i, t in enumerate(truths)]
    cards = CardDetections(codes, off, np.ones(n, np.float32), np.full(n, -1, np.int16), np.ones(n, bool))
    out = _read_jittered(image, grid, cards)
    assert out.codes[lost] == truths[lost].code and out.confidence[lost] >= 0.9
    assert quad_iou(out.corners[lost], corners[lost]) > quad_iou(off[lost], corners[lost])
    assert [c for i, c in enumerate(out.codes) if i != lost] == [c for i, c in enumerate(codes) if i != lost]


def test_a_reading_off_the_grid_lying_on_a_card_of_the_map_is_dropped() -> None:
    """A map's card read a second time through an outline half a cell off its grid is one card read twice; a
    card beside the map (another deck's pile) and a face-down card are kept."""
    from vision.cards.maps import _off_grid_on_map
    from vision.detections import CardDetections

    card = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    quads = np.stack([card, card + [63, 0], card + [20, 30], card + [200, 0], card + [70, 20]])
    cards = CardDetections(["2D", "AS", "AS", "7C", "back"], quads, np.array([0.96, 0.96, 0.5, 0.9, 0.8], np.float32),
                           np.array([-1, -1, -1, -1, 0], np.int16), np.zeros(5, bool))
    held = np.array([True, True, False, False, False])
    kept, kept_held = _off_grid_on_map(cards, held)
    assert kept.codes == ["2D", "AS", "7C", "back"] and kept_held.tolist() == [True, True, False, False]


@pytest.mark.skipif(not DETECTOR.exists(), reason="card models not built")
def test_a_map_card_read_twice_off_its_grid_is_read_once() -> None:
    """Selection seed 5353, scene 8: a 2D of a map, read right in its cell and again as the AS through a box half a
    cell off (the map's own AS read elsewhere)."""
    from vision.cards import predict
    from vision.evaluate import synthetic_scenes

    *_, (_, _, _, image, truths) = synthetic_scenes(5353, 9)
    codes = [str(c) for c in predict(image).codes]
    assert codes.count("AS") == 1 and codes.count("2D") == 1
    assert set(codes) - {"back"} <= {t.code for t in truths}


def _unread(quads: list[np.ndarray], scores: list[float]):  # noqa: ANN202
    from vision.cards.labels import UNREAD
    from vision.detections import CardDetections

    n = len(quads)
    return CardDetections([UNREAD] * n, np.array(quads, np.float32), np.array(scores, np.float32),
                          np.full(n, -1, np.int16), np.zeros(n, bool))


def test_two_unread_boxes_sharing_a_card_each_keep_their_own() -> None:
    """Two unread boxes, each spanning two touching cards, both read the card between them surest: the first
    takes it, the second its other card (selection seed 5353, scene 28: a 3C at 1.0 in the second box's cell was
    lost); a box read only as a card already taken is that card's, not an unread card more."""
    from vision.cards.reread import _rescued

    left, middle, right = (np.array([[x, 0], [x + 60, 0], [x + 60, 84], [x, 84]], np.float32) for x in (0, 60, 120))
    boxes = _unread([_shifted(left, 0.5), _shifted(middle, 0.5), middle + [0, 2]], [0.8, 0.7, 0.6])
    codes = ["4C", "4C", "3C", "4C"]
    corners = np.array([middle, middle + [1, 0], right, middle + [0, 1]], np.float32)
    read, still = _rescued(boxes, codes, np.array([0.9, 0.85, 0.8, 0.7]), corners, [0, 1, 1, 2], 0.4)
    assert sorted(read.codes) == ["3C", "4C"]
    assert len(still) == 0


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_map_card_under_a_hand_is_read_through_its_empty_cell() -> None:
    """Selection seed 777, scene 24: an AD a hand covers but for its index corner (24% of it shows) has no box of
    the detector's at all; its empty cell of the map's grid reads it."""
    from vision.cards import predict
    from vision.evaluate import synthetic_scenes

    *_, (kind, _, _, image, truths) = synthetic_scenes(777, 25)
    assert kind == "superheld"
    truth = next(t for t in truths if t.code == "AD")
    assert truth.visible < 0.3
    dets = predict(image)
    found = [q for c, q in zip(dets.codes, dets.corners, strict=True) if c == "AD"]
    assert len(found) == 1 and quad_iou(found[0], truth.corners) > 0.7


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_card_read_as_a_joker_unsurely_is_read_again() -> None:
    """Seed 8080, scene 2: an 8D beside a hand boxed at 0.83 read as a joker at 0.29 through its box, and a joker
    is ignored, so the card was lost; read again as an unread card, its cell reads it."""
    assert _read_once_iou(*_map_read(8080, 2), "8D") > 0.7


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_an_unread_card_of_a_map_is_not_read_as_the_card_another_unread_box_read_surer() -> None:
    """Seed 1618, scene 8: a JD at a map's corner, its box unread, was read as the KD beside it through a cell a
    third of a card off (0.75), while the KD's own unread box read it at 0.89; one deck then named the JD QH."""
    truths, dets = _map_read(1618, 8)
    assert _read_once_iou(truths, dets, "JD") > 0.6 and _read_once_iou(truths, dets, "KD") > 0.6


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_map_card_read_through_its_index_box_alone_is_read_again_in_its_cell() -> None:
    """Seed 99180, scene 4: a 3S boxed across two cards, laid off its index box askew and read 3C at 0.99; its cell
    of the map reads it right."""
    truths, dets = _map_read(99180, 4)
    assert "3C" not in {t.code for t in truths} and "3C" not in dets.codes
    assert _read_once_iou(truths, dets, "3S") > 0.8


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_map_card_beyond_the_grids_bounds_is_read_through_the_cell_its_neighbours_outline() -> None:
    """Selection seed 6464, scene 10: an AC at the end of a row on a noisy cloth has no box of the detector's; its
    cell lies one ring beyond the map's bounds, where the whole map's fit lies a fifth of a card off."""
    assert _read_once_iou(*_map_read(6464, 10), "AC") > 0.6


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_reading_off_the_grid_of_a_code_the_map_holds_is_read_again_in_the_cell_it_hid() -> None:
    """Selection seed 777, scene 4: a 3D under a hand is read as the AD beside it through an outline half a cell
    off; a map is laid from one deck, so the empty cell under that reading is read, and shows the 3D."""
    from vision.cards import predict
    from vision.evaluate import synthetic_scenes

    *_, (kind, _, _, image, truths) = synthetic_scenes(777, 5)
    assert kind == "superheld"
    truth = next(t for t in truths if t.code == "3D")
    dets = predict(image)
    assert dets.codes.count("AD") == 1
    found = [q for c, q in zip(dets.codes, dets.corners, strict=True) if c == "3D"]
    assert len(found) == 1 and quad_iou(found[0], truth.corners) > 0.7


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
@pytest.mark.xfail(not int8_exact(), strict=False,
                   reason="read with the float readers (no VNNI: the int8 kernels saturate here), "
                          "the unsure reading is not read again; the int8 readers' is")
def test_an_unsure_reading_off_the_grid_is_read_again_in_the_cell_it_hid() -> None:
    """Selection seed 5353, scene 2: a JD under a hand, 36% of it showing, is read 7S at 0.54 through a box lying
    across two cells; its own cell, hidden from the look at the map's holes by that reading, reads the JD."""
    from vision.cards import predict
    from vision.evaluate import synthetic_scenes

    *_, (kind, _, _, image, truths) = synthetic_scenes(5353, 3)
    assert kind == "superheld"
    truth = next(t for t in truths if t.code == "JD")
    dets = predict(image)
    found = [q for c, q in zip(dets.codes, dets.corners, strict=True) if c == "JD"]
    assert len(found) == 1 and quad_iou(found[0], truth.corners) > 0.7
    assert "7S" not in dets.codes or "7S" in [t.code for t in truths]


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_back_under_a_hand_in_a_maps_empty_cell_is_read_as_a_back() -> None:
    """Selection seed 4343, scene 34: a back at a map's rim half under a hand has no box at the detector's input
    (0.42 at the larger one only); its empty cell reads as no face, and its paperless middle has the colour of
    the map's sure backs, not the cloth's."""
    from vision.cards import predict
    from vision.evaluate import synthetic_scenes

    *_, (kind, _, _, image, truths) = synthetic_scenes(4343, 35)
    assert kind == "superheld"
    truth = next(t for t in truths if t.code == "back" and 0.5 < t.visible < 0.9)
    dets = predict(image)
    backs = [q for c, q in zip(dets.codes, dets.corners, strict=True) if c == "back"]
    assert len([q for q in backs if quad_iou(q, truth.corners) > 0.5]) == 1
    assert dets.codes.count("back") == len([t for t in truths if t.code == "back" and t.visible > 0.5])


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_back_in_a_maps_empty_cell_with_a_finger_on_it_is_read_as_a_back() -> None:
    """Seed 99180, scene 0: a back a fingertip lies on (boxed at 0.28); its middle's mean, skin taken in, lay 10
    from the map's backs, its median on them."""
    truths, dets = _map_read(99180, 0)
    truth = next(t for t in truths if t.code == "back" and abs(t.corners.mean(axis=0) - [362, 359]).max() < 5)
    assert len([q for q in _outlines_of(dets, "back") if quad_iou(q, truth.corners) > 0.5]) == 1


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_card_under_a_hand_inside_a_map_is_read_through_the_cell_its_neighbours_outline() -> None:
    """Seed 99180, scene 8: a 10S under a hand (0.44 of it shows) inside the map has no box of its own; its cell,
    as the whole map's fit draws it, reads 10S at 0.68 only, as the cards beside it lay it at 0.87."""
    assert _read_once_iou(*_map_read(99180, 8), "10S") > 0.5


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_an_unread_box_across_two_map_cards_is_no_card() -> None:
    """Seed 9090, scene 18: a box at 0.84 across the line between a 2H and a 3H, both read in their own cells,
    was reported as an unread card; 0.85 of it lies under the cards read."""
    truths, dets = _map_read(9090, 18)
    assert {"2H", "3H"} <= set(dets.codes)
    assert UNREAD not in dets.codes


def test_a_maps_unread_box_under_the_read_cards_is_dropped_and_one_on_a_hole_kept() -> None:
    from vision.cards.maps import _not_across

    left = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    right, hole = left + [65.0, 0.0], left + [0.0, 90.0]
    across = left + [32.0, 0.0]
    cards = CardDetections(["2H", "3H", UNREAD, UNREAD], np.stack([left, right, across, hole]),
                           np.array([0.99, 0.98, 0.84, 0.8], np.float32), np.full(4, -1, np.int16),
                           np.array([True, True, False, False]))
    assert _not_across(cards).codes == ["2H", "3H", UNREAD]


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_an_unread_box_over_a_hole_beyond_a_map_on_a_pale_cloth_is_no_card() -> None:
    """Seed 2929, scene 14: a box at 0.79 beyond a map's back, on a pale green cloth whose middle passes for
    paper; its sides lie on no edge (0.61)."""
    truths, dets = _map_read(2929, 14)
    assert UNREAD not in dets.codes


def test_a_maps_unread_box_is_kept_only_on_a_cards_edges() -> None:
    import cv2

    from vision.cards.maps import _on_edges

    rng = np.random.default_rng(3)
    image = cv2.GaussianBlur(rng.integers(120, 200, (200, 300, 3), dtype=np.uint8), (0, 0), 3)
    card = np.array([[40, 40], [103, 40], [103, 128], [40, 128]], np.float32)
    cv2.fillConvexPoly(image, card.astype(np.int32), (250, 250, 250))
    cards = CardDetections([UNREAD, UNREAD], np.stack([card, card + [150.0, 10.0]]), np.array([0.8, 0.8], np.float32),
                           np.full(2, -1, np.int16), np.zeros(2, bool))
    assert np.allclose(_on_edges(image, cards).corners, card[None])


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_loose_unsure_box_off_the_grid_leaves_its_cell_to_be_read() -> None:
    """Fresh seed 31798, scene 6: a whole 3C at a map's top end, whose only box lay half a cell off and read 9D at
    0.46; that box took the cell, which was then never read, and the box was dropped as lying on the 10D."""
    truths, dets = _map_read(31798, 6)
    assert _read_once_iou(truths, dets, "3C") > 0.5
    assert "9D" not in dets.codes


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_map_face_read_mostly_within_a_surer_one_is_that_card_read_twice() -> None:
    """Fresh seed 34733, scene 20: a 7H at 0.45, 0.72 of its outline within a 9H read at 0.94 (IoU 0.50), was a
    second card; the map holds no 7H."""
    truths, dets = _map_read(34733, 20)
    assert "9H" in dets.codes and "7H" not in dets.codes


def test_of_two_map_faces_one_mostly_within_the_surer_goes() -> None:
    from vision.cards.maps import _once_each

    card = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    within = card * [1.0, 0.7] + [10.0, 40.0]  # 0.66 of it inside the card, at IoU 0.37
    beside = card + [65.0, 0.0]
    cards = CardDetections(["9H", "7H", "2C"], np.stack([card, within, beside]),
                           np.array([0.94, 0.45, 0.9], np.float32), np.full(3, -1, np.int16), np.ones(3, bool))
    assert sorted(_once_each(cards).codes) == ["2C", "9H"]


def _turned_about(corners: np.ndarray, degrees: float, spread: float = 0.0, seed: int = 0) -> np.ndarray:
    """Outlines turned about the map's middle by `degrees`, each then turned about its own centre by up to
    `spread` degrees either way (outlines boxed askew)."""
    rng = np.random.default_rng(seed)
    middle = corners.reshape(-1, 2).mean(axis=0)

    def turn(points: np.ndarray, about: np.ndarray, deg: float) -> np.ndarray:
        a = np.radians(deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        return (points - about) @ rot.T + about

    out = turn(corners.reshape(-1, 2), middle, degrees).reshape(-1, 4, 2)
    return np.array([turn(q, q.mean(axis=0), rng.uniform(-spread, spread)) for q in out], np.float32)


def test_a_map_whose_outlines_are_askew_is_gridded_by_its_centres() -> None:
    _, truths = _map_scene()
    corners = _turned_about(_corners(truths), 45.0)
    askew = _turned_about(corners, 0.0, spread=18.0, seed=1)
    grid = lattice_grid(askew, askew.mean(axis=1))
    assert grid is not None and grid.members.sum() >= len(corners) - 1
    assert len({tuple(c) for c in grid.cells[grid.members]}) == int(grid.members.sum())  # one card per cell
    for cell, card in zip(grid.cells[grid.members], corners[grid.members], strict=True):
        assert quad_iou(grid.outline(cell), card) > 0.8
        assert cv2.contourArea(grid.outline(cell)) > 0  # clockwise, as a card's corners: crops are not mirrored


def test_cards_scattered_over_a_table_make_no_lattice() -> None:
    rng = np.random.default_rng(4)
    centres = rng.uniform(0, 1000, (20, 2)).astype(np.float32)
    card = np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]], np.float32) - [31.5, 44.0]
    assert lattice_grid(centres[:, None, :] + card[None], centres) is None


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_small_map_turned_45_degrees_is_read_through_the_grid_of_its_centres() -> None:
    """Fresh seed 58213, scene 8: 47 cards 36 px wide, the map turned 45 degrees; the faces' outlines lay 10-20
    degrees from each other and fitted no grid, and 24 cards were lost (most boxes read as no card)."""
    from vision.evaluate import match_cards

    truths, dets = _map_read(58213, 8)
    right, wrong, extra, _ = match_cards(dets, truths)
    assert right >= 40 and extra <= 1
