"""Every playing card in an image: outlines (YOLO-OBB) -> printed indices and faces (CNNs) -> codes, backs, outlines.

`predict(image)` is the whole pipeline. Stages, one module each: `detect` (rotated boxes of face-up
cards, face-down cards and index corners), `outline` (tighten a box onto the card's edges),
`contours` (classical blobs of lone cards), `identity` (read the printed index and the face of an outline),
`backs` (which back design), `geometry` (card frame, crops, outlines rebuilt from an index alone, for
fanned cards whose body is covered). The later steps, one module each: `facedown` (which boxes and blobs are
backs), `stacks` (weapon stacks and fans walked from the cards read on them), `reread` (unread and unsure cards
read again other ways), `maps` (a Superheld map's grid, cells, holes and deck), sharing `readings`. This module
holds the pipeline's order, the first reading of the detector's boxes and the checks on the whole picture.
"""

from __future__ import annotations

from collections.abc import Callable, Collection

import cv2
import numpy as np

from vision.cards.backs import brightest_lightness, centre_colours, like_table, table_lab
from vision.cards.closer import closer_part, count_unread, mostly_unread, tiny
from vision.cards.contours import propose
from vision.cards.detect import BACK, CARD, FULL_SIZE, INDEX, Boxes, detect, detect_turned
from vision.cards.facedown import _backs_unread, _blob_backs, _found, face_down
from vision.cards.geometry import (
    CARD_H_MM,
    CARD_W_MM,
    card_to_image,
    mean_sides,
    pairwise_iou,
    portrait_corners,
    to_frame,
)
from vision.cards.grid import lattice_grid, map_grid, turn_deg
from vision.cards.identity import card_odds, read_cards
from vision.cards.labels import CARD_CODES, UNREAD
from vision.cards.maps import (
    MAP_BOX_SCORE,
    _held_twice,
    _in_own_cells,
    _not_across,
    _not_bare,
    _off_grid_on_map,
    _off_grid_twice,
    _on_edges,
    _once_each,
    _read_in_grid,
    _read_jittered,
    _regrown,
    is_map,
    may_hold_stacks,
    one_deck,
)
from vision.cards.memo import one_picture
from vision.cards.outline import snapped
from vision.cards.readings import (
    MIN_READ,
    PROPOSAL_SCORE,
    _apart,
    _code_once,
    _face_up,
    _in_image,
    _inside_share,
    _outlines,
    _top_turn,
    _unique,
    _without,
)
from vision.cards.reread import (
    SPLIT_READ,
    _narrowed,
    _read_by_index,
    _read_card_shaped,
    _read_paper_fit,
    _read_running_on,
    _read_strips,
    _read_turned,
    _split_pairs,
)
from vision.cards.stacks import (
    _fanned_late,
    _not_own_corners,
    _not_squeezed,
    _outwalked,
    _read_loose_indices,
    _trimmed,
    _walked,
)
from vision.detections import CardDetections
from vision.light import exposed

BOX_SCORE = 0.3  # the detector score a card, back or index box needs (but see FAN_INDEX_SCORE)
JOKER_READ = 0.5  # a joker read less surely is read again as an unread card: a joker is ignored, a card lost
FAN_INDEX_SCORE = 0.1  # an index box next to a read card (a fan's) needs only this score
SAME_PLACE_MM = 11.0  # two readings' centres this close, read from opposite ends, are one card (8: IMG_2471's 8.5)
CARD_CENTRE_MM = np.array([CARD_W_MM / 2, CARD_H_MM / 2], np.float32)  # in the card's own frame
UNREAD_LEAST_AREA = 0.25  # an unread card inside the picture is at least this share of the read cards' median area
LOOK_AGAIN_SCORE = BOX_SCORE  # every face-up box whose outline reads "none" is read again by the later steps
# (turned, through its paper, ...), but reported unread only from UNREAD_SCORE (real tune half: a king at 45
# degrees on a rug boxed at 0.57 read through a turned outline; reporting such boxes unread gave 3 false cards).
# Session 22: 0.5; down to BOX_SCORE (0.3) the real tune half reads alike and the selection sets 59 -> 56 errors
UNREAD_SCORE = 0.6  # a face-up detector box this sure is reported as an unread card when its index reads "none"
SMALL_CARD_PX = 40.0  # off a map, cards whose boxes are mostly narrower than this at the detector's input (px)
SMALL_CARDS_SIZE = 544  # are looked for again at this input size, where a fan's half-hidden indices show larger
LOST_CARD_SCORE = 0.5  # a face-up box found at the smaller input only is kept at this score (`_with_lost_cards`)
LOST_CARD_OVERLAP = 0.3  # where no card or back box of the larger input (BOX_SCORE) overlaps it this much
TURNED_ONLY_IOU = 0.5  # an unread card this much on a box only the turned picture shows is that box's
BLOB_BOX_OVERLAP = 0.3  # a blob this much over each of two sure boxes lying apart (less) holds two cards
PART_BOX_SCORE, PART_INSIDE, PART_SHARE = 0.7, 0.9, 0.7  # a blob inside a sure box, this much smaller: a part
TOP_BOX_SHARE = 0.8  # a sure box reading a blob's own code, under this share of the blob, outlines its top card
CROSSWISE_SURER = 0.05  # by which the card must be surer than the face it takes for its strip
CROSSWISE_DEG, CROSSWISE_INSIDE = 60.0, 0.8  # a face this turned from a surer card and this much inside it is its strip


@one_picture
def predict(image: np.ndarray, conf: float = BOX_SCORE, size: int | None = None,
            min_card_area: float = 0.0, stacks: bool | None = None, region: bool = False,
            in_map: bool | None = None, codes: Collection[str] | None = None) -> CardDetections:
    """Codes ("QS", "back", or UNREAD "?" for a card found whose index cannot be read: partly covered, blurred),
    corners clockwise from the printed top-left, confidences. Jokers are dropped.
    `size`: the detector's input square (see `detect`); `min_card_area`: the least card area (see `propose`);
    `stacks`: whether weapon stacks may lie here (off a map; None: judged from the picture, no map and no grid of
    touching cards, as a region cut from a map for an update cannot be); `region`: the image is a region cut from
    a larger picture for an update, whose cards its border cuts are left to the previous reading, so they are
    not read again through other outlines; `in_map`: whether the image is (part of) a map, whose touching cards
    the classical outline finder does not part (None: judged from the detector's boxes, which a region cut from a
    map for an update holds too few of); `codes`: the cards that may lie on this table (a game's deck: Scoundrel
    plays without the red courts and aces; None: any card), see `_in_deck`. A whole picture whose cards are tiny at
    the detector's input, or mostly unread, is read through the part they lie in (`vision.cards.closer`)."""
    def read(picture: np.ndarray, boxes: Boxes | None = None) -> CardDetections:
        return _read(picture, conf, size, min_card_area, stacks, region, in_map, codes, boxes)

    if size is not None or region:
        return read(image)
    image = exposed(image, brightest_lightness(image))  # a picture too dark to read is brought up first
    boxes = detect(image, conf=min(conf, FAN_INDEX_SCORE))
    found = boxes[(boxes.classes != INDEX) & (boxes.scores >= conf)].quads
    part = closer_part(image.shape, found) if tiny(image.shape, found) else None
    if part is not None:  # a far camera's cards: read through the part they lie in, not the whole picture
        return _read_part(image, part, read)
    cards = read(image, boxes)
    part = closer_part(image.shape, cards.corners) if mostly_unread(cards) else None
    if part is None:
        return cards
    closer = _read_part(image, part, read)
    return closer if count_unread(closer) < count_unread(cards) else cards


def _read(image: np.ndarray, conf: float, size: int | None, min_card_area: float, stacks: bool | None,
          region: bool, in_map: bool | None, codes: Collection[str] | None,
          boxes: Boxes | None = None) -> CardDetections:
    """One reading of the picture as it is (see `predict`); `boxes`: the detector's boxes of it, read already (the
    picture then brought up already where it was too dark)."""
    codes = _deck(codes)
    if boxes is None:
        image = exposed(image, brightest_lightness(image))  # a picture too dark to read is brought up first
        boxes = detect(image, conf=min(conf, FAN_INDEX_SCORE), size=size)
    in_map = is_map(boxes) if in_map is None else in_map
    turned_only = np.zeros((0, 4, 2), np.float32)
    if size is None and not in_map and not region:
        unturned = boxes.of(CARD, UNREAD_SCORE).quads
        boxes, turned = detect_turned(image, boxes, conf=min(conf, FAN_INDEX_SCORE))
        turned_only = turned.of(CARD).quads
        turned_only = turned_only[~(pairwise_iou(turned_only, unturned) >= TURNED_ONLY_IOU).any(axis=1)]
    if size is None and not in_map and _cards_small(boxes, image):
        boxes = _with_lost_cards(image, detect(image, conf=min(conf, FAN_INDEX_SCORE), size=SMALL_CARDS_SIZE), boxes)
    proposals = propose(image, min_card_area) if not in_map else np.zeros((0, 4, 2), np.float32)
    proposals = _not_card_parts(proposals, boxes.of(CARD))
    read, unread = _read_faces(image, boxes.of(CARD, conf), proposals,
                               UNREAD_SCORE if region else LOOK_AGAIN_SCORE)
    faces = _unique(read)
    judged = stacks is None  # a region cut for an update is told, from the previous reading
    stacks = may_hold_stacks(in_map, faces) if judged else stacks
    faces = _trimmed(image, faces, boxes.of(INDEX)) if stacks else faces
    fanned = _read_loose_indices(image, boxes.of(INDEX), faces, conf, stack=stacks)
    walked_codes: set[str] = set()  # the codes read when the stacks were first walked
    if stacks:
        walked = _walked(image, CardDetections.merge([faces, fanned]))
        faces, fanned = _outwalked(faces, walked), CardDetections.merge([_outwalked(fanned, walked), walked])
        faces = _not_crosswise(faces, CardDetections.merge([faces, fanned]))
        # the cards the walk found count as new at the end: the paper above them was never looked at
        walked_codes = (set(faces.codes) | set(fanned.codes)) - set(walked.codes)
    found = _found(boxes, conf, faces)
    backs = face_down(image, boxes.of(BACK, conf), faces, proposals, found, holes=not stacks)
    unread = _unique(_apart(unread, CardDetections.merge([faces, fanned, backs])))
    backs, unread = _backs_unread(image, backs, unread, found)
    seen = CardDetections.merge([faces, fanned, backs, _reported(unread)])  # the other unread ones are dropped
    backs = CardDetections.merge([backs, _blob_backs(image, proposals, seen, found)])
    cards = read_in_grid_or_turned(image, faces, fanned, backs, unread, whole=not region, indices=boxes.of(INDEX),
                                   stacks=stacks and judged)
    if stacks and judged:
        cards = _fanned_late(image, boxes.of(INDEX), _narrowed(image, cards), faces, conf)
        late = _walked(image, cards, new=np.array([c not in walked_codes for c in cards.codes], bool))
        cards = CardDetections.merge([_outwalked(cards, late), late])
        cards = _code_once(_not_squeezed(_not_own_corners(cards)))  # the late readings may repeat one
    if not in_map:
        cards = _one_per_place(cards)
    if stacks:
        cards = _on_own_edges(image, cards)
    return _not_turned_only(_card_sized(image, _reported(_in_deck(image, cards, codes))), turned_only)


def _read_part(image: np.ndarray, part: tuple[int, int, int, int],
               read: Callable[[np.ndarray], CardDetections]) -> CardDetections:
    """The cards read through one part of the picture (`closer.closer_part`), their corners taken back onto it."""
    x0, y0, x1, y1 = part
    cards = read(np.ascontiguousarray(image[y0:y1, x0:x1]))
    cards.corners = cards.corners + np.array([x0, y0], np.float32)
    return cards


def _on_own_edges(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """Where the faces make no mosaic (`may_hold_stacks`), each card's outline with its sides moved onto the card's
    own edges where they show (`snapped`, each against the others' outlines as read). A small map's cards keep
    their grid's outlines: moved, two rim cards' edges in the map's graph changed (40 synthetic sets: layouts
    84.7% -> 84.6%, the cards alike)."""
    if not len(cards):
        return cards
    out = cards[np.arange(len(cards))]
    for k in range(len(cards)):
        out.corners[k] = snapped(image, cards.corners[k], np.delete(cards.corners, k, axis=0))
    return out


def _not_card_parts(proposals: np.ndarray, cards: Boxes) -> np.ndarray:
    """The classical blobs less those lying inside a sure face-up box (PART_INSIDE of the blob, the box from
    PART_BOX_SCORE) and smaller than PART_SHARE of it: part of that card, parted from the rest by a shadow or a
    light's edge. Such a blob overruled the box (`_overlaps`) and was read as a card of its own (fresh seed 34733:
    a weapon stack's top 3S, boxed whole at 0.84, read AC through the lower half a shadow cut off; 2.76% -> 1.89%
    errors, the ten seeds 50 -> 48, the selection sets alike; real held-out one extra card fewer and one suit more,
    the tune half shrunk to 0.7 two extra fewer; at first with boxes from 0.8 and blobs under 0.6, then 0.7 and 0.7:
    seed 2929's unread extra card gone too, shrunk one extra fewer, every other figure alike)."""
    sure = cards.of(CARD, PART_BOX_SCORE)
    if not len(proposals) or not len(sure.scores):
        return proposals
    areas = np.array([cv2.contourArea(q) for q in sure.quads], np.float32)
    keep = [k for k, blob in enumerate(proposals)
            if not any(_inside_share(blob, box) >= PART_INSIDE and cv2.contourArea(blob) < PART_SHARE * area
                       for box, area in zip(sure.quads, areas, strict=True))]
    return proposals[keep]


def _one_per_place(cards: CardDetections) -> CardDetections:
    """Off a map, the cards less each face-up reading (read ones first, surest first) whose centre lies within
    SAME_PLACE_MM of a kept one's, in that card's frame, with its printed top turned more than 135 degrees from
    that card's: one card outlined twice, read from opposite ends by different steps (real tune IMG_2471 turned
    180 degrees: a 9C at 1.0 and a QC at 0.88, centres 8.5 mm apart). A weapon stack's cards lie at least a step
    (SQUEEZE_STEP_MM) apart and the same way up (the same rule without the turn lost three of them: ten seeds
    53 -> 55, selection sets 32 -> 33)."""
    up = [k for k, c in enumerate(cards.codes) if c != "back"]
    centres = cards.centres
    kept: list[tuple[int, np.ndarray]] = []  # each kept card and its frame (card mm -> image)
    drop: list[int] = []
    for k in sorted(up, key=lambda k: (cards.codes[k] == UNREAD, -cards.confidence[k])):
        if any(np.linalg.norm(to_frame(centres[k:k + 1], frame)[0] - CARD_CENTRE_MM) < SAME_PLACE_MM
               and _top_turn(cards.corners[k], cards.corners[j]) > 135.0 for j, frame in kept):
            drop.append(k)
        else:
            kept.append((k, card_to_image(cards.corners[k])))
    return _without(cards, drop)


def _card_sized(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """The cards less each unread one inside the picture whose outline is smaller than UNREAD_LEAST_AREA of the
    read cards' median: a detector box round a card's visible part is half a card or more where the card is worth
    asking about (real tune half read four ways round: true unread cards 0.42 and more, a frame-cut ten the
    least), while specks of print on a book or a box read as nothing lie at 0.03-0.30. One the frame cuts keeps
    its box: its size says nothing of the card."""
    unread = np.array([c == UNREAD for c in cards.codes], bool)
    read = np.array([c in CARD_CODES for c in cards.codes], bool)
    if not unread.any() or not read.any():
        return cards
    areas = np.array([cv2.contourArea(q) for q in cards.corners], np.float32)
    least = UNREAD_LEAST_AREA * float(np.median(areas[read]))
    speck = [k for k in np.nonzero(unread)[0] if areas[k] < least and _in_image(cards.corners[k], image)]
    return _without(cards, speck)


def _not_turned_only(cards: CardDetections, turned_only: np.ndarray) -> CardDetections:
    """The cards less the unread ones on a face-up box only the picture turned a quarter is sure of (`detect_turned`:
    no unturned box as sure as UNREAD_SCORE on it): such a box reading as no card is mostly a book's edge or a
    cloth's pattern (real tune half: three false unread cards)."""
    unread = np.array([c == UNREAD for c in cards.codes], bool)
    if not unread.any() or not len(turned_only):
        return cards
    unread[unread] = (pairwise_iou(cards.corners[unread], turned_only) >= TURNED_ONLY_IOU).any(axis=1)
    return cards[~unread]


def _deck(codes: Collection[str] | None) -> frozenset[str] | None:
    """`predict`'s `codes` as a set, checked before any work: a string or a code that is no card's is refused."""
    if codes is None:
        return None
    if isinstance(codes, str):
        raise ValueError(f"codes must be a collection of card codes such as ['QS', '10H'], not the string {codes!r}")
    unknown = sorted(set(codes) - set(CARD_CODES))
    if unknown:
        raise ValueError(f"codes holds what is no card's code: {', '.join(map(repr, unknown))} (codes are "
                         "'QS', '10H', 'AD': rank A 2-10 J Q K, suit S H D C)")
    return frozenset(codes)


def _in_deck(image: np.ndarray, cards: CardDetections, codes: Collection[str] | None) -> CardDetections:
    """The cards, each face read as a card the table's deck lacks (`codes`) read again as the likeliest card it
    holds (`card_odds`), kept where that is as likely as MIN_READ and dropped where not: a game that leaves cards
    out of its deck shows none of them, so such a reading is another card read wrong, or no card (ten seeds'
    Scoundrel tables: a 9D weapon's strip read AH at 0.82)."""
    if codes is None:
        return cards
    lacked = [k for k, c in enumerate(cards.codes) if c in CARD_CODES and c not in codes]
    if not lacked:
        return cards
    allowed = np.array([c in codes for c in CARD_CODES], bool)
    odds = card_odds(image, cards.corners[lacked]) * allowed
    out = cards[np.arange(len(cards))]
    for k, row in zip(lacked, odds, strict=True):
        best = int(np.argmax(row))
        out.codes[k], out.confidence[k] = CARD_CODES[best], float(row[best])
    return _without(out, [k for k in lacked if out.confidence[k] < MIN_READ])


def _reported(cards: CardDetections) -> CardDetections:
    """The cards less the unread ones the detector is not sure enough of (UNREAD_SCORE) to ask the player about:
    they were read again (LOOK_AGAIN_SCORE) only in case a turned or other outline reads them."""
    unsure = np.array([c == UNREAD for c in cards.codes], bool) & (cards.confidence < UNREAD_SCORE)
    return cards[~unsure] if unsure.any() else cards


def _cards_small(boxes: Boxes, image: np.ndarray) -> bool:
    """Whether the detector's sure face-up boxes are mostly smaller than SMALL_CARD_PX at its input."""
    quads = boxes.of(CARD, MAP_BOX_SCORE).quads
    if not len(quads):
        return False
    short = [mean_sides(portrait_corners(q))[0] for q in quads]
    return float(np.median(short)) * FULL_SIZE / max(image.shape[:2]) < SMALL_CARD_PX


def _with_lost_cards(image: np.ndarray, larger: Boxes, smaller: Boxes) -> Boxes:
    """The boxes found at the larger input, and the face-up boxes (LOST_CARD_SCORE) found only at the smaller whose
    middle has not the table's colour (`like_table`): the larger input shows a fan's indices bigger but can lose a
    card that glare or a table of its colour leaves without detail (selection seed 6464: a Scoundrel room's 5H and
    KC under glare, 0.64 and 0.55 at 416 px); the smaller sees cards in a checked cloth now and then (0.64, seed
    24680)."""
    cards = smaller.of(CARD, LOST_CARD_SCORE)
    sure = ((larger.classes == CARD) | (larger.classes == BACK)) & (larger.scores >= BOX_SCORE)
    lost = ~(pairwise_iou(cards.quads, larger.quads[sure]) >= LOST_CARD_OVERLAP).any(axis=1)
    if lost.any():
        quads = np.array([portrait_corners(q) for q in cards.quads[lost]], np.float32)
        lost[lost] = ~like_table(centre_colours(image, quads), table_lab(image, larger.quads[sure]))
    return Boxes.merge([larger, cards[lost]])


def read_in_grid_or_turned(image: np.ndarray, faces: CardDetections, fanned: CardDetections, backs: CardDetections,
                           unread: CardDetections, whole: bool = True, indices: Boxes | None = None,
                           stacks: bool = False) -> CardDetections:
    """The last stage: every card read once more through the grid of a map (`_read_in_grid`), no card of the
    map then read twice (`one_deck`), or off a map the unread cards through turned outlines (`_read_turned`),
    the outlines off a card's shape through card shapes (`_read_card_shaped`), the unsure cards through their
    paper's rectangle (`_read_paper_fit`), the unread ones through the detector's index boxes inside them
    (`_read_by_index`, given the `indices`), the unread ones as the end of a card running on under others
    (`_read_strips`) and outlines round two cards side by side as those two (`_split_pairs`), these four only
    in a `whole` picture: the unsure cards of a region cut from a map for an update are those its border cuts,
    which the update leaves to the previous reading (reading them cost the update 24 ms).
    `stacks`: the faces make no mosaic, so weapon stacks were looked for and this is no map: no grid is fitted (a
    Scoundrel room in a row, a weapon and a pile fitted one, and a stack's card overlapping the card on it was then
    dropped as one card read twice: selection seed 4343)."""
    seen = CardDetections.merge([faces, backs])
    grid = None if stacks else map_grid(seen.corners, seen.confidence)
    if grid is None and not stacks:
        grid = lattice_grid(seen.corners, CardDetections.merge([seen, unread]).centres)
    if grid is None:
        turned, unread = _read_turned(image, unread)
        cards = _read_card_shaped(image, CardDetections.merge([faces, fanned, backs, turned, unread]))
        if not whole:
            return cards
        cards = _read_paper_fit(image, cards)
        if indices is not None:
            cards = _read_by_index(image, cards, indices)
        cards = _read_running_on(image, cards)
        return _code_once(_split_pairs(image, _read_strips(image, cards)))
    cards = _read_in_grid(image, grid, faces, CardDetections.merge([_in_own_cells(image, grid, fanned), backs]), unread)
    cards, grid = _regrown(image, grid, cards)
    if whole:
        cards = _read_jittered(image, grid, cards)
    cards = _once_each(cards)
    held = grid.holds(cards.centres)
    cards, held = _off_grid_on_map(cards, held)
    cards, held = _off_grid_twice(image, grid, cards, held)
    cards = _held_twice(image, grid, cards, held)
    return _not_bare(image, _on_edges(image, _not_across(one_deck(image, cards, held))))


def _card_outlines(image: np.ndarray, cards: Boxes,
                   proposals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Outlines to read, with their detector-like scores and the score of the detector's face-up box behind each
    (0 for none): the classical blobs (a lone card's own edges, tighter than any box) and the detector's boxes
    that no blob covers, tightened on the card's edges. A blob that is no face (a back, two cards side by side)
    reads as "none" and is dropped."""
    overlaps, alone = _overlaps(cards, proposals)
    boxes = Boxes(cards.quads[alone], cards.classes[alone], cards.scores[alone])
    outlines = np.concatenate([_outlines(image, boxes), np.asarray(proposals, np.float32).reshape(-1, 4, 2)])
    scores = np.concatenate([boxes.scores, np.full(len(proposals), PROPOSAL_SCORE)]).astype(np.float32)
    behind = np.where(overlaps >= 0.5, cards.scores[:, None], 0.0).max(axis=0, initial=0.0)
    return outlines, scores, np.concatenate([boxes.scores, behind]).astype(np.float32)


def _overlaps(cards: Boxes, proposals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """IoU of each face-up box with each classical blob, and which boxes no blob covers (IoU 0.3)."""
    overlaps = pairwise_iou(cards.quads, proposals)
    return overlaps, (overlaps < 0.3).all(axis=1)


def _beneath_blobs(image: np.ndarray, cards: Boxes, proposals: np.ndarray, codes: list[str],
                   conf: np.ndarray) -> tuple[CardDetections, list[int]]:
    """The cards under a card that one classical blob takes in with them: a blob read surely (SPLIT_READ) that
    overlaps two sure face-up boxes (MAP_BOX_SCORE) lying apart (each BLOB_BOX_OVERLAP) reads as the top card
    alone. Its boxes are read through their own quads, and a sure reading (SPLIT_READ) of a code the blob's is
    not is a card (real tune half: an ace half under a ten, both boxed at 0.8-0.9, the blob read as the ten; its
    box tightened took in the ten's pips, 10 px too long). The blob stays: two cards side by side are parted
    from it later (`_split_pairs`), surer than through boxes (real tune half: a jack read as another suit
    through its box), unless its top card too is read through its box (`_top_boxes`): the blobs so replaced are
    returned with the cards.
    """
    sure = cards.scores >= MAP_BOX_SCORE
    if int(sure.sum()) < 2 or not len(proposals):
        return CardDetections(), []
    quads, scores = cards.quads[sure], cards.scores[sure]
    inside = pairwise_iou(quads, proposals) >= BLOB_BOX_OVERLAP  # (boxes, blobs)
    apart = pairwise_iou(quads, quads) < BLOB_BOX_OVERLAP
    blobs = [j for j in range(len(proposals))
             if conf[j] >= SPLIT_READ and apart[np.ix_(inside[:, j], inside[:, j])].any()]
    ask = sorted({int(i) for j in blobs for i in np.nonzero(inside[:, j])[0]})
    if not ask:
        return CardDetections(), []
    read, read_conf, corners = read_cards(image, np.array([portrait_corners(q) for q in quads[ask]], np.float32))
    taken = {codes[j] for j in blobs}
    keep = [k for k, c in enumerate(read) if c in CARD_CODES and c not in taken and read_conf[k] >= SPLIT_READ]
    tops = _top_boxes(quads[ask], read, read_conf, inside[ask], proposals, {j: codes[j] for j in blobs}, keep)
    return _face_up(read, corners, (read_conf * scores[ask]) ** 0.5, keep + sorted(set(tops.values()))), sorted(tops)


def _top_boxes(quads: np.ndarray, read: list[str], conf: np.ndarray, inside: np.ndarray, proposals: np.ndarray,
               blob_codes: dict[int, str], beneath: list[int]) -> dict[int, int]:
    """Blob -> the box (of `quads`, read as `read`) that outlines the blob's top card: the box reading the blob's
    own code surely (SPLIT_READ) and smaller than TOP_BOX_SHARE of it, where every other box inside the blob was
    read as a card beneath (`beneath`). The blob's outline takes in the cards under the top one, and the cards
    beneath, read through their boxes, outrank it as their twins (real tune half turned a quarter: IMG_2667's ten
    over an ace, its blob read 10D dropped beside the ace's box; one card more turned 90 and 270, none lost, the
    synthetic sets alike). A blob with a box beneath left unread stays for `_split_pairs` (IMG_2658: a jack
    beside a nine)."""
    tops = {}
    for j, code in blob_codes.items():
        area = cv2.contourArea(proposals[j])
        mine = np.nonzero(inside[:, j])[0]
        top = [k for k in mine if read[k] == code and conf[k] >= SPLIT_READ
               and cv2.contourArea(quads[k]) < TOP_BOX_SHARE * area]
        if top and all(k == top[0] or k in beneath for k in mine):
            tops[j] = int(top[0])
    return tops


def _second_look(image: np.ndarray, cards: Boxes, proposals: np.ndarray,
                 codes: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Outlines worth a second reading, with their detector scores and backing (see `_card_outlines`): the
    detector's boxes that a classical blob overruled but that blob read as nothing (a blob of two touching
    cards), and the detector's own quads of boxes whose tightened outline read as nothing (tightened onto the
    wrong edge; backing 0, as the tightened outline already stands for the box as an unread card)."""
    overlaps, alone = _overlaps(cards, proposals)
    n_alone = int(alone.sum())
    read = np.array([c not in ("none", "JOKER") for c in codes], bool)
    blob_read = (overlaps >= 0.3) & read[n_alone:][None, :]
    overruled = ~alone & ~blob_read.any(axis=1)
    tightened_none = np.zeros(len(alone), bool)
    tightened_none[np.nonzero(alone)[0]] = ~read[:n_alone]
    first = Boxes(cards.quads[overruled], cards.classes[overruled], cards.scores[overruled])
    raw = np.array([portrait_corners(q) for q in cards.quads[tightened_none]], np.float32).reshape(-1, 4, 2)
    outlines = np.concatenate([_outlines(image, first), raw])
    scores = np.concatenate([first.scores, cards.scores[tightened_none]]).astype(np.float32)
    return outlines, scores, np.concatenate([first.scores, np.zeros(int(tightened_none.sum()))]).astype(np.float32)


def _read_faces(image: np.ndarray, cards: Boxes, proposals: np.ndarray,
                unread_score: float) -> tuple[CardDetections, CardDetections]:
    """The outlines that were read, and those the detector is fairly sure are face-up cards (their box's score,
    LOOK_AGAIN_SCORE) that were not: a card with its corners covered is still a card on the table, and the
    referee asks the player rather than miss it (from UNREAD_SCORE, `_reported`). Outlines that read as nothing
    get a second look (`_second_look`). `unread_score`: the box score that counts (a region cut for an update
    looks at no box twice: its unsure cards are those its border cuts, and reading them cost the update 5-10 ms)."""
    outlines, scores, backing = _card_outlines(image, cards, proposals)
    codes, conf, corners = read_cards(image, outlines)
    n_boxes = len(outlines) - len(proposals)
    beneath, topped = _beneath_blobs(image, cards, proposals, codes[n_boxes:], conf[n_boxes:])
    sure = (conf * scores) ** 0.5
    codes = _kept(codes, conf, sure)
    again, again_scores, again_backing = _second_look(image, cards, proposals, codes)
    if len(again):
        more_codes, more_conf, more_corners = read_cards(image, again)
        more_sure = (more_conf * again_scores) ** 0.5
        codes = codes + _kept(more_codes, more_conf, more_sure)
        outlines, corners = np.concatenate([outlines, again]), np.concatenate([corners, more_corners])
        sure = np.concatenate([sure, more_sure])
        backing = np.concatenate([backing, again_backing])
    replaced = {n_boxes + j for j in topped}  # blobs whose top card was read through its own box
    read = _face_up(codes, corners, sure, [i for i, c in enumerate(codes) if c not in ("none", "JOKER")
                                           and i not in replaced])
    read = CardDetections.merge([read, beneath])
    lost = [i for i, c in enumerate(codes) if c == "none" and backing[i] >= unread_score]
    m = len(lost)
    unread = CardDetections([UNREAD] * m, outlines[lost].reshape(-1, 4, 2), backing[lost].astype(np.float32),
                            np.full(m, -1, np.int16), np.zeros(m, bool))
    return read, unread


def _kept(codes: list[str], conf: np.ndarray, sure: np.ndarray) -> list[str]:
    """The codes, each read less surely than MIN_READ with its outline's score (`sure`: the geometric mean of the
    reading's confidence `conf` and that score), or a joker under JOKER_READ, as "none": such an outline reads as
    nothing, so the detector's boxes a blob read so overruled, and the boxes whose tightened outline read so, get
    their second look (`_second_look`; fresh seed 41207 scene 31: a weapon
    stack's blob read QH at 0.1 kept a whole 5C's box, 0.88, from being read, and the 5C was read 3C through a
    stack walk's short outline)."""
    return [c if sure[i] >= MIN_READ and (c != "JOKER" or conf[i] >= JOKER_READ) else "none"
            for i, c in enumerate(codes)]


def _not_crosswise(faces: CardDetections, cards: CardDetections) -> CardDetections:
    """The faces, less each one lying crosswise (CROSSWISE_DEG or more) and nearly all (CROSSWISE_INSIDE) within a
    surer card's outline: a stack's weapon, its strip boxed on its own, is as wide as a card is long and read as
    a card turned a quarter (selection seed 4343: a 4D's strip read KD beside the 4D placed from the stack). The
    card must be surer by CROSSWISE_SURER: a real blob round an ace and the jack half under it, squarish and read
    as the ace at 0.71 through a landscape outline, took the jack's own box read at 0.70 for its strip."""
    drop = [k for k in range(len(faces)) if any(
        cards.confidence[j] > faces.confidence[k] + CROSSWISE_SURER and turn_deg(portrait_corners(faces.corners[k]),
                                                               portrait_corners(cards.corners[j])) >= CROSSWISE_DEG
        and _inside_share(faces.corners[k], cards.corners[j]) >= CROSSWISE_INSIDE for j in range(len(cards)))]
    return _without(faces, drop)
