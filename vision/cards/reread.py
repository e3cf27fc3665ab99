"""Unread and unsure cards read again: through turned, narrowed, card-shaped and paper-fitted outlines, through
their index boxes, and as two cards side by side."""

from __future__ import annotations

import numpy as np

from vision.cards.detect import Boxes
from vision.cards.geometry import (
    CARD_ASPECT,
    aspect,
    card_shape_off,
    card_shapes,
    cards_at_top,
    cards_of_strip,
    cards_running_on,
    mean_sides,
    outline_from_index,
    points_in_quads,
    portrait_corners,
    quad_iou,
    rotate_corners,
    side_by_side,
    turned_by,
)
from vision.cards.identity import SURE_READING, read_cards
from vision.cards.labels import CARD_CODES, UNREAD
from vision.cards.outline import paper_rect
from vision.cards.readings import (
    MIN_CONFIDENCE,
    SHAPE_OFF,
    _card_size,
    _covered_share,
    _face_up,
    _in_image,
    _scaled,
    _unique,
)
from vision.cards.stacks import _at_own_index
from vision.detections import CardDetections

TURNS = (-30.0, -20.0, -10.0, 10.0, 20.0, 30.0)  # degrees an unread card's outline is turned by to read it
SHAPE_TURNS = (-12.0, -8.0, 8.0, 12.0)  # and an unsure card's card shapes (`_read_card_shaped`)
TURNED_READ = 0.9  # a card read through a turned outline needs this confidence
INDEX_TURNS = (0.0, -10.0, 10.0, -20.0, 20.0)  # degrees an index box in an unread card is turned by to read it
# (the detector's index box of a card near 45 degrees lies 10-20 off it; real tune half: 2 cards, +-30 the same)
INDEX_REACH = 1.25  # an unread card's box grown by this takes in its index boxes (a box cut narrower than its
# card leaves the index just outside; real tune half: 1 card, the same at 1.5, at 2.0 a neighbour's index read)
NARROW_WIDE = 1.12  # off a map, a face outlined this much wider than the picture's cards is read as one
RUN_ON_SHORT = 0.85  # an unsure outline whose side is this much shorter than the picture's cards' is part of one
RUN_ON_LONG = 0.8  # and inside the picture it runs at least this much of a card's length (`_read_running_on`)
RUN_ON_PAPER = 2.0  # its paper's rectangle up to this much larger than its box is what shows of it
BY_INDEX_SHORT = 0.85  # an outline read through an index box shorter than this share of a card is its visible part
BY_INDEX_UNDER = 0.3  # and the card runs on where this much of the rest lies under other cards
BY_INDEX_OVERLAP = 0.2  # a card an index box lays off overlaps the box it names this much (`_read_by_index`)
BY_INDEX_UNSURE = 0.5  # off a map, a face read less surely than this is read again through its index boxes too
# (`_read_by_index`, needing TURNED_READ; session 23, real tune half: a jack read KS at 0.43 and a KS read KD at
# 0.48 read right, none lost; at 0.9 seven cards lost, and a surer reading alone took a 27% visible 8D as JC)
SPLIT_SQUARE = 1.2  # off a map, an outline this near a square is tried as two cards side by side however sure
SPLIT_READ = 0.9  # off a map, both halves of an outline round two cards side by side must read this surely
AGREE_APART = 0.5  # of a card's width: two index boxes this far apart lie at two printed corners (`_by_two_indices`)
AGREE_IOU = 0.3  # and the cards their readings lay off overlap this much: one card (loose boxes, rough outlines)


def _narrowed(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """The faces, each outlined NARROW_WIDE times wider than the picture's cards (`_card_width`) read again
    through a card of that width at either end of its printed top: a weapon stack drifts sideways as its cards
    are laid, and the region outlining its cards is wider than any of them, which squeezes their indices in the
    crops (ten seeds 60606 scene 11: a top 8C read 8S at 0.52 through a region 1.3 cards wide, 8C at 1.0 through
    a card of the backs' width). A surer reading replaces the first."""
    width = _card_width(cards)
    if width is None:
        return cards
    ways = {k: list(cards_at_top(q, width)) for k, q in enumerate(cards.corners)
            if cards.codes[k] in CARD_CODES and mean_sides(q)[0] > NARROW_WIDE * width}
    return _read_again(image, cards, ways, None)


def _card_width(cards: CardDetections) -> float | None:
    """The median short side (px) of the card-shaped cards read surely, faces and backs, or None where none is."""
    shaped = np.array([card_shape_off(q) <= SHAPE_OFF for q in cards.corners], bool)
    size = _card_size(cards[shaped]) if shaped.any() else None
    return size[0] if size else None


def _read_card_shaped(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """The cards, each face-up one whose outline is not card-shaped (SHAPE_OFF) read again through the card
    shapes it may be the visible part of (`card_shapes`): a surer reading replaces the first (an unread card
    needs TURNED_READ), the outline kept as found and turned to the new reading's printed top-left. Off a map an
    overlapped card is outlined by its visible part, and its index, squeezed or stretched in the crop, read
    wrong (real tune half: 15 of 19 misread cards had outlines 12% or more off a card's shape). A card the
    frame cuts is left as read: its shape says nothing of what covers it (a region cut from a map for an update
    cuts several, and reading them again cost 7.6 ms there). A card still read, but unsurely, is read through
    those shapes turned by SHAPE_TURNS too (an unread one is turned by `_read_turned` and read through its paper
    next), a reading as sure as TURNED_READ replacing its own: the visible part of a
    card turned under another is boxed upright (real tune IMG_2669: a JD turned 11 degrees half under a JS, boxed
    upright round its visible part, read KS at 0.85; turned 8-16 degrees its card shape reads JD at 0.94-1.0)."""
    off = [k for k, (c, q) in enumerate(zip(cards.codes, cards.corners, strict=True))
           if c != "back" and card_shape_off(q) > SHAPE_OFF and _in_image(q, image)]  # not one the frame cuts
    ways = {k: list(card_shapes(cards.corners[k])) for k in off}
    kept = {k: portrait_corners(cards.corners[k]) for k in off}
    cards = _read_again(image, cards, ways, kept)
    unsure = [k for k in off if cards.codes[k] != UNREAD and cards.confidence[k] < SURE_READING]
    turned = {k: [turned_by(shape, deg) for shape in ways[k] for deg in SHAPE_TURNS] for k in unsure}
    return _read_again(image, cards, turned, kept, TURNED_READ)


def _read_paper_fit(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """The cards, each face-up one read unsurely (under SURE_READING, or unread) read again through the
    rectangle round its paper (`paper_rect`) and, where that is no card's shape, the card shapes it may be the
    visible part of; a surer reading replaces the first (an unread card needs TURNED_READ) with that rectangle
    as its outline. Real photos: a card turned 30-45 degrees under a book or cut by the frame is boxed upright
    round its visible part, and its index read through the box's corner, off the card (real tune half: 3 cards
    read right, none lost; the synthetic selection sets unchanged)."""
    rects = {k: paper_rect(image, cards.corners[k]) for k, c in enumerate(cards.codes)
             if c == UNREAD or (c != "back" and cards.confidence[k] < SURE_READING)}
    rects = {k: r for k, r in rects.items() if r is not None}
    ways = {k: [r] + (list(card_shapes(r)) if card_shape_off(r) > SHAPE_OFF else []) for k, r in rects.items()}
    return _read_again(image, cards, ways, rects)


def _read_running_on(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """The cards, each face-up one unread or read unsurely (under SURE_READING) whose box or paper (`paper_rect`
    up to RUN_ON_PAPER times the box) falls short of the picture's cards (the median sides of those read inside
    it, by RUN_ON_SHORT), read again through cards of that size running on past its sides (`cards_running_on`);
    a reading as sure as TURNED_READ replaces its own. One the picture's edge cuts takes that whole outline;
    one inside it keeps its outline and must run the length of a card (RUN_ON_LONG): a stack's strip, a card's
    width long, read wrong as the card of that size reaching the next strip's index (selection seed 5353, two
    cards). What shows of a card may be card-shaped and too small, so `_read_card_shaped` leaves it, and its
    corners lie inside the card, off its index: real tune IMG_2614, a ten the frame cuts to 64 x 99 px among
    cards 86-116 x 133-153, its upside-down index outside its box; IMG_2599, a king beside a jack lying on it,
    boxed below its index (the tune half read four ways round: 11 cards, none lost; held-out rank and suit
    96.23% -> 97.07%, the synthetic sets alike)."""
    inside = [k for k, c in enumerate(cards.codes) if c in CARD_CODES and _in_image(cards.corners[k], image)]
    asked = [k for k, c in enumerate(cards.codes)
             if c == UNREAD or (c in CARD_CODES and cards.confidence[k] < SURE_READING)]
    if not inside or not asked:
        return cards
    size = np.median([mean_sides(portrait_corners(cards.corners[k])) for k in inside], axis=0)
    ways: dict[int, list[np.ndarray]] = {}
    cut = {k for k in asked if not _in_image(cards.corners[k], image)}
    for k in asked:
        box = cards.corners[k]
        paper = paper_rect(image, box, most=RUN_ON_PAPER)
        for shown in [box] + ([] if paper is None else [paper]):
            part = np.divide(mean_sides(portrait_corners(shown)), size)
            if part.min() < RUN_ON_SHORT and (k in cut or part[1] >= RUN_ON_LONG):
                ways.setdefault(k, []).extend(cards_running_on(shown, *size))
    cut_ways = {k: w for k, w in ways.items() if k in cut}
    cards = _read_again(image, cards, cut_ways, None, TURNED_READ)
    kept = {k: portrait_corners(cards.corners[k]) for k in ways if k not in cut_ways}
    return _read_again(image, cards, {k: ways[k] for k in kept}, kept, TURNED_READ)


def _read_by_index(image: np.ndarray, cards: CardDetections, indices: Boxes) -> CardDetections:
    """The cards, each unread or unsure (BY_INDEX_UNSURE) one read again through the card each index box inside it
    implies, the box taken either way up and on either side (`outline_from_index`): a partly covered card's box
    holds its visible printed index, which its own corners miss. A reading as sure as TURNED_READ names the card;
    its outline stays its box, but for a box shorter than a card (BY_INDEX_SHORT) whose card would run on under
    other cards (BY_INDEX_UNDER: a weapon stack's card outlined by the part the cards on it leave, `_run_on`), which
    reports that whole card, as the stack walks then measure their steps from it (session 43, selection seed 7002
    scene 13: a weapon 8D outlined by its strip, and the 9S and JC between it and the top card then found). Real
    tune half: 2 tens read right, none lost; the synthetic selection sets unchanged. Since session 15 each box is
    also turned by INDEX_TURNS and taken from the card's box grown by INDEX_REACH: 3 more cards (a ten on white
    paper, an ace and a king cut by the frame), none lost, the selection sets unchanged. Since session 29 a box
    lying at a printed index of another card read surely (`_at_own_index`) is left to that card: real tune IMG_2624
    shrunk to 0.7 read an unsure queen as the 9H beside it through the nine's own index, and the whole nine was then
    dropped as its code read twice."""
    asked = [k for k, c in enumerate(cards.codes)
             if c == UNREAD or (c != "back" and cards.confidence[k] < BY_INDEX_UNSURE)]
    if not asked or not len(indices.quads):
        return cards
    centres = indices.quads.mean(axis=1)
    inside = points_in_quads(centres, _scaled(cards.corners[asked], INDEX_REACH))
    sure = [k for k, c in enumerate(cards.codes) if c in CARD_CODES and cards.confidence[k] >= SURE_READING]
    owned = {i: _at_own_index(centres, cards.corners[i]) for i in sure}  # the boxes at each sure card's indices
    for j, k in enumerate(asked):  # a box at a printed corner of another card read surely is that card's index
        for i in sure:
            if i != k:
                inside[:, j] &= ~owned[i]
    ways = {k: _index_ways(indices.quads[inside[:, j]]) for j, k in enumerate(asked)}
    owner = [k for k in asked for _ in ways[k]]
    if not owner:
        return cards
    codes, conf, corners = _read_overlapping(image, np.array([o for k in asked for o in ways[k]], np.float32),
                                             cards.corners[owner])
    out = _surer_readings(cards, owner, codes, conf, corners,
                          {k: portrait_corners(cards.corners[k]) for k in asked}, TURNED_READ)
    for k in asked:  # a box shorter than a card read through an index holds its visible part: the card runs on
        if out.codes[k] != cards.codes[k] and out.codes[k] in CARD_CODES:
            out.corners[k] = _run_on(out.corners[k], np.delete(out.corners, k, axis=0))
    read: dict[int, tuple[np.ndarray, list[str], np.ndarray, np.ndarray]] = {}  # the unread cards' readings
    start = 0
    for j, k in enumerate(asked):
        end = start + len(ways[k])
        if out.codes[k] == UNREAD and inside[:, j].sum() >= 2:
            read[k] = (indices.quads[inside[:, j]], codes[start:end], conf[start:end], corners[start:end])
        start = end
    return _by_two_indices(out, read)


def _run_on(outline: np.ndarray, others: np.ndarray) -> np.ndarray:
    """The whole card an outline started at its printed top-left is the top of, where it is shorter than a card
    (BY_INDEX_SHORT of its length) and the rest of that card lies under the `others` (BY_INDEX_UNDER): a weapon
    stack's card, outlined by the part of it the cards laid on it leave. A card under a book keeps the box of
    what shows (real tune IMG_2536: a king half under a book)."""
    top, side = mean_sides(outline)
    if side >= BY_INDEX_SHORT * CARD_ASPECT * top or not len(others):
        return outline
    card = cards_at_top(outline, top)[0].astype(np.float32)
    rest = np.array([outline[3], outline[2], card[2], card[3]], np.float32)
    return card if _covered_share(rest, list(others)) >= BY_INDEX_UNDER else outline


def _index_ways(quads: np.ndarray) -> list[np.ndarray]:
    """The cards index boxes imply: each box turned by INDEX_TURNS and taken on each of its four sides
    (`outline_from_index`), len(INDEX_TURNS) x 4 outlines per box, in the boxes' order."""
    return [outline_from_index(rotate_corners(portrait_corners(turned_by(q, deg)), r))
            for q in quads for deg in INDEX_TURNS for r in range(4)]


def _read_overlapping(image: np.ndarray, outlines: np.ndarray,
                      boxes: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """`read_cards` of the outlines overlapping their own box (BY_INDEX_OVERLAP), the others read as no card: an
    index box near a box's edge laid off a card beside it, onto a paper towel read JS at 0.98 (real tune IMG_2471
    turned a quarter: a 9C under scissors, the card laid off at IoU 0.05 with its box)."""
    near = np.array([quad_iou(o, b) >= BY_INDEX_OVERLAP for o, b in zip(outlines, boxes, strict=True)], bool)
    codes, conf, corners = ["none"] * len(outlines), np.zeros(len(outlines), np.float32), outlines.copy()
    if near.any():
        read = read_cards(image, outlines[near])
        for j, code, sure, quad in zip(np.nonzero(near)[0], *read, strict=True):
            codes[j], conf[j], corners[j] = code, sure, quad
    return codes, conf, corners


def _by_two_indices(cards: CardDetections,
                    read: dict[int, tuple[np.ndarray, list[str], np.ndarray, np.ndarray]]) -> CardDetections:
    """The unread cards `read` through the outlines their index boxes imply, card k's as (boxes, codes, confidences,
    corners) of `_index_ways(boxes)` in its order, each named where two of its boxes lying apart (at printed corners
    of their own, AGREE_APART of the card's width at least) read the same card as their surest, one of them as
    surely as MIN_CONFIDENCE, through outlines that overlap (AGREE_IOU: one card's two corners): a card's two
    printed indices each read unsurely (a real ten half under a book, 0.80 and 0.45) agree by chance far less often
    than either is right. Two cards of a stack agreeing on a jack lay off outlines apart (selection seed 6464: IoU
    0; the ten's 0.41)."""
    out = cards[np.arange(len(cards))]
    per_box = len(INDEX_TURNS) * 4
    for k, (quads, codes, conf, corners) in read.items():
        ways = _index_ways(quads)
        best = []  # each box's surest reading: (confidence, code, box centre, outline read, its corners)
        for b in range(len(quads)):
            j = b * per_box + int(np.argmax(conf[b * per_box:(b + 1) * per_box]))
            best.append((float(conf[j]), codes[j], quads[b].mean(axis=0), ways[j], corners[j]))
        width = mean_sides(portrait_corners(cards.corners[k]))[0]
        agreed = [a for a in best for b in best if a is not b and a[1] == b[1] and a[1] in CARD_CODES
                  and max(a[0], b[0]) >= MIN_CONFIDENCE and np.linalg.norm(a[2] - b[2]) >= AGREE_APART * width
                  and quad_iou(a[3], b[3]) >= AGREE_IOU]
        if agreed:
            sure, code, _, _, printed = max(agreed, key=lambda a: a[0])
            out.codes[k], out.confidence[k] = code, sure
            out.corners[k] = _started_near(portrait_corners(cards.corners[k]), printed[0])
    return out


def _started_near(outline: np.ndarray, point: np.ndarray) -> np.ndarray:
    """The outline started at its corner nearest `point` (a reading's printed top-left)."""
    return np.roll(outline, -int(np.argmin(np.linalg.norm(outline - point, axis=1))), axis=0)


def _read_strips(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """The cards, each unread one read again through the cards its outline may be the end of (`cards_of_strip`),
    whose outline it then takes: a stack's card under others shows a strip as wide as the card, outlined alone
    and read as a card lying crosswise, with the index on its side (selection sets 68 -> 66 errors; the real
    tune half alike). Read cards are left: for those read unsurely it lost 5 real tune cards and mended 2."""
    unread = [k for k, c in enumerate(cards.codes) if c == UNREAD]
    return _read_again(image, cards, {k: list(cards_of_strip(cards.corners[k])) for k in unread}, None)


def _read_again(image: np.ndarray, cards: CardDetections, ways: dict[int, list[np.ndarray]],
                kept: dict[int, np.ndarray] | None, least: float = 0.0) -> CardDetections:
    """The cards, card k read again through each of its outlines `ways[k]`: the surest reading that is surer
    than its own (an unread card's: TURNED_READ) and than `least` replaces it, with the outline `kept[k]` started
    at its corner nearest the reading's printed top-left (`kept` None: the outline read)."""
    owner = [k for k, outlines in ways.items() for _ in outlines]
    if not owner:
        return cards
    codes, conf, corners = read_cards(image, np.array([o for k in ways for o in ways[k]], np.float32))
    return _surer_readings(cards, owner, codes, conf, corners, kept, least)


def _surer_readings(cards: CardDetections, owner: list[int], codes: list[str], conf: np.ndarray, corners: np.ndarray,
                    kept: dict[int, np.ndarray] | None, least: float) -> CardDetections:
    """The cards, each with its surest reading of those its outlines gave (reading j is card `owner[j]`'s) that is
    surer than its own and than `least` (see `_read_again`)."""
    out = cards[np.arange(len(cards))]
    for j, k in enumerate(owner):
        need = TURNED_READ if out.codes[k] == UNREAD else max(float(out.confidence[k]), least)
        if codes[j] not in ("none", "JOKER") and conf[j] > need:
            out.codes[k], out.confidence[k] = codes[j], conf[j]
            if kept is None:
                out.corners[k] = corners[j]
                continue
            out.corners[k] = _started_near(kept[k], corners[j][0])
    return out


def _split_pairs(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """The cards, each face-up one read unsurely (under SURE_READING) through a card-shaped outline that two
    cards side by side would fill (`side_by_side`) replaced by those two when both read surely (SPLIT_READ) as
    different cards. Two overlapping cards side by side make one landscape outline about as long as a card's
    (real tune half: 2 such outlines, 3 cards read right, none lost; the synthetic selection sets unchanged).
    Since session 28 an outline near a square (SPLIT_SQUARE) is tried however surely it reads: two cards
    overlapping by half make one, read as the card whose index lies at one of its ends (the real tune half turned
    half a turn: IMG_2620's AC over a JH read AC at 0.99; turned 90 and 180 one card more each, none lost, the
    synthetic sets alike)."""
    pairs = [k for k, c in enumerate(cards.codes)
             if c not in ("back", UNREAD) and _in_image(cards.corners[k], image) and (
                 (cards.confidence[k] < SURE_READING and card_shape_off(cards.corners[k]) <= SHAPE_OFF)
                 or aspect(cards.corners[k]) <= SPLIT_SQUARE)]
    if not pairs:
        return cards
    codes, conf, corners = read_cards(image, np.concatenate([side_by_side(cards.corners[k]) for k in pairs]))
    split = [j for j in range(len(pairs)) if min(conf[2 * j], conf[2 * j + 1]) >= SPLIT_READ
             and codes[2 * j] != codes[2 * j + 1] and not {codes[2 * j], codes[2 * j + 1]} & {"none", "JOKER"}]
    if not split:
        return cards
    keep = np.ones(len(cards), bool)
    keep[[pairs[j] for j in split]] = False
    halves = [h for j in split for h in (2 * j, 2 * j + 1)]
    return CardDetections.merge([cards[keep], _face_up(codes, corners, conf, halves)])


def _read_turned(image: np.ndarray, unread: CardDetections) -> tuple[CardDetections, CardDetections]:
    """The unread cards that read surely (TURNED_READ) through their outline turned about its centre by one of
    TURNS, or through the card turned so that the box just holds it, and those still unread: the detector's box
    of a card lying near 45 degrees is often turned by 10 to 30 (real tune half: 3 of 23 unread cards read right
    so, one wrong), and a partly covered card's box upright around it (real tune half: one more card read)."""
    inside = [k for k, q in enumerate(unread.corners) if _in_image(q, image)]  # one cut by the frame stays unread
    if not inside:
        return CardDetections(), unread
    outlines = [turned_by(unread.corners[k], deg) for k in inside for deg in TURNS]
    owner = [k for k in inside for _ in TURNS]
    for k in inside:  # and the turned card the box just holds, when the box is upright around it
        held = [q for q in (_inscribed(unread.corners[k], deg) for deg in TURNS) if q is not None]
        outlines += held
        owner += [k] * len(held)
    outlines = np.array(outlines, np.float32)
    codes, conf, corners = read_cards(image, outlines)
    return _rescued(unread, codes, conf, corners, owner, TURNED_READ)


def _inscribed(quad: np.ndarray, degrees: float) -> np.ndarray | None:
    """The card turned by `degrees` that the box just holds: an upright box around a turned card is larger than
    the card (w = W cos + H sin, h = W sin + H cos)."""
    a = np.radians(abs(degrees))
    cos, sin = np.cos(a), np.sin(a)
    w, h = np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])
    det = cos * cos - sin * sin  # cos 2a: near 45 degrees any card fits a square box, so none is solved for
    if det < 0.3:
        return None
    card_w, card_h = (w * cos - h * sin) / det, (h * cos - w * sin) / det
    if card_w < 0.3 * w or card_h < 0.3 * h:
        return None
    centre = quad.mean(axis=0)
    u = (quad[1] - quad[0]) / w
    v = (quad[3] - quad[0]) / h
    corners = np.array([[-card_w, -card_h], [card_w, -card_h], [card_w, card_h], [-card_w, card_h]], np.float32) / 2
    upright = centre + corners[:, :1] * u + corners[:, 1:] * v
    return turned_by(upright.astype(np.float32), degrees)


def _rescued(unread: CardDetections, codes: list[str], sure: np.ndarray, corners: np.ndarray, owner: list[int],
             least: float, once: bool = False) -> tuple[CardDetections, CardDetections]:
    """The unread cards now read, each through its surest outline (readings of `owner[j]`, as sure as `least`) that
    no surer card read so lies on (IoU 0.5), and those still unread (read as no card, or not as surely): two unread
    boxes each spanning two cards share one (selection seed 5353: two boxes read the same 4C surest, and the
    second's own 3C beside it, at 1.0 through its cell, was lost with it). A box read only as a card read so
    already is that card's. `once` (a map, laid from one deck): a box takes a code a surer box took only where it
    reads no other; else it keeps its next reading or stays unread for the later steps (seed 1618: a JD at a map's
    corner read as the KD beside it through a cell a third of a card off, at 0.75 against the KD's own 0.89, and
    one deck then named it QH; a reading of the code of a card two unread boxes share still goes to one deck)."""
    best: dict[int, int] = {}  # unread card -> its surest reading
    shared: set[int] = set()  # unread cards read as a card another one was read as, surer
    surest_first = sorted(range(len(owner)), key=lambda j: -sure[j])
    for clashing in ((False, True) if once else (True,)):
        for j in surest_first:
            k = owner[j]
            if k in best or codes[j] in ("none", "JOKER") or sure[j] < least:
                continue
            if any(quad_iou(corners[j], corners[i]) >= 0.5 for i in best.values()):
                shared.add(k)
            elif clashing or all(codes[i] != codes[j] for i in best.values()):
                best[k] = j
    read = _face_up(codes, corners, sure, [best[k] for k in sorted(best)])
    still = np.ones(len(unread), bool)
    still[list(best) + sorted(shared)] = False
    return _unique(read), unread[still]
