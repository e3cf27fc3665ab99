"""Off a map, a card read unsurely through its box is read again through the rectangle round its paper (a card
turned inside an upright box), and an outline round two cards side by side is read as those two cards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards.geometry import CARD_H_MM, CARD_W_MM, card_shape_off, portrait_corners, quad_iou, side_by_side
from vision.cards.labels import UNREAD
from vision.detections import CardDetections

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards-dev"
SCALE = 2.4  # px per mm
TABLE = (40, 90, 30)


def _card(x: float, y: float, degrees: float = 0.0) -> np.ndarray:
    """A card's outline with its top-left at (x, y) before it is turned about its centre."""
    w, h = CARD_W_MM * SCALE, CARD_H_MM * SCALE
    quad = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
    a = np.radians(degrees)
    centre = quad.mean(axis=0)
    return ((quad - centre) @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]], np.float32)
            + centre).astype(np.float32)


def _scene(cards: list[tuple[str, np.ndarray]], size: tuple[int, int] = (420, 460)) -> np.ndarray:
    from vision.synth.cards import render_face
    from vision.synth.scene import paste_card

    image = np.full((size[1], size[0], 3), TABLE, np.uint8)
    for code, quad in cards:
        paste_card(image, render_face(code, 0, int(CARD_W_MM * SCALE)), quad)
    return image


def _upright_box(quad: np.ndarray) -> np.ndarray:
    x0, y0 = quad.min(axis=0)
    x1, y1 = quad.max(axis=0)
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _dets(codes: list[str], quads: list[np.ndarray], conf: list[float]) -> CardDetections:
    n = len(codes)
    return CardDetections(codes, np.array(quads, np.float32), np.array(conf, np.float32), np.full(n, -1, np.int16),
                          np.ones(n, bool))


def test_the_paper_rectangle_of_a_turned_card_in_its_upright_box_is_the_card() -> None:
    from vision.cards.outline import paper_rect

    card = _card(110, 100, 40)
    image = _scene([("9C", card)])
    rect = paper_rect(image, _upright_box(card))
    assert rect is not None
    assert quad_iou(rect, card) > 0.9
    assert quad_iou(_upright_box(card), card) < 0.6  # the box itself is far off the card


def test_no_paper_rectangle_larger_than_the_box() -> None:
    """A box inside a larger bright region (a sheet of paper, two cards merged) holds no card of its own: the
    blob fills the grown box, larger than the box."""
    from vision.cards.outline import paper_rect

    image = np.full((460, 420, 3), TABLE, np.uint8)
    image[60:400, 40:380] = 235
    box = _card(120, 120)
    assert paper_rect(image, box) is None


def test_an_unread_turned_card_is_read_through_its_paper() -> None:
    from vision.cards.identity import read_cards
    from vision.cards.reread import _read_paper_fit

    card = _card(110, 100, 40)
    image = _scene([("9C", card)])
    box = _upright_box(card)
    assert read_cards(image, box[None])[0] != ["9C"]  # through the box's corners the index is missed
    cards = _dets([UNREAD], [box], [0.8])
    out = _read_paper_fit(image, cards)
    assert out.codes == ["9C"] and out.confidence[0] >= 0.9
    assert quad_iou(out.corners[0], card) > 0.9
    assert cards.codes == [UNREAD]  # the cards given are left as they were


def test_a_sure_card_is_not_read_again_through_its_paper() -> None:
    from vision.cards.reread import _read_paper_fit

    card = _card(110, 100, 40)
    image = _scene([("9C", card)])
    cards = _dets(["KH"], [_upright_box(card)], [0.95])  # sure, even if wrong: left alone
    assert _read_paper_fit(image, cards).codes == ["KH"]


def test_the_two_cards_side_by_side_an_outline_holds() -> None:
    left, right = _card(60, 100), _card(60 + CARD_W_MM * SCALE, 100)
    both = np.array([left[0], right[1], right[2], left[3]], np.float32)
    assert card_shape_off(both) < 0.05  # two cards side by side are about a card's shape, turned
    halves = side_by_side(both)
    assert halves.shape == (2, 4, 2)
    assert sorted(max(quad_iou(h, c) for h in halves) for c in (left, right))[0] > 0.95
    assert all(np.allclose(h, portrait_corners(h)) for h in halves)


def _pair_scene() -> tuple[np.ndarray, np.ndarray]:
    """9C with KD laid a little over its right side: the image and the outline round both."""
    left, right = _card(60, 100, 3), _card(60 + 0.9 * CARD_W_MM * SCALE, 100, 3)
    image = _scene([("9C", left), ("KD", right)])
    both = np.array([left[0], right[1], right[2], left[3]], np.float32)
    return image, both


def test_an_unsure_outline_round_two_cards_side_by_side_is_split_into_them() -> None:
    from vision.cards.reread import _split_pairs

    image, both = _pair_scene()
    other = _card(300, 80)
    out = _split_pairs(image, _dets(["9H", "AS"], [both, other], [0.6, 0.99]))
    assert sorted(out.codes) == ["9C", "AS", "KD"]
    assert all(c >= 0.9 for c in out.confidence)
    assert any(np.allclose(q, other) for q in out.corners)  # the other card is kept as it was


def test_a_sure_outline_and_a_lone_card_are_not_split() -> None:
    from vision.cards.reread import _split_pairs

    image, both = _pair_scene()
    sure = _dets(["9H"], [both], [0.95])
    assert _split_pairs(image, sure) is sure
    lone = _card(110, 100)
    image = _scene([("9C", lone)])
    cards = _dets(["9C"], [lone], [0.6])
    assert _split_pairs(image, cards).codes == ["9C"]  # a card's own ends read no two cards


def test_a_sure_outline_near_a_square_round_two_cards_is_split_into_them() -> None:
    """KD laid over half of a 9C: the outline round both is about square, and however surely it reads (as the KD,
    its index at one end), its two ends read as the two cards."""
    from vision.cards.geometry import aspect
    from vision.cards.reread import SPLIT_SQUARE, _split_pairs

    left, right = _card(60, 100, 3), _card(60 + 0.5 * CARD_W_MM * SCALE, 100, 3)
    image = _scene([("9C", left), ("KD", right)])
    both = np.array([left[0], right[1], right[2], left[3]], np.float32)
    assert aspect(both) <= SPLIT_SQUARE
    out = _split_pairs(image, _dets(["KD"], [both], [0.99]))
    assert sorted(out.codes) == ["9C", "KD"]


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_pair_outlined_as_one_square_and_read_surely_is_split() -> None:
    """IMG_2620 (real tune half) turned half a turn: an AC over a JH's side, one outline round both (about square)
    read AC at 0.99; its two ends read JH and AC at 1.0."""
    import cv2

    from vision.cards import predict

    image = np.ascontiguousarray(np.rot90(cv2.imread(str(REAL / "IMG_2620.JPG")), 2))
    assert sorted(predict(image).codes) == ["AC", "JH"]


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_half_under_another_in_one_blob_is_read_from_its_box() -> None:
    """IMG_2667 (real tune half): an ace half under a ten; one classical blob takes in both and reads as the ten,
    while the detector boxes each card (0.9, 0.8). The ace is read through its own box."""
    import cv2

    from vision.cards import predict

    dets = predict(cv2.imread(str(REAL / "IMG_2667.JPG")))
    assert sorted(dets.codes) == ["10D", "AC"]
    ace = dets.corners[dets.codes.index("AC")]
    assert ace[:, 0].min() < 100 < 200 < ace[:, 0].max()  # the ace's own box (x 74-210), not the ten's


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_over_another_in_one_blob_is_outlined_by_its_own_box() -> None:
    """IMG_2667 turned a quarter: the blob round the ten and the ace under it reads 10D, and both cards' boxes read
    surely. The ten is outlined by its own box (about x 177-347, y 92-212), not by the blob round both."""
    import cv2

    from vision.cards import predict

    dets = predict(np.ascontiguousarray(np.rot90(cv2.imread(str(REAL / "IMG_2667.JPG")), 1)))
    assert sorted(dets.codes) == ["10D", "AC"]
    ten = np.array([[177, 92], [347, 92], [347, 212], [177, 212]], np.float32)
    assert quad_iou(dets.corners[dets.codes.index("10D")], ten) >= 0.8


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_boxed_unsurely_and_read_as_nothing_is_read_turned() -> None:
    """IMG_2543 (real tune half): a king at 45 degrees on a braided rug, boxed upright at 0.57 (under
    UNREAD_SCORE), read as nothing through that box. It is read through a turned outline all the same."""
    import cv2

    from vision.cards import predict

    dets = predict(cv2.imread(str(REAL / "IMG_2543.JPG")))
    assert dets.codes == ["KD"]


def test_a_region_cut_for_an_update_is_not_read_through_paper_or_pairs() -> None:
    """The unsure cards of a region cut from a map are those its border cuts, left to the previous reading."""
    from vision.cards import read_in_grid_or_turned

    card = _card(110, 100, 40)
    image = _scene([("9C", card)])
    unread = _dets([UNREAD], [_upright_box(card)], [0.8])
    empty = CardDetections()
    whole = read_in_grid_or_turned(image, empty, empty, empty, unread)
    cut = read_in_grid_or_turned(image, empty, empty, empty, unread, whole=False)
    assert whole.codes == ["9C"]
    assert cut.codes == [UNREAD]


def _index_box(card: np.ndarray) -> np.ndarray:
    """The detector's box of a card's printed top-left index."""
    import cv2

    from vision.cards.geometry import INDEX_BOX_MM, card_to_image

    return cv2.perspectiveTransform(INDEX_BOX_MM[None], card_to_image(card))[0].astype(np.float32)


def _boxes(quads: list[np.ndarray]):  # noqa: ANN202
    from vision.cards.detect import INDEX, Boxes

    return Boxes(np.array(quads, np.float32).reshape(-1, 4, 2), np.full(len(quads), INDEX, np.int64),
                 np.full(len(quads), 0.2, np.float32))


def _covered_turned_card() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """9C turned by 35 degrees with its lower half under a grey book: the image, the card and its box round the
    part that shows."""
    import cv2

    card = _card(110, 80, 35)
    image = _scene([("9C", card)])
    cv2.rectangle(image, (0, 210), (420, 460), (120, 120, 120), -1)
    shown = np.clip(card, [0, 0], [420, 210])
    return image, card, _upright_box(shown)


def test_an_unread_card_is_read_through_an_index_box_inside_it() -> None:
    from vision.cards.reread import _read_by_index

    image, card, box = _covered_turned_card()
    cards = _dets([UNREAD], [box], [0.7])
    out = _read_by_index(image, cards, _boxes([_index_box(card)]))
    assert out.codes == ["9C"] and out.confidence[0] >= 0.9
    assert quad_iou(out.corners[0], box) > 0.99  # the outline stays the box round the part that shows
    assert np.linalg.norm(out.corners[0][0] - card[0]) < np.linalg.norm(out.corners[0][2] - card[0])
    assert cards.codes == [UNREAD]


def test_index_boxes_outside_a_card_or_on_a_read_card_change_nothing() -> None:
    from vision.cards.reread import _read_by_index

    image, card, box = _covered_turned_card()
    far = _index_box(card) + [250, 0]  # an index box beside the card, not in it
    assert _read_by_index(image, _dets([UNREAD], [box], [0.7]), _boxes([far])).codes == [UNREAD]
    read = _dets(["KH"], [box], [0.8])  # a card already read is left to the other rules
    assert _read_by_index(image, read, _boxes([_index_box(card)])).codes == ["KH"]


def test_a_card_read_unsurely_is_read_through_an_index_box_inside_it() -> None:
    """A face read under BY_INDEX_UNSURE (a partly covered card whose squeezed index read as another card) is
    read through its index box too, and a sure reading (TURNED_READ) replaces it; the outline stays."""
    from vision.cards.reread import BY_INDEX_UNSURE, TURNED_READ, _read_by_index

    image, card, box = _covered_turned_card()
    unsure = _dets(["KH"], [box], [BY_INDEX_UNSURE - 0.1])
    out = _read_by_index(image, unsure, _boxes([_index_box(card)]))
    assert out.codes == ["9C"] and out.confidence[0] >= TURNED_READ
    assert quad_iou(out.corners[0], box) > 0.99
    assert unsure.codes == ["KH"]


def test_a_card_read_unsurely_keeps_its_reading_where_its_index_box_reads_nothing_surely() -> None:
    from vision.cards.reread import BY_INDEX_UNSURE, _read_by_index

    image, card, box = _covered_turned_card()
    blank = np.full_like(image, 200)  # the index box lies on bare paper: nothing there reads surely
    unsure = _dets(["KH"], [box], [BY_INDEX_UNSURE - 0.1])
    out = _read_by_index(blank, unsure, _boxes([_index_box(card)]))
    assert out.codes == ["KH"] and out.confidence[0] == pytest.approx(BY_INDEX_UNSURE - 0.1)


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_jack_read_unsurely_as_a_king_is_read_through_its_index_box() -> None:
    """IMG_2643 (real tune half): a jack of diamonds cut by the picture's top edge, read as KS at 0.43 through its
    outline; its index box reads it surely."""
    import cv2

    from vision.cards import predict

    dets = predict(cv2.imread(str(REAL / "IMG_2643.JPG")))
    assert sorted(dets.codes) == ["9C", "JD", "KD"]


def test_an_index_box_turned_off_its_card_is_read_turned_back() -> None:
    """The detector's index box of a card lying near 45 degrees is often turned 10-20 degrees off the card
    (real tune half: a ten on white paper, a king cut by the frame): it is read turned back as well."""
    from vision.cards.geometry import turned_by
    from vision.cards.reread import _read_by_index

    image, card, box = _covered_turned_card()
    turned = turned_by(_index_box(card), 20.0)
    out = _read_by_index(image, _dets([UNREAD], [box], [0.7]), _boxes([turned]))
    assert out.codes == ["9C"] and out.confidence[0] >= 0.9


def test_an_index_box_just_beside_a_narrow_box_is_read() -> None:
    """A box cut narrower than its card (a card cut by the frame) leaves the card's index just outside it: an
    index box within the box grown by a quarter counts."""
    from vision.cards.readings import _scaled
    from vision.cards.reread import INDEX_REACH, _read_by_index

    image, card, box = _covered_turned_card()
    index = _index_box(card)
    centre = index.mean(axis=0)
    narrow = box.copy()
    narrow[:, 0] = np.clip(narrow[:, 0], centre[0] + 4, None)  # the box's left edge just right of the index
    assert not _inside(centre, narrow) and _inside(centre, _scaled(narrow, INDEX_REACH)[0])
    out = _read_by_index(image, _dets([UNREAD], [narrow], [0.7]), _boxes([index]))
    assert out.codes == ["9C"] and out.confidence[0] >= 0.9


def _inside(point: np.ndarray, quad: np.ndarray) -> bool:
    from vision.cards.geometry import points_in_quads

    return bool(points_in_quads(point[None], quad[None])[0, 0])


def _stacked_pair() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 6D with a KC laid over all but its top strip (a weapon stack): the image, the 6D's outline and the
    strip that shows of it."""
    low = _card(120, 60)
    step = 0.3 * (low[3] - low[0])  # the strip: the top 30% of the card
    top = low + step
    image = _scene([("6D", low), ("KC", top)])
    strip = np.array([low[0], low[1], low[1] + step, low[0] + step], np.float32)
    return image, low, strip


def test_the_strip_of_a_stacked_card_is_read_as_the_end_of_that_card() -> None:
    """The strip is as wide as the card and card-shaped when turned a quarter, so it was read crosswise (its
    index on its side) and left unread; read as the end of a card running on under the other, it is the 6D, with
    that card's whole outline."""
    from vision.cards.reread import _read_strips

    image, low, strip = _stacked_pair()
    out = _read_strips(image, _dets([UNREAD], [strip], [0.7]))
    assert out.codes == ["6D"] and out.confidence[0] >= 0.9
    assert quad_iou(out.corners[0], low) > 0.85
    assert np.linalg.norm(out.corners[0][0] - low[0]) < 10  # started at the printed top-left


def test_a_strip_of_bare_table_or_a_read_card_stays_as_it_was() -> None:
    from vision.cards.reread import _read_strips

    image, _, strip = _stacked_pair()
    bare = strip + [250, 0]
    assert _read_strips(image, _dets([UNREAD], [bare], [0.7])).codes == [UNREAD]
    assert _read_strips(image, _dets(["QH"], [strip], [0.6])).codes == ["QH"]  # only unread cards are looked at


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_laid_off_from_an_upright_index_box_is_turned_onto_its_edges() -> None:
    """IMG_2680 (real tune half): a nine of diamonds turned 9 degrees under a nine of hearts, its body boxed
    unsurely and its index boxed upright; laid off upright from the index, its seen part was 0.45 of its label
    box (missed); turned onto its edges the outline's left side runs down its own (x 118 at the top, 88 low)."""
    import cv2

    from vision.cards import predict

    dets = predict(cv2.imread(str(REAL / "IMG_2680.JPG")))
    assert sorted(dets.codes) == ["9D", "9H"]
    nine = portrait_corners(dets.corners[dets.codes.index("9D")])
    left = nine[np.argsort(nine[:, 0])[:2]]  # the two leftmost corners
    top, low = left[np.argsort(left[:, 1])]
    assert top[0] - low[0] > 15  # the side leans as the card's does (upright: 0)


def _bottom_index_box(card: np.ndarray) -> np.ndarray:
    """The detector's box of a card's printed bottom-right index (the same index, turned half a turn)."""
    from vision.cards.geometry import rotate_corners

    return _index_box(rotate_corners(card, 2))


def _by_two_indices(image: np.ndarray, cards: CardDetections, boxes: dict[int, np.ndarray]) -> CardDetections:
    """`vision.cards.reread._by_two_indices` on the readings of the outlines each card's index boxes imply."""
    from vision.cards.identity import read_cards
    from vision.cards.reread import _by_two_indices, _index_ways

    return _by_two_indices(cards, {k: (q, *read_cards(image, np.array(_index_ways(q), np.float32)))
                                   for k, q in boxes.items()})


def test_an_unread_card_is_named_where_its_two_index_boxes_agree() -> None:
    """Two index boxes at a card's two printed corners reading the same card name it; one box alone, two boxes on
    one corner, or two boxes of cards lying apart do not."""
    card = _card(60, 60, 10)
    other = _card(230, 60, 10)
    image = _scene([("9C", card), ("9C", other)], size=(460, 360))
    unread = _dets([UNREAD], [card], [0.7])
    both = {0: np.array([_index_box(card), _bottom_index_box(card)])}
    out = _by_two_indices(image, unread, both)
    assert out.codes == ["9C"] and out.confidence[0] >= 0.5
    assert min(np.linalg.norm(out.corners[0][0] - card[c]) for c in (0, 2)) < 5  # at a printed index's corner
    assert unread.codes == [UNREAD]
    assert _by_two_indices(image, unread, {0: np.array([_index_box(card)])}).codes == [UNREAD]
    assert _by_two_indices(image, unread, {0: np.array([_index_box(card), _index_box(card) + 1.0])}).codes == [UNREAD]
    apart = {0: np.array([_index_box(card), _index_box(other)])}  # the same code, but two cards' outlines
    assert _by_two_indices(image, unread, apart).codes == [UNREAD]


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_ten_under_a_book_is_read_by_its_two_indices() -> None:
    """IMG_2505 (real tune half): a ten of clubs with its left side under a book, boxed at 0.82; its top index
    reads 10C at 0.80 through the card it implies and its bottom one at 0.45, each under TURNED_READ alone."""
    import cv2

    from vision.cards import predict

    dets = predict(cv2.imread(str(REAL / "IMG_2505.JPG")))
    assert "10C" in dets.codes and UNREAD not in dets.codes


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_jack_half_under_an_ace_is_not_taken_for_the_aces_strip() -> None:
    """Real tune half IMG_2620: one squarish blob takes in an ace and the jack half under it, and is read as the
    ace at 0.71 through a landscape outline; the jack's own upright box, read at 0.70, lies crosswise in it, but
    an outline as sure as the face it would drop tells nothing of which is the strip."""
    import cv2

    from vision.cards import predict
    from vision.evaluate import reading_bounds, seen_iou

    image = cv2.imread(str(REAL / "IMG_2620.JPG"))
    dets = predict(image)
    jack = (267, 92, 349, 344)  # the labelled box
    bounds = reading_bounds(dets.corners, image.shape[:2])
    assert any(c.startswith("J") and seen_iou(jack, b) >= 0.5 for c, b in zip(dets.codes, bounds, strict=True))


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_an_index_box_of_a_surely_read_card_is_not_read_for_its_neighbour() -> None:
    """Real tune photo IMG_2624 shrunk to 0.7 (a camera further off): a queen read unsurely (0.49) beside a nine of
    hearts was read again through the index boxes in its reach, one of them the nine's own printed index, and
    became a second 9H; the whole nine, less sure, was then dropped as its code read twice."""
    import cv2

    from vision.cards import predict
    from vision.cards.geometry import quad_bounds
    from vision.evaluate import box_iou, scaled_predictor

    cards = scaled_predictor(predict, 0.7)(cv2.imread(str(REAL / "IMG_2624.JPG")))  # taken back onto the photo
    nine = (198, 101, 311, 255)  # the label box of the nine
    assert any(c == "9H" and box_iou(nine, quad_bounds(q)) >= 0.5 for c, q in zip(cards.codes, cards.corners,
                                                                                     strict=True))


def test_a_small_outline_is_grown_into_the_cards_it_may_be_the_visible_part_of() -> None:
    from vision.cards.geometry import cards_running_on, mean_sides

    shown = np.array([[100, 50], [140, 50], [140, 110], [100, 110]], np.float32)  # 40 x 60 px of a 63 x 88 card
    grown = cards_running_on(shown, 63.0, 88.0)
    assert len(grown) == 8  # lying either way round in it, grown past one end or the other of each side
    assert all(max(mean_sides(q)) >= 88.0 - 0.5 for q in grown)
    upright = [q for q in grown if np.allclose(mean_sides(q), (63.0, 88.0), atol=0.5)]
    assert any(np.allclose(q.min(axis=0), [100, 50]) for q in upright)  # run on to the right and down
    assert any(np.allclose(q.max(axis=0), [140, 110]) for q in upright)  # run on to the left and up
    assert not len(cards_running_on(np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32), 63.0, 88.0))


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_the_frame_cuts_is_read_through_a_whole_card_running_on_past_the_edge() -> None:
    """IMG_2614 (real tune half): a ten of clubs cut by the picture's right edge, boxed 64 x 99 px round part of
    what shows, among cards 86-116 x 133-153 px; its upside-down index lies outside the box. Grown from its paper
    to a card of the picture's size running on past the edge, it reads 10C."""
    import cv2

    from vision.cards import predict

    image = cv2.imread(str(REAL / "IMG_2614.JPG"))
    dets = predict(image)
    assert sorted(dets.codes) == ["10C", "AS", "KD", "QH", "QS"]
    ten = dets.corners[dets.codes.index("10C")]
    assert ten[:, 0].max() > image.shape[1]  # the whole card's outline runs on past the edge


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_turned_under_another_is_read_through_its_card_shape_turned() -> None:
    """IMG_2669 (real tune half): a JD turned about 11 degrees half under a JS, boxed upright round its visible
    part, read KS at 0.85 through that box and no surer through its card shapes; turned 8-16 degrees a card
    shape reads JD surely."""
    import cv2

    from vision.cards import predict

    assert sorted(predict(cv2.imread(str(REAL / "IMG_2669.JPG"))).codes) == ["9H", "JD", "JS"]


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_boxed_below_its_index_is_read_through_a_card_of_the_pictures_size() -> None:
    """IMG_2599 (real tune half) turned half a turn: a KC beside a JD lying on it, boxed 82 x 205 px from below
    its index, read QS unsurely; a card of the picture's size running on past its box reads KC, and the king
    keeps its box as its outline."""
    import cv2

    from vision.cards import predict

    image = np.ascontiguousarray(np.rot90(cv2.imread(str(REAL / "IMG_2599.JPG")), 2))
    dets = predict(image)
    assert sorted(dets.codes) == ["JD", "KC"]
    king = dets.corners[dets.codes.index("KC")]
    assert min(np.ptp(king, axis=0)) < 0.7 * min(np.ptp(dets.corners[dets.codes.index("JD")], axis=0))


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_an_index_box_lays_off_no_card_away_from_the_box_it_names() -> None:
    """IMG_2471 (real tune half) turned a quarter clockwise: a 9C under scissors, boxed unread; an index box near
    its box's edge laid off a card onto the paper towel beside it (IoU 0.05 with the box) that read JS at 0.98."""
    import cv2

    from vision.cards import predict

    image = cv2.rotate(cv2.imread(str(REAL / "IMG_2471.JPG")), cv2.ROTATE_90_CLOCKWISE)
    assert "JS" not in predict(image).codes
