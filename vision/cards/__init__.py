"""Every playing card in an image: outlines (YOLO-OBB) -> printed indices and faces (CNNs) -> codes, backs, outlines.

`predict(image)` is the whole pipeline. Stages, one module each: `detect` (rotated boxes of face-up
cards, face-down cards and index corners), `outline` (tighten a box onto the card's edges),
`contours` (classical blobs of lone cards), `identity` (read the printed index and the face of an outline),
`backs` (which back design), `geometry` (card frame, crops, outlines rebuilt from an index alone, for
fanned cards whose body is covered).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection

import cv2
import numpy as np

from vision.assignment import min_cost_assignment
from vision.cards.backs import (
    back_designs,
    centre_colours,
    centre_medians,
    framed_in_paper,
    like_a_design,
    like_backs_seen,
    like_table,
    look_like_backs,
    of_table,
    paper_colour,
    paperless,
    table_lab,
)
from vision.cards.contours import outline_support, propose, turned_to_edges
from vision.cards.detect import BACK, CARD, FULL_SIZE, INDEX, Boxes, detect, detect_turned
from vision.cards.geometry import (
    CARD_H_MM,
    CARD_MM,
    CARD_W_MM,
    INDEX_BOX_MM,
    aspect,
    card_shape_off,
    card_shapes,
    card_to_image,
    cards_at_top,
    cards_of_strip,
    cards_running_on,
    index_crop,
    mean_sides,
    outline_from_index,
    pairwise_iou,
    points_in_quads,
    portrait_corners,
    quad_iou,
    rect_crop,
    rotate_corners,
    side_by_side,
    to_frame,
    turned_by,
)
from vision.cards.grid import Grid, cells_beside, lattice_grid, map_grid, turn_deg
from vision.cards.identity import SURE_READING, card_odds, classify, fuse, read_cards, read_faces
from vision.cards.labels import CARD_CODES, NONE_CLASS, UNREAD
from vision.cards.outline import paper_rect, refine
from vision.detections import CardDetections

MIN_CONFIDENCE = 0.5
BOX_SCORE = 0.3  # the detector score a card, back or index box needs (but see FAN_INDEX_SCORE)
PROPOSAL_SCORE = 0.5  # detector-like score given to a classical blob
JOKER_READ = 0.5  # a joker read less surely is read again as an unread card: a joker is ignored, a card lost
MIN_READ = 0.4  # a reading less sure than this is no reading (40 synthetic scenes, seed 777: 7 of 71 wrong codes,
# 5 of 11 false cards and 2 of 482 right codes lie below it)
ON_CARD_MARGIN = 0.08  # an index box this far (of the card's size) outside a read card still lies on it
OWN_INDEX_MM = (8.0, 10.0)  # an index box centre this near (x, y) a card's printed index centre is that card's
FAN_INDEX_SCORE = 0.1  # an index box next to a read card (a fan's) needs only this score
FAN_SIDEWAYS_MM = 3.0  # how far a fanned card may lie sideways of the card on it (in a map: see STACK_*)
FAN_COLUMN_MM = 7.0  # how far sideways of a card's index column a fanned card's index may lie
STACK_SIDEWAYS_MM = 12.0  # off a map (a weapon stack) the cards drift sideways more: a few mm per card laid
STACK_STEP_MM = (18.0, 29.0)  # how far apart a weapon stack's cards lie along their length (a strip each)
STACK_BEFORE_MM = (12.0, 18.0, 24.0)  # and a card whose strip shows above a read card, this far above its index
PAPER_LAB, PAPER_SHARE = 20.0, 0.6  # a band whose pixels lie this near a card's paper colour, this many, is paper
SQUEEZE_STEP_MM = 14.0  # the least step seen between a stack's indices (the generator's 18 mm, foreshortened)
STACK_MOST = 6  # steps between two read cards of a stack at most
SAME_PLACE_MM = 11.0  # two readings' centres this close, read from opposite ends, are one card (8: IMG_2471's 8.5)
CARD_CENTRE_MM = np.array([CARD_W_MM / 2, CARD_H_MM / 2], np.float32)  # in the card's own frame
UNREAD_LEAST_AREA = 0.25  # an unread card inside the picture is at least this share of the read cards' median area
UPS = (0, 1)  # the ways up a placed card is tried: 0 as the card it is placed from lies, 1 turned 180 degrees
STACK_NARROWER = (0.9, 0.8)  # a walk also places a card this much narrower than the outline it walks from (0.9
# alone: ten seeds 57 -> 53 errors without the rank test, selection sets 32 -> 34)
WALK_SURER = 0.1  # a walked card whose index lies on a read card's replaces it where this much surer
STACK_TURN_DEG = 8.0  # how far two cards of one stack may be turned from each other
STACK_WALK_READ = 0.8  # a card between two read cards of a stack, read where the steps put it, needs this (0.9, or
# 0.8 where two placements a few mm apart agreed, until session 27: measured in a card-shaped frame, 0.8 alone)
STACK_JITTER_MM = 3.0  # off a map a fanned card's outline is also tried this far each way of its index box
STACK_APART_MM = 12.0  # two fanned cards' printed indices lie at least this far apart (less hides the rank letter;
# session 9: 15 -> 12 mm, one card and one layout better on two of four selection sets at the 544 px input)
BEYOND_SHIFT = 0.1  # the cut at a stack region's other end is also read moved this share of a card each way
FRAMED_BACK = 0.5  # a back box this sure whose design is framed in paper is a back whatever its middle's colour
HOLELESS_BACK = 0.9  # off a map a back box this sure is a back though its middle has the table's colour
BACK_SCORE = 0.5  # a face-down box needs this score: below it the detector mostly sees backs in table patterns
BACK_PAPER_MOST = 0.5  # a face-down box whose middle is this much paper or more is none (backs: 0.12 at most)
BARE_SHARE = 0.99  # a map's unread box whose middle is this much of the table's colours is a hole (`_not_bare`)
HOLE_BACK_SCORE = 0.75  # a back whose colour tells backs in a map's empty cells (`_backs_in_holes`) needs this
OUTLINED_BACK = 0.5  # ... unless a classical blob of a back's colour overlaps it this much
LOOK_AGAIN_SCORE = BOX_SCORE  # every face-up box whose outline reads "none" is read again by the later steps
# (turned, through its paper, ...), but reported unread only from UNREAD_SCORE (real tune half: a king at 45
# degrees on a rug boxed at 0.57 read through a turned outline; reporting such boxes unread gave 3 false cards).
# Session 22: 0.5; down to BOX_SCORE (0.3) the real tune half reads alike and the selection sets 59 -> 56 errors
UNREAD_SCORE = 0.6  # a face-up detector box this sure is reported as an unread card when its index reads "none"
TURNS = (-30.0, -20.0, -10.0, 10.0, 20.0, 30.0)  # degrees an unread card's outline is turned by to read it
SHAPE_TURNS = (-12.0, -8.0, 8.0, 12.0)  # and an unsure card's card shapes (`_read_card_shaped`)
TURNED_READ = 0.9  # a card read through a turned outline needs this confidence
MAP_BOXES = 20  # this many sure card boxes (MAP_BOX_SCORE) make a map, where the classical sweep is skipped: it
MAP_BOX_SCORE = 0.5  # finds lone cards (touching ones merge) and the map's grid outlines its cards (seed 777: one
# more wrong code of 792; 40 ms less on the standard scene)
HOLE_NEIGHBOURS = 4  # a hole showing an index is read through the cell these nearest cards outline
OFF_GRID_CELL_READ = 0.7  # a map's cell read for an unsure reading off its grid needs this (and to be surer)
EMPTY_CELL_READ = 0.8  # a card read in an empty cell of a map needs this confidence
REGRID_OVERLAP = 0.3  # an unread card's outline from the grid must overlap its own this much (the box is near;
# session 9: 0.4 -> 0.3, four unread boxes spanning two cards fewer on the selection sets, one false card more)
GRID_ROUNDS = 3  # a map's unread cards are read through its grid, refitted to the cards read, this many times
FREE_CELL_OVERLAP = 0.1  # a free cell of a map overlapping an unread card's box this much is read (`_regrown`)
CLASH_ROUNDS = 2  # a map's cards read twice draw in the cards read as their next likeliest, this many times over
CLASH_CHOICES = 5  # how many of a card's likeliest codes count as its next likeliest (3: seed 777 one more wrong)
SMALL_CARD_PX = 40.0  # off a map, cards whose boxes are mostly narrower than this at the detector's input (px)
JITTER_PX = 3.0  # a map's unread card is read through its cells moved this far each way (px)
JITTER_SCALES = (0.95, 1.05)  # and scaled by these
JITTER_CELLS = 3  # of its cells nearest its own outline (reading all took 150-350 ms more on a map under a hand)
INDEX_TURNS = (0.0, -10.0, 10.0, -20.0, 20.0)  # degrees an index box in an unread card is turned by to read it
# (the detector's index box of a card near 45 degrees lies 10-20 off it; real tune half: 2 cards, +-30 the same)
INDEX_REACH = 1.25  # an unread card's box grown by this takes in its index boxes (a box cut narrower than its
# card leaves the index just outside; real tune half: 1 card, the same at 1.5, at 2.0 a neighbour's index read)
SMALL_CARDS_SIZE = 544  # are looked for again at this input size, where a fan's half-hidden indices show larger
LOST_CARD_SCORE = 0.5  # a face-up box found at the smaller input only is kept at this score (`_with_lost_cards`)
LOST_CARD_OVERLAP = 0.3  # where no card or back box of the larger input (BOX_SCORE) overlaps it this much
TURNED_ONLY_IOU = 0.5  # an unread card this much on a box only the turned picture shows is that box's
NARROW_WIDE = 1.12  # off a map, a face outlined this much wider than the picture's cards is read as one
SHAPE_OFF = 0.12  # off a map, an outline whose sides' ratio is this far off a card's is read again as a card
# (`_read_card_shaped`; real tune half: the same from 0.06 to 0.18)
STRIP_REACH = 1.1  # a weapon stack's strip taken in by its region grown by this (`_stacked_on`): the region's
# outline often ends inside the strip, cutting the index of the card under it in two (selection sets 56 -> 55, the
# ten measurement seeds 83 -> 79; 1.05-1.15 alike on the selection sets, 1.2 57; real tune half alike)
BLOB_BOX_OVERLAP = 0.3  # a blob this much over each of two sure boxes lying apart (less) holds two cards
UNREAD_EDGE = 0.65  # a map's unread box whose outline lies on edges less than this is a hole (`_on_edges`)
ONCE_INSIDE = 0.6  # a map's face this much within a surer one is that card read twice (`_once_each`)
ACROSS_COVERED = 0.75  # a map's unread box this much under the read cards lies across their lines
RUN_ON_SHORT = 0.85  # an unsure outline whose side is this much shorter than the picture's cards' is part of one
RUN_ON_LONG = 0.8  # and inside the picture it runs at least this much of a card's length (`_read_running_on`)
RUN_ON_PAPER = 2.0  # its paper's rectangle up to this much larger than its box is what shows of it
BY_INDEX_OVERLAP = 0.2  # a card an index box lays off overlaps the box it names this much (`_read_by_index`)
BY_INDEX_UNSURE = 0.5  # off a map, a face read less surely than this is read again through its index boxes too
# (`_read_by_index`, needing TURNED_READ; session 23, real tune half: a jack read KS at 0.43 and a KS read KD at
# 0.48 read right, none lost; at 0.9 seven cards lost, and a surer reading alone took a 27% visible 8D as JC)
PART_BOX_SCORE, PART_INSIDE, PART_SHARE = 0.7, 0.9, 0.7  # a blob inside a sure box, this much smaller: a part
TOP_BOX_SHARE = 0.8  # a sure box reading a blob's own code, under this share of the blob, outlines its top card
SPLIT_SQUARE = 1.2  # off a map, an outline this near a square is tried as two cards side by side however sure
SPLIT_READ = 0.9  # off a map, both halves of an outline round two cards side by side must read this surely
CROSSWISE_SURER = 0.05  # by which the card must be surer than the face it takes for its strip
CROSSWISE_DEG, CROSSWISE_INSIDE = 60.0, 0.8  # a face this turned from a surer card and this much inside it is its strip
TRIM_ASPECT = 1.45  # off a map, an outline this much longer than wide may hold a strip of the card under it (a
# card is 1.40, with a weapon's strip 1.7 seen square on, less under a tilted camera; session 13: 1.55 -> 1.45,
# selection sets 104 -> 100 errors, 6 cards mended and 2 broken, the same at 1.4 and 1.5; real tune half alike)
TRIM_STRIPS_MM = (12.0, 18.0, 24.0, 30.0)  # such an outline is also cut by strips this long: a stack drifting
# sideways widens it, so its width overstates a card's length (session 17: selection sets 65 -> 59, none broken)
TRIM_WIDTH_SLACK = (1.0, 1.08)  # the card a stack region's width gives, and as much longer (a region wider than
# its card, or foreshortened: the cut lands in the top card's index)
STRIP_SHOWN = 0.28  # a card read in the strip a cut leaves over must take in this much of it (it is what shows:
# 0.33 for the first of three strips, fresh seed 86420; a real queen's own body read JH a few px off her 0.24)
TRIM_STRIP_READ = 0.8  # where the card in such a strip needs this sureness (selection sets: 0.87-0.98 for the
# cards mended; a real nine's own corner read as an ace: 0.53)
STRIP_CARD_INSIDE = 0.6  # a card read in a strip lies under the card: this much of it inside the region of both
# (selection seed 777: a 7C drifted off it, 0.76; a real nine's corner read as an ace beyond the nine, 0.32)
AGREE_APART = 0.5  # of a card's width: two index boxes this far apart lie at two printed corners (`_by_two_indices`)
AGREE_IOU = 0.3  # and the cards their readings lay off overlap this much: one card (loose boxes, rough outlines)
UPSIDE_DOWN_RANK = {"6": "9", "9": "6"}  # the rank an index shows when read upside down


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
    plays without the red courts and aces; None: any card), see `_in_deck`."""
    codes = _deck(codes)
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
    return _not_turned_only(_card_sized(image, _reported(_in_deck(image, cards, codes))), turned_only)


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


def _top_turn(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees (0-180) between two outlines' printed top sides."""
    u, v = a[1] - a[0], b[1] - b[0]
    return float(np.degrees(abs(np.arctan2(u[0] * v[1] - u[1] * v[0], u @ v))))


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


def _not_squeezed(cards: CardDetections) -> CardDetections:
    """Off a map, the cards less each face-up one whose printed index lies between two surer cards' indices that
    are both nearer to it than a stack's least step (STACK_STEP_MM): no card fits between those two, so it is one
    of their indices read half a strip off (selection seed 8642: an AS's index read AC at 0.57 between it and the
    6C below, 12.5 and 14.9 mm from them). Those two must lie less than two least steps apart (SQUEEZE_STEP_MM:
    a true QS lay 14.9 and 16.4 mm from the cards on either side, 31 mm apart)."""
    up = [k for k, c in enumerate(cards.codes) if c in CARD_CODES]
    gap = {(k, j): _index_gap(cards.corners[k], cards.corners[j]) for k in up for j in up if j != k}
    drop = []
    for k in up:
        near = [j for j in up if j != k and cards.confidence[j] > cards.confidence[k] and gap[k, j] < STACK_STEP_MM[0]]
        if any(max(gap[k, a], gap[k, b]) < gap[a, b] < 2 * SQUEEZE_STEP_MM for a in near for b in near if a < b):
            drop.append(k)
    return _without(cards, drop)


def _not_own_corners(cards: CardDetections) -> CardDetections:
    """The cards less each face-up one whose printed index lies at a printed corner of a surer card (`_at_own_index`)
    and shows the rank that card's shows upside down (a 9 on a 6, `UPSIDE_DOWN_RANK`): that card's own other index,
    read as a fanned card before the card was read (selection seed 6464: a four-index 6D's top-right index read
    9H). A card of the same rank at another's corner is left: two real aces lay so (real tune half)."""
    up = [k for k, c in enumerate(cards.codes) if c in CARD_CODES]
    drop = []
    for k in up:
        at = _printed_index(cards.corners[k])
        rank = cards.codes[k][:-1]
        if any(cards.confidence[j] > cards.confidence[k] and rank == UPSIDE_DOWN_RANK.get(cards.codes[j][:-1])
               and _at_own_index(at, cards.corners[j][None])[0] for j in up if j != k):
            drop.append(k)
    return _without(cards, drop)


def _fanned_late(image: np.ndarray, indices: Boxes, cards: CardDetections, early: CardDetections,
                 conf: float) -> CardDetections:
    """The cards, and the fanned cards beside the cards read after the first faces (`_read_loose_indices` again,
    with every face-up card read), as sure as STACK_WALK_READ: the strips above a card were looked for when it was
    not yet read. A weapon stack's top card boxed 10 degrees off its turn reads as nothing at first and is read
    through a turned outline at the end (selection seed 8642: a 10D above an 8C), and a stack's fanned cards are
    read from the top card down, the weapon at its bottom beyond the reach of the top card (a 10D under four).
    A reading whose index lies within STACK_APART_MM of a card's is that card. Selection sets 53 -> 50 errors
    (at 0.5, 51: a JS in a 9D's strip), printed courts 73 -> 69, the ten measurement seeds 81 -> 78."""
    read = np.array([c in CARD_CODES for c in cards.codes], bool)
    late = [k for k in np.nonzero(read)[0] if cards.codes[k] not in early.codes]
    if not late:
        return cards
    more = _read_loose_indices(image, indices, cards[read], conf, stack=True)
    keep = [i for i in range(len(more)) if more.codes[i] not in cards.codes and more.confidence[i] >= STACK_WALK_READ
            and all(_index_gap(more.corners[i], o) >= STACK_APART_MM for o in cards.corners)]
    return CardDetections.merge([cards, more[np.array(keep, int)]]) if keep else cards


def _without(cards: CardDetections, drop: list[int]) -> CardDetections:
    """The cards less those at the indices `drop`."""
    return cards[np.setdiff1d(np.arange(len(cards)), drop)] if drop else cards


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


def may_hold_stacks(in_map: bool, faces: CardDetections) -> bool:
    """Whether weapon stacks may lie in a picture: no map, and the faces read make no grid of touching cards (a
    small map has too few boxes to be taken for one; the stack search there reads touching cards' own indices as
    fanned cards)."""
    if in_map:
        return False
    grid = map_grid(faces.corners, faces.confidence)
    return grid is None or not _mosaic(grid.cells[grid.members])


def _mosaic(cells: np.ndarray) -> bool:
    """Whether grid cells make a mosaic: two rows and two columns holding two cards each at least. A Scoundrel
    room laid nearly edge to edge is one row of a grid, and a stack's card below it (two cells down, across the
    gap a grid may span) made it a grid, so the table's stacks went unread (selection seed 4343)."""
    return all(sum(n >= 2 for n in Counter(cells[:, axis].tolist()).values()) >= 2 for axis in (0, 1))


def is_map(boxes: Boxes) -> bool:
    """Whether the detector sees a map: MAP_BOXES sure face-up or face-down boxes."""
    return len(boxes.of(CARD, MAP_BOX_SCORE).scores) + len(boxes.of(BACK, MAP_BOX_SCORE).scores) >= MAP_BOXES


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


def _not_bare(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """A map's cards less each unread one whose middle shows nothing but colours the table shows (`of_table` at
    BARE_SHARE): a hole beside a map on a pale check or a white cloth looks like a blank card to the detector, while a
    card of a map shows ink in its middle, an ace's one pip too (fresh seeds 11235 scene 24, 27182 scene 26)."""
    unread = [k for k, c in enumerate(cards.codes) if c == UNREAD]
    if not unread:
        return cards
    table = table_lab(image, cards.corners)
    bare = of_table(image, cards.corners[unread], table, BARE_SHARE)
    return _without(cards, [k for k, b in zip(unread, bare, strict=True) if b])


def _not_across(cards: CardDetections) -> CardDetections:
    """A map's cards less each unread one whose outline the other cards' cover (ACROSS_COVERED): a map's cards
    do not overlap, so such a box lies across the line between two cards read in their own cells (ten seeds 9090
    scene 18: a box 0.84 across a 2H and a 3H, reported as a card)."""
    read = [q for c, q in zip(cards.codes, cards.corners, strict=True) if c != UNREAD]
    drop = [k for k, c in enumerate(cards.codes)
            if c == UNREAD and _covered_share(cards.corners[k], read) >= ACROSS_COVERED]
    return _without(cards, drop)


def _on_edges(image: np.ndarray, cards: CardDetections) -> CardDetections:
    """A map's cards less each unread one whose outline lies on edges less than UNREAD_EDGE (`outline_support`):
    a box over a hole beyond a map's cards floats on the table's pattern, where a card's sides are crisp (ten
    seeds and selection sets: the three false boxes 0.59-0.61, a pale green cloth and a checked one; the two true
    unread cards 0.73 and 0.78)."""
    drop = [k for k, c in enumerate(cards.codes)
            if c == UNREAD and outline_support(image, cards.corners[k]) < UNREAD_EDGE]
    return _without(cards, drop)


def _in_own_cells(image: np.ndarray, grid: Grid, cards: CardDetections) -> CardDetections:
    """A map's cards read through an index box alone (`_read_loose_indices`), each read again through the grid's
    cell nearest it, whose reading as sure as EMPTY_CELL_READ names it with that outline: a card is laid off its
    index box at the box's scale and turn, a map's cell at the map's (seed 99180: a 3S boxed across two cards,
    laid off its index askew and read 3C at 0.99, reads 3S through its cell)."""
    if not len(cards):
        return cards
    near = grid.cells_of(cards.centres)
    codes, conf, corners = read_cards(image, grid.outlines(near))
    out = cards[np.arange(len(cards))]
    for k in range(len(cards)):  # each alone: `holds` joins the points it is given through one another
        if codes[k] in CARD_CODES and conf[k] >= EMPTY_CELL_READ and grid.holds(corners[k].mean(axis=0))[0]:
            out.codes[k], out.confidence[k], out.corners[k] = codes[k], conf[k], corners[k]
    return out


def _off_grid_twice(image: np.ndarray, grid: Grid, cards: CardDetections,
                    held: np.ndarray) -> tuple[CardDetections, np.ndarray]:
    """The cards and which the grid holds, each face-up reading off a map's grid whose code a surer card of the
    map has read again through the empty cells under it: a map is laid from one deck, so the reading is that
    card's index seen through an outline half a cell off (selection seed 777: a 3D under a hand read as the AD
    beside it, at 0.71 against 0.91), and the cell it hid from the grid's look at its holes shows its own card.
    A reading there of a code the map does not hold, as sure as MIN_READ, replaces it; else it is dropped. Any
    other reading off the grid less sure than SURE_READING is read there too, and a surer reading of a code the
    map does not hold (OFF_GRID_CELL_READ at least) replaces it (selection seed 5353: a JD under a hand read 7S at
    0.54 through a box across two cells, read JD at 0.95 in its cell, and a 4D read AH at 0.61, 4D at 0.79 in its
    cell; selection sets 41 -> 38: 39 at 0.8)."""
    up = np.array([c in CARD_CODES for c in cards.codes], bool)
    surest = _surest_of(cards, up & held)
    twice = [k for k in np.nonzero(up & ~held)[0] if surest.get(cards.codes[k], 0.0) > cards.confidence[k]]
    unsure = [k for k in np.nonzero(up & ~held)[0] if k not in twice and cards.confidence[k] < SURE_READING]
    if not (twice or unsure) or int(np.count_nonzero(held)) > len(CARD_CODES):
        return cards, held
    taken = {tuple(c) for c in grid.cells_of(cards.centres[held])}
    cells = {k: [c for c in grid.cells_under(cards.centres[k]) if tuple(c) not in taken] for k in twice + unsure}
    asked = [k for k in twice + unsure if cells[k]]
    out = cards[np.arange(len(cards))]
    if asked:
        codes, conf, corners = read_cards(image, grid.outlines(np.array([c for k in asked for c in cells[k]])))
        start = 0
        for k in asked:
            end = start + len(cells[k])
            fresh = [j for j in range(start, end) if codes[j] in CARD_CODES and codes[j] not in surest
                     and conf[j] >= (MIN_READ if k in twice else max(cards.confidence[k], OFF_GRID_CELL_READ))]
            if fresh:
                j = max(fresh, key=lambda i: conf[i])
                out.codes[k], out.confidence[k], out.corners[k] = codes[j], conf[j], corners[j]
            start = end
    keep = np.array([k not in twice or out.codes[k] != cards.codes[k] for k in range(len(cards))], bool)
    return out[keep], held[keep]


def _surest_of(cards: CardDetections, among: np.ndarray) -> dict[str, float]:
    """Each code read by the cards of the mask `among`, and its surest reading's confidence."""
    surest: dict[str, float] = {}
    for k in np.nonzero(among)[0]:
        surest[cards.codes[k]] = max(surest.get(cards.codes[k], 0.0), float(cards.confidence[k]))
    return surest


def _held_twice(image: np.ndarray, grid: Grid, cards: CardDetections, held: np.ndarray) -> CardDetections:
    """The cards, each face-up one the grid holds, read unsurely (under SURE_READING: the standard map's two decks
    hold 15 codes twice, read at 0.91-0.97), whose code a surer card of the grid reads too read again through
    its own cell, a reading there as sure as MIN_READ of a code no card of the map reads replacing it: a map is laid
    from one deck, and one deck's assignment would otherwise give the surer card another code (fresh seed 72941
    scene 34: a German JH read QC at 0.76 through a box a little off, its cell JH at 0.60; the true QC, read at
    0.93, was renamed QS)."""
    up = np.array([c in CARD_CODES for c in cards.codes], bool) & held
    surest = _surest_of(cards, up)
    twice = [k for k in np.nonzero(up)[0]
             if surest[cards.codes[k]] > cards.confidence[k] and cards.confidence[k] < SURE_READING]
    if not twice:
        return cards
    codes, conf, corners = read_cards(image, grid.outlines(grid.cells_of(cards.centres[twice])))
    out = cards[np.arange(len(cards))]
    for j, k in enumerate(twice):
        if codes[j] in CARD_CODES and codes[j] not in surest and conf[j] >= MIN_READ:
            out.codes[k], out.confidence[k], out.corners[k] = codes[j], conf[j], corners[j]
    return out


def _off_grid_on_map(cards: CardDetections, held: np.ndarray) -> tuple[CardDetections, np.ndarray]:
    """The cards and which the map's grid holds, less the face-up readings off the grid that lie on a card it holds
    (`_lying_on`): a map's card read a second time through an outline half a cell off (selection seed 5353: a 2D
    read as the AS through a box 0.32 over it). Cards beside a map (another deck's piles) lie on none of its."""
    up = np.array([c != "back" for c in cards.codes], bool)
    off = np.nonzero(up & ~held)[0]
    if not len(off) or not held.any():
        return cards, held
    on = np.zeros(len(cards), bool)
    on[off] = _lies_on(cards.corners[off], cards.corners[held & up])
    return cards[~on], held[~on]


def _read_jittered(image: np.ndarray, grid: Grid, cards: CardDetections) -> CardDetections:
    """A map's cards, each unread one read again through its JITTER_CELLS cells (`_cells_of_unread`) nearest its
    own outline, each moved by JITTER_PX and scaled by JITTER_SCALES, the placement whose index reads surest
    taken per cell (`_best_placed`); a reading as sure as TURNED_READ names the card with that outline. A card
    half under a hand keeps an index in view, but a cell a few pixels off its 60 px card puts the index crop
    beside it."""
    unread = np.array([c == UNREAD for c in cards.codes], bool)
    if not unread.any():
        return cards
    which = np.nonzero(unread)[0]
    outlines, owner = _cells_of_unread(image, grid, cards[unread], cards[~unread])
    cells: dict[int, list[np.ndarray]] = {}  # each unread card's JITTER_CELLS cells nearest its own outline
    for j in range(len(which)):
        mine = [o for o, k in zip(outlines, owner, strict=True) if k == j]
        mine.sort(key=lambda o: -quad_iou(o, cards.corners[which[j]]))
        if mine:
            cells[int(which[j])] = mine[:JITTER_CELLS]
    if not cells:
        return cards
    placed = iter(_best_placed(image, [_jitters(o) for k in cells for o in cells[k]]))
    return _read_again(image, cards, {k: [next(placed) for _ in cells[k]] for k in cells}, None)


def _jitters(quad: np.ndarray) -> np.ndarray:
    """(N, 4, 2): the quad moved by JITTER_PX each way and scaled by JITTER_SCALES about its centre."""
    moved = [quad + [dx, dy] for dx in (-JITTER_PX, 0.0, JITTER_PX) for dy in (-JITTER_PX, 0.0, JITTER_PX)]
    return np.concatenate([np.array(moved, np.float32)] + [_scaled(quad, f) for f in JITTER_SCALES])


def _once_each(cards: CardDetections) -> CardDetections:
    """A map's cards with each card read once: of two face-up readings whose outlines overlap by half (cards in a
    map touch, they do not overlap), the surer is kept, and an unread box on a face read is dropped. A fanned
    card's reading (a neighbour's index read through the card beside moved onto it) and a face read again in
    its cell may both land on one card (selection sets: 3 such pairs in 160 scenes, each an extra card). A face
    lying ONCE_INSIDE within a surer one is that card too, though their outlines overlap less (fresh seed 34733
    scene 20: a 7H at 0.45, 0.72 of it within a 9H read at 0.94, at IoU 0.50)."""
    read = np.array([c in CARD_CODES for c in cards.codes], bool)
    unread = np.array([c == UNREAD for c in cards.codes], bool)
    faces = _unique(cards[read])
    faces = faces[_not_within_surer(faces)]
    lone = cards[unread]
    if len(lone) and len(faces):
        lone = lone[~(pairwise_iou(lone.corners, faces.corners) >= 0.5).any(axis=1)]
    return CardDetections.merge([faces, cards[~read & ~unread], lone])


def _not_within_surer(faces: CardDetections) -> np.ndarray:
    """(N,): which faces lie less than ONCE_INSIDE within every surer face; only those read unsurely (under
    SURE_READING) are asked (the standard map's 56 cards: 2 ms for all)."""
    keep = np.ones(len(faces), bool)
    for k in np.nonzero(faces.confidence < SURE_READING)[0]:
        keep[k] = not any(faces.confidence[j] > faces.confidence[k]
                          and _inside_share(faces.corners[k], faces.corners[j]) >= ONCE_INSIDE
                          for j in range(len(faces)))
    return keep


def _regrown(image: np.ndarray, grid: Grid, cards: CardDetections) -> tuple[CardDetections, Grid]:
    """The map's cards with its unread ones read again, round by round (GRID_ROUNDS at most, while a round reads
    any), through the free cells that the grid, refitted to the cards read so far, gives around them; and the
    last grid. A homography fitted to a band of rows (a hand over the rest of the map) tilts the rows beyond
    them, and its cells there cut across two cards; an affine fit to the same cards (`Grid.flat`) does not, so
    the free cells of both are read, and each round's cards join the next round's fit. A free cell overlapping
    an unread card's box (its box spans two cards as often as not) is read, a reading as sure as
    EMPTY_CELL_READ is a card, and the unread boxes on the cards so read are dropped. Selection sets: seed 5353
    40 -> 28 errors (one map under a hand: 17 unread boxes), the other three unchanged."""
    for _ in range(GRID_ROUNDS):
        left = np.array([c == UNREAD for c in cards.codes], bool)
        read, unread = cards[~left], cards[left]
        if not len(unread):
            break
        regrid = map_grid(read.corners, read.confidence)
        if regrid is None:
            break
        grid = regrid
        cells = np.concatenate([g.outlines(g.empty_cells(read.centres)) for g in (grid, grid.flat(read.corners))])
        cells = cells[(pairwise_iou(cells, unread.corners) >= FREE_CELL_OVERLAP).any(axis=1)] if len(cells) else cells
        if not len(cells):
            break
        codes, conf, corners = read_cards(image, cells.astype(np.float32))
        new = _unique(_face_up(codes, corners, conf, [j for j, c in enumerate(codes)
                                                       if c not in ("none", "JOKER") and conf[j] >= EMPTY_CELL_READ]))
        if not len(new):
            break
        cards = CardDetections.merge([read, new, _apart(unread, new)])
    return cards, grid


def one_deck(image: np.ndarray, cards: CardDetections, in_map: np.ndarray) -> CardDetections:
    """A map's cards with no card read twice: a map of at most 52 cards is laid from one deck, which holds each
    card once, so of two of its cards read as one code (mostly court cards in a map, their letters a few pixels
    tall) one is wrong. The map's cards (`in_map`) read twice, and those read as the cards they are next
    likeliest to be (CLASH_ROUNDS times over), are read again (`card_odds`) and given the codes that are
    likeliest together, each once; the other cards keep theirs. A larger map is laid from two decks and is left
    as read, and so are the cards beside a map (another deck's piles: Superheld's ghost warriors)."""
    faces = [i for i, c in enumerate(cards.codes) if c in CARD_CODES and in_map[i]]
    times = Counter(cards.codes[i] for i in faces)
    ids = {i for i in faces if times[cards.codes[i]] > 1}
    if not ids or int(np.count_nonzero(in_map)) > len(CARD_CODES):
        return cards
    odds: dict[int, np.ndarray] = {}
    for _ in range(CLASH_ROUNDS):
        new = sorted(ids - odds.keys())
        odds.update(zip(new, card_odds(image, cards.corners[new]), strict=True))
        wanted = {CARD_CODES[c] for i in ids for c in np.argsort(-odds[i])[:CLASH_CHOICES]}
        ids |= {i for i in faces if cards.codes[i] in wanted}
    new = sorted(ids - odds.keys())
    odds.update(zip(new, card_odds(image, cards.corners[new]), strict=True))
    rows = sorted(ids)
    held = {cards.codes[i] for i in faces if i not in ids}
    columns = [k for k, c in enumerate(CARD_CODES) if c not in held]
    cost = -np.log(np.maximum(np.array([odds[i][columns] for i in rows]), 1e-4))
    out = cards[np.arange(len(cards))]
    for i, k in zip(rows, min_cost_assignment(cost), strict=True):
        code = CARD_CODES[columns[k]]
        if code != cards.codes[i]:
            out.codes[i], out.confidence[i] = code, float(odds[i][columns[k]])
    return _no_guesses(out, [i for i in rows if out.codes[i] != cards.codes[i] and out.confidence[i] < MIN_READ])


def _no_guesses(cards: CardDetections, guessed: list[int]) -> CardDetections:
    """The cards less each `guessed` one (given a code its reading holds less likely than MIN_READ, the deck's
    only one left) that lies on another card: a card read twice through overlapping outlines, whose second
    reading one deck forced onto a code nothing shows (selection seed 5353: a 2C read twice, one given AS at
    0.00). A guess lying on no card stays: the deck's last code is right more often than not (reporting those
    unread instead: selection sets 38 -> 48, the ten seeds 68 -> 81)."""
    if not guessed:
        return cards
    drop = [i for i in guessed if _lies_on(cards.corners[i][None], np.delete(cards.corners, i, axis=0)).any()]
    return _without(cards, drop)


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


def _outlined(image: np.ndarray, backs: Boxes, proposals: np.ndarray) -> np.ndarray:
    """(N,): which face-down boxes a classical blob outlines (IoU OUTLINED_BACK) whose middle shows a back's
    (`look_like_backs`): a card-shaped blob of a back's colour is no pattern in the table."""
    out = np.zeros(len(backs.scores), bool)
    if not len(backs.scores) or not len(proposals):
        return out
    iou = pairwise_iou(backs.quads, proposals)
    ask = np.nonzero((backs.scores < BACK_SCORE) & (iou.max(axis=1) >= OUTLINED_BACK))[0]  # the sure need no blob
    blobs = np.asarray(proposals, np.float32)[iou[ask].argmax(axis=1)].reshape(-1, 4, 2)
    out[ask] = look_like_backs(image, blobs, centre_colours(image, blobs))
    return out


def _not_faces(backs: Boxes, faces: CardDetections, outlined: np.ndarray) -> Boxes:
    """Face-down boxes where no face was read: a face read over one, or around its centre, proves the detector
    wrong (a court card's red picture looks like a back to it); so does a back far smaller than the faces, and a
    box scoring under BACK_SCORE (40 synthetic scenes, seed 777: 6 of 13 false backs, none of 146 true ones) unless
    a classical blob of a back outlines it (`outlined`). A back seen twice (two overlapping boxes) is one."""
    areas = [cv2.contourArea(f) for f in faces.corners]
    least = 0.4 * float(np.median(areas)) if areas else 0.0
    keep = (~_lies_on(backs.quads, faces.corners) & np.array([cv2.contourArea(q) >= least for q in backs.quads], bool)
            & ((backs.scores >= BACK_SCORE) | outlined))
    twins = _lying_on(backs.quads, backs.quads)
    chosen: list[int] = []  # one box per back: of two overlapping boxes the more confident
    for i in np.argsort(-backs.scores):
        if keep[i] and not twins[i, chosen].any():
            chosen.append(int(i))
    idx = np.array(sorted(chosen), int)
    return Boxes(backs.quads[idx].reshape(-1, 4, 2), backs.classes[idx], backs.scores[idx])


def _code_once(cards: CardDetections, iou: float = 0.3) -> CardDetections:
    """Off a map, of two readings of one code whose outlines overlap the surer is kept: a deck holds each card once,
    and a stack walked one strip off reads the card on top again through an outline 22 mm from its own (session
    20's readers: a 4C read twice in a weapon stack). Cards that merely overlap keep their own codes."""
    keep = np.ones(len(cards), bool)
    codes = np.array(cards.codes, dtype=object)
    for code in {c for c in cards.codes if c in CARD_CODES}:
        same = np.nonzero(codes == code)[0]
        keep[same] = False
        keep[same[_surest_apart(cards[same], iou)]] = True
    return cards if keep.all() else cards[keep]


def _unique(dets: CardDetections, iou: float = 0.5) -> CardDetections:
    """One reading per card: of overlapping outlines keep the most confident."""
    kept = _surest_apart(dets, iou)
    return dets[kept] if len(kept) else CardDetections()


def _surest_apart(dets: CardDetections, iou: float) -> np.ndarray:
    """Indices (sorted) of the readings kept when, surest first, each overlapping one kept by `iou` is dropped."""
    overlaps = pairwise_iou(dets.corners, dets.corners)
    kept: list[int] = []
    for i in np.argsort(-dets.confidence):
        if not (overlaps[i, kept] >= iou).any():
            kept.append(int(i))
    return np.array(sorted(kept), int)


def _outlines(image: np.ndarray, boxes: Boxes) -> np.ndarray:
    return np.array([portrait_corners(refine(image, q)) for q in boxes.quads], np.float32).reshape(-1, 4, 2)


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
    again, again_scores, again_backing = _second_look(image, cards, proposals, codes)
    if len(again):
        more_codes, more_conf, more_corners = read_cards(image, again)
        codes = codes + more_codes
        conf, corners = np.concatenate([conf, more_conf]), np.concatenate([corners, more_corners])
        outlines, scores = np.concatenate([outlines, again]), np.concatenate([scores, again_scores])
        backing = np.concatenate([backing, again_backing])
    sure = (conf * scores) ** 0.5
    codes = [c if sure[i] >= MIN_READ and (c != "JOKER" or conf[i] >= JOKER_READ) else "none"
             for i, c in enumerate(codes)]
    replaced = {n_boxes + j for j in topped}  # blobs whose top card was read through its own box
    read = _face_up(codes, corners, sure, [i for i, c in enumerate(codes) if c not in ("none", "JOKER")
                                           and i not in replaced])
    read = CardDetections.merge([read, beneath])
    lost = [i for i, c in enumerate(codes) if c == "none" and backing[i] >= unread_score]
    m = len(lost)
    unread = CardDetections([UNREAD] * m, outlines[lost].reshape(-1, 4, 2), backing[lost].astype(np.float32),
                            np.full(m, -1, np.int16), np.zeros(m, bool))
    return read, unread


def _trimmed(image: np.ndarray, faces: CardDetections, indices: Boxes) -> CardDetections:
    """Outlines longer than a card (TRIM_ASPECT) that hold the strip of a card under them: a weapon stack's top
    card and the strip above it make one bright region, outlined as one card. Each is shortened to a card from
    either end, by the length its width gives a card and by strips of TRIM_STRIPS_MM (a stack drifting sideways
    widens the region too); a shorter outline counts where it reads the same rank at least as surely and an index
    box in the strip left over reads as another card (`_stacked_on`), which is then read too; its reading replaces
    the whole's, whose suit the strip may have swayed (a KC read KS through the whole: selection sets 67 -> 65
    errors, the ten measurement seeds 90 -> 87)."""
    trims, owner, least, whole, left_over = [], [], [], {}, []
    for k, q in enumerate(faces.corners):
        w, h = mean_sides(q)
        if h < TRIM_ASPECT * w:
            continue
        whole[k] = len(trims)  # read again beside its cuts, in the same run (no cut: owner -1)
        trims.append(q)
        left_over.append(q)  # no cut, nothing left over (never asked)
        owner.append(-1)
        least.append(MIN_CONFIDENCE)
        by_width = w * CARD_H_MM / CARD_W_MM / h
        keeps = [(by_width * f, MIN_CONFIDENCE) for f in TRIM_WIDTH_SLACK if by_width * f < 1.0]
        keeps += [(c, TRIM_STRIP_READ) for c in (CARD_H_MM / (CARD_H_MM + mm) for mm in TRIM_STRIPS_MM) if c < by_width]
        for keep, bar in keeps:
            left, right = (q[3] - q[0]) * (1.0 - keep), (q[2] - q[1]) * (1.0 - keep)  # keep: a card's share
            trims += [np.array([q[0] + left, q[1] + right, q[2], q[3]]),  # cut at the first side, or at the third
                      np.array([q[0], q[1], q[2] - right, q[3] - left])]
            left_over += [np.array([q[0], q[1], q[1] + right, q[0] + left]),
                          np.array([q[3] - left, q[2] - right, q[2], q[3]])]
            owner += [k, k]
            least += [bar, bar]
    if not trims:
        return faces
    outlines = np.array(trims, np.float32)
    codes, conf, corners = read_cards(image, outlines)
    out = faces[np.arange(len(faces))]
    strips = []
    for k, m in whole.items():
        tried = [int(j) for j in np.argsort(-conf, kind="stable")
                 if owner[j] == k and codes[j][:-1] == out.codes[k][:-1] and conf[j] >= conf[m]]
        around = np.delete(faces.corners, k, axis=0)
        for j in tried:
            under = _stacked_on(image, outlines[m], corners[j], codes[j], indices,
                                set(out.codes) | {c.codes[0] for c in strips}, least[j], around,
                                outlines[j + 1 if (j - m) % 2 else j - 1], left_over[j])
            if under is not None:
                out.codes[k], out.confidence[k], out.corners[k] = codes[j], conf[j], corners[j]
                strips.append(under)
                break
    return CardDetections.merge([out, *strips])


def _stacked_on(image: np.ndarray, whole: np.ndarray, card: np.ndarray, code: str, indices: Boxes,
                taken: set[str], least: float, others: np.ndarray,
                beyond: np.ndarray | None = None, strip: np.ndarray | None = None) -> CardDetections | None:
    """The card whose strip `whole` held beyond `card` (read as `code`), read through `card`'s shape moved onto an
    index box in that strip (as a weapon stack's), or None when no box there reads as a card not `taken`. A
    reading of the card's own rank, or of the rank it shows upside down (`UPSIDE_DOWN_RANK`), is its own other
    index, which a cut too deep leaves in the strip (real tune half: 4 of 4 such readings). `least`: the sureness
    a reading needs. The card read must lie under the region or the `others` (the cards read around it) by
    STRIP_CARD_INSIDE: a stack's card lies under the cards laid on it, beyond the region cut (selection seed 4343:
    a 4C under a 7C, its index in the strip a 3D's long outline left; selection sets 65 -> 64 errors)."""
    centres = indices.quads.mean(axis=1)
    in_region = points_in_quads(centres, _scaled(whole[None], STRIP_REACH))[:, 0]
    in_strip = in_region & ~points_in_quads(centres, card[None])[:, 0]
    ways = [w for k in np.nonzero(in_strip)[0] for w in _placements(card, centres[k], STACK_SIDEWAYS_MM,
                                                                     STACK_JITTER_MM)]
    if beyond is not None:  # the cut at the whole's other end: the card under, where no index box shows its index
        ways += [_shifted_about(shape, BEYOND_SHIFT) for shape in (beyond, rotate_corners(beyond, 2))]
    if not ways:
        return None
    outlines = _best_placed(image, ways)
    codes, sure, _ = read_cards_first(image, outlines)
    for i in np.argsort(-sure):
        if sure[i] < least:
            break
        own = codes[i][:-1] in (code[:-1], UPSIDE_DOWN_RANK.get(code[:-1]))
        under = _covered_share(outlines[i], [whole, *others]) >= STRIP_CARD_INSIDE
        shows = strip is None or _covered_share(strip, [outlines[i]]) >= STRIP_SHOWN
        if codes[i] not in taken and codes[i] not in ("none", "JOKER") and not own and under and shows:
            return _face_up(codes, outlines, sure, [int(i)])
    return None


def _shifted_about(quad: np.ndarray, share: float) -> np.ndarray:
    """(9, 4, 2): the quad, and moved by `share` of its width each way along its sides."""
    q = np.asarray(quad, np.float32)
    across, along = (q[1] - q[0]) * share, (q[3] - q[0]) * share * CARD_W_MM / CARD_H_MM
    return np.array([q + a * across + b * along for a in (-1, 0, 1) for b in (-1, 0, 1)], np.float32)


def _scaled(quads: np.ndarray, factor: float) -> np.ndarray:
    """Quads (N, 4, 2) scaled by `factor` about their centres."""
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    centres = q.mean(axis=1, keepdims=True)
    return centres + (q - centres) * factor


def _apart(cards: CardDetections, seen: CardDetections) -> CardDetections:
    """The cards that lie on none of the `seen` ones (no overlap of note, centre outside)."""
    return cards[~_lies_on(cards.corners, seen.corners)] if len(cards) else cards


def _read_loose_indices(image: np.ndarray, indices: Boxes, faces: CardDetections, conf: float,
                        stack: bool = False) -> CardDetections:
    """Index corners that lie on no read card: a card whose body is covered (fans, stacks). Index boxes need
    the score `conf`, or only FAN_INDEX_SCORE in line with a read card: a fan's half-hidden indices are the
    detector's least sure boxes, and the card beside them gives their outline.
    Off a map (`stack`) a weapon stack's bottom card, read through its whole outline, covers the indices of the
    cards laid on it: an index box on a read card, away from its printed corners and in line beyond another
    read card, is a fanned card's too; the cards drift sideways (STACK_SIDEWAYS_MM), the box is loose (its
    outline is tried STACK_JITTER_MM each way), and two readings closer than STACK_APART_MM are one card.
    A card read through the outline its index box alone lays off is turned onto its own edges (`turned_to_edges`)."""
    centres = indices.quads.mean(axis=1)
    # an index on a read card's edge is that card's (touching cards in a map), not a fanned card's
    on = points_in_quads(centres, _scaled(faces.corners, 1.0 + ON_CARD_MARGIN))
    beside = ~on.any(axis=1)
    if stack and len(faces):
        beside |= ~_at_own_index(centres, faces.corners)
    sideways = STACK_SIDEWAYS_MM if stack else FAN_SIDEWAYS_MM
    column = STACK_SIDEWAYS_MM if stack else FAN_COLUMN_MM  # a drifted card's index lies as far off the column
    candidates: list[np.ndarray] = []
    laid: list[int] = []  # the candidates laid off from their index box alone
    group: list[int] = []  # which index box each candidate outline is for
    for k in np.nonzero(beside)[0]:
        ways = []
        if indices.scores[k] >= conf and not on[k].any():
            upright = portrait_corners(indices.quads[k])
            ways += [outline_from_index(upright), outline_from_index(rotate_corners(upright, 2))]
            laid += [len(candidates), len(candidates) + 1]
        near = _fanned_from(centres[k], faces.corners[~on[k]], column)
        if near is not None:  # a card of the same fan: its shape, moved so that its index lies on this one
            ways += _placements(near, centres[k], sideways, STACK_JITTER_MM if stack else 0.0)
        candidates += ways
        group += [int(k)] * len(ways)
    if not candidates:
        return CardDetections()
    outlines = _best_placed(image, candidates)
    codes, sure, _ = read_cards_first(image, outlines)
    best: dict[int, int] = {}  # index box -> its most sure reading
    for i, k in enumerate(group):
        if codes[i] not in ("none", "JOKER") and (k not in best or sure[best[k]] < sure[i]):
            best[k] = i
    picked: list[int] = []
    for i in sorted(best.values(), key=lambda i: -sure[i]):
        if sure[i] < MIN_CONFIDENCE or codes[i] in faces.codes or any(codes[i] == codes[j] for j in picked):
            continue
        if stack and any(_index_gap(outlines[i], outlines[j]) < STACK_APART_MM for j in picked):
            continue
        picked.append(i)
    for i in set(picked) & set(laid):  # read as laid off, then turned onto the card's edges
        outlines[i] = turned_to_edges(image, outlines[i], centres[group[i]])
    return _face_up(codes, outlines, sure, picked)


def _walked(image: np.ndarray, cards: CardDetections, new: np.ndarray | None = None) -> CardDetections:
    """The cards of a weapon stack lying between two read cards of it: a stack's cards are laid one step apart
    along their length (each shows the strip above the next), so between two cards laid in line, `n` steps
    of STACK_STEP_MM apart, lie n - 1 cards, whose indices are read where the steps put them (`_placements`:
    either way up, a few mm each way) when the detector boxed none of them. A reading as sure as STACK_WALK_READ
    of a card not read yet, and not at a card's index read already, is a card. Selection sets: 96 -> 92 errors
    (5 cards mended, 1 broken: 0.8 gave 91, 0.95 94); the real tune half alike.
    A card whose printed top has paper above it (`_paper_above`: the strip of a card under it, such as the
    weapon under a lone monster whose outline took in part of the strip) is walked from too, STACK_BEFORE_MM
    above its index: 92 -> 90 (without the paper test 99, extra cards; also beyond the printed bottom 92).
    Since session 27 the steps between two cards are measured in the frame of the one whose outline is the more
    card-shaped, and placed in its shape: a weapon outlined with the strips below it, wider and shorter than a
    card, put the top card two steps off instead of three (ten seeds 66 -> 63 with STACK_WALK_READ 0.8).
    Since session 28 a point the outline's own shape reads as a card too unsurely is also read through cards a
    tenth and a fifth narrower than that outline (STACK_NARROWER), after all the readings through the outline's own
    shape, a narrower reading counting where it names the same rank, and reported with that outline: the outline
    is often a drifting stack's region, wider than its cards (ten seeds 1618 scene 3: a 5S read 0.63 between two
    such cards). Ten seeds 57 -> 53 errors, selection sets 32 alike, fresh seed 43000 21 -> 19; read in one order
    with the outline's own, 53 and 33 (an AS reported 3 px off its walk through its own width); without the rank
    test 50 and 35 (a JC's index read 8C at 1.0 through a card a fifth narrower).
    `new` (a mask over `cards`): only pairs holding a card read since the first walk are walked, and only such a
    card's paper above it: `predict` walks the stacks again at the end, where a weapon's region read JS at first
    reads 8D (fresh seed 34733 scene 33: the 7C and 5C between it and the 6S; 13 -> 11 errors there). Walking every
    pair again found three stack cards more on the ten seeds (47 -> 44) but one extra card on the real held-out
    half. A card the first walk found counts as new then too: the paper above it was never looked at (fresh seed
    31798 scene 35: the 8C found between the 5S and a region read 9C showed the 2D weapon's strip above it; ten
    seeds 42 -> 40, fresh seeds 31798 and 34733 20 -> 19, the other sets and the real tune half alike)."""
    up = np.array([c in CARD_CODES for c in cards.codes], bool)
    faces = cards[up] if len(cards) else cards
    fresh = np.ones(len(faces), bool) if new is None else np.asarray(new, bool)[up]
    index = INDEX_BOX_MM.mean(axis=0)
    off = [card_shape_off(q) for q in faces.corners]
    frames = [to_frame(faces.corners.reshape(-1, 2), card_to_image(q)).reshape(-1, 4, 2)  # every card in q's (mm)
              for q in faces.corners]
    ways: list[np.ndarray] = []
    origins: list[tuple[np.ndarray, np.ndarray, int]] = []  # each way's card, point (mm in its frame) and way up
    for a in range(len(faces)):
        if fresh[a] and _paper_above(image, faces.corners[a]):
            points = index - np.outer(STACK_BEFORE_MM, [0.0, 1.0])
            ways += _placed_at(faces.corners[a], points)
            origins += [(faces.corners[a], p, up) for p in points for up in UPS]
        for b in range(len(faces)):
            if b == a or not (fresh[a] or fresh[b]):
                continue
            ref = a if off[a] <= off[b] else b  # the better card-shaped outline measures the steps
            for card, frame in _ref_ways(faces.corners, frames, ref, a + b - ref):
                (top, across), (low, side) = (_upright_in(frame[k]) for k in (a, b))
                dx, dy = low - top
                turn = abs(np.degrees(np.arctan2(side[1], side[0]) - np.arctan2(across[1], across[0])))
                if turn > STACK_TURN_DEG or abs(dx) > STACK_SIDEWAYS_MM or dy < 2 * STACK_STEP_MM[0]:
                    continue
                shifts = [np.outer(np.arange(1, n) / n, [dx, dy]) for n in range(2, STACK_MOST + 1)
                          if STACK_STEP_MM[0] <= dy / n <= STACK_STEP_MM[1]]
                if shifts:
                    points = top + index + np.concatenate(shifts)
                    ways += _placed_at(card, points)
                    origins += [(card, p, up) for p in points for up in UPS]
    if not ways:
        return CardDetections()
    outlines = _best_placed(image, ways)
    codes, sure, _ = read_cards_first(image, outlines)
    own = list(range(len(outlines)))  # the reading at the outline's own width each reading stands for
    unsure = [i for i in own if codes[i] in CARD_CODES and sure[i] < STACK_WALK_READ]
    narrow = [(i, _placed_at(card, point[None], f, (up,))[0]) for i in unsure for card, point, up in [origins[i]]
              for f in STACK_NARROWER]
    if narrow:  # a narrower card only where the outline's own names a card too unsurely
        more = _best_placed(image, [w for _, w in narrow])
        more_codes, more_sure, _ = read_cards_first(image, more)
        outlines, codes = np.concatenate([outlines, more]), codes + more_codes
        sure, own = np.concatenate([sure, more_sure]), own + [i for i, _ in narrow]
    picked: list[int] = []
    for i in np.lexsort((-sure, np.arange(len(own)) >= len(ways))):  # the outline's own readings first
        if sure[i] < STACK_WALK_READ:
            continue
        if codes[i] in ("none", "JOKER") or codes[i] in cards.codes or any(codes[i] == codes[j] for j in picked):
            continue
        if codes[own[i]][:-1] != codes[i][:-1]:  # a narrower card's index shows another's corner
            continue
        if any(_index_gap(outlines[i], o) < STACK_APART_MM for o in outlines[picked]) or any(
                _index_gap(outlines[i], o) < STACK_APART_MM and not _outwalks(codes[i], sure[i], c, s)
                for c, o, s in zip(cards.codes, cards.corners, cards.confidence, strict=True)):
            continue
        picked.append(int(i))
    return _face_up(codes, outlines[own], sure, picked)


def _outwalked(cards: CardDetections, walked: CardDetections) -> CardDetections:
    """The cards, less each whose printed index lies within STACK_APART_MM of a walked card's, which is surer (by
    WALK_SURER, of another rank: `_outwalks`): two indices that close are one, and the card read where the steps
    put it the surer (ten seeds 8080 scene 1: a 9S's index read JS at 0.85 through an outline upside down, 9S at
    1.0 walked)."""
    drop = [k for k in range(len(cards)) if any(
        _index_gap(q, cards.corners[k]) < STACK_APART_MM and _outwalks(c, s, cards.codes[k], cards.confidence[k])
        for c, q, s in zip(walked.codes, walked.corners, walked.confidence, strict=True))]
    return _without(cards, drop)


def _outwalks(code: str, sure: float, other: str, other_sure: float) -> bool:
    """Whether a walked reading replaces another reading of its index: surer by WALK_SURER, and of another rank (a
    strip's index, read small, tells the rank better than the suit: spades and clubs)."""
    return sure >= other_sure + WALK_SURER and code[:-1] != other[:-1]


def _placed_at(card: np.ndarray, points_mm: np.ndarray, narrower: float = 1.0,
               ups: tuple[int, ...] = UPS) -> list[np.ndarray]:
    """The placements of a stack's card whose index lies at each of `points_mm` in `card`'s frame, each way up of
    `ups` at each point (point by point), shaped as `card` or as the card `narrower` times as wide at its printed
    top."""
    points = cv2.perspectiveTransform(np.asarray(points_mm, np.float32)[None], card_to_image(card))[0]
    shape = card if narrower == 1.0 else cards_at_top(card, mean_sides(card)[0] * narrower)[0]
    return [w for point in points for w in _placements(shape, point, STACK_SIDEWAYS_MM, STACK_JITTER_MM, ups)]


def _ref_ways(corners: np.ndarray, frames: list[np.ndarray], ref: int,
              other: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """The outline a walk measures its steps in, with every card in its frame: as read, and turned 180 degrees
    where the other card lies the other way up (a stack's top card, both of whose indices show, read from its
    bottom corner measured the steps from that end, across its own face)."""
    ways = [(corners[ref], frames[ref])]
    if _top_turn(corners[ref], corners[other]) > 90.0:
        turned = rotate_corners(corners[ref], 2)
        ways.append((turned, to_frame(corners.reshape(-1, 2), card_to_image(turned)).reshape(-1, 4, 2)))
    return ways


def _upright_in(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A card's top-left and top side in another card's frame, taken the same way up as that card: a stack's top
    card, whose two indices both show, may be read from its bottom corner (selection seed 4343: a 7C outlined upside
    down, so the 4C between it and the 3C above was not walked to)."""
    side = corners[1] - corners[0]
    if side[0] < 0:  # turned more than a quarter: the same outline from its opposite corner
        corners = rotate_corners(corners, 2)
        side = corners[1] - corners[0]
    return corners[0], side


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


def _covered_share(quad: np.ndarray, covers: list[np.ndarray]) -> float:
    """How much of `quad`'s area lies inside one or more of the convex `covers`, counted on its pixels."""
    q = np.asarray(quad, np.float32)
    x0, y0 = np.floor(q.min(axis=0)).astype(int)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int)
    own = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillConvexPoly(own, np.round(q - [x0, y0]).astype(np.int32), 1)
    covered = np.zeros_like(own)
    for c in covers:
        cv2.fillConvexPoly(covered, np.round(np.asarray(c, np.float32) - [x0, y0]).astype(np.int32), 1)
    return float((own & covered).sum()) / max(float(own.sum()), 1.0)


def _inside_share(quad: np.ndarray, other: np.ndarray) -> float:
    """How much of `quad`'s area lies inside `other` (both convex)."""
    area, _ = cv2.intersectConvexConvex(np.asarray(quad, np.float32), np.asarray(other, np.float32))
    return float(area) / max(float(cv2.contourArea(np.asarray(quad, np.float32))), 1e-6)


def _paper_above(image: np.ndarray, card: np.ndarray) -> bool:
    """Whether a band just above the card's printed top shows the card's paper: the strip of a card under it."""
    above = rect_crop(image, card, (4.0, -9.0, CARD_W_MM - 4.0, -3.0), (40, 6))
    own = rect_crop(image, card, (15.0, 1.5, CARD_W_MM - 15.0, 5.0), (30, 4))
    lab = [cv2.cvtColor(c, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32) for c in (above, own)]
    paper = np.median(lab[1], axis=0)
    return float((np.linalg.norm(lab[0] - paper, axis=1) < PAPER_LAB).mean()) >= PAPER_SHARE


def _best_placed(image: np.ndarray, ways: list[np.ndarray]) -> np.ndarray:
    """(N, 4, 2): of each candidate (an outline, or (M, 4, 2) placements of one), the placement whose printed
    index reads as a card most surely, all indices read in one run: only those are read with their face."""
    sets = [np.asarray(w, np.float32).reshape(-1, 4, 2) for w in ways]
    several = [i for i, w in enumerate(sets) if len(w) > 1]
    if several:
        flat = np.concatenate([sets[i] for i in several])
        p = classify(np.stack([index_crop(image, o) for o in flat]))
        score = np.delete(p, NONE_CLASS, axis=1).max(axis=1)
        start = 0
        for i in several:
            n = len(sets[i])
            sets[i] = sets[i][int(np.argmax(score[start:start + n]))][None]
            start += n
    return np.concatenate(sets).astype(np.float32)


def _placements(card: np.ndarray, point: np.ndarray, sideways_mm: float, jitter_mm: float,
                ups: tuple[int, ...] = UPS) -> list[np.ndarray]:
    """The card each way up of `ups` (UPS: either), each (M, 4, 2) moved so that its printed index lies on `point`
    (`_moved_to`) and `jitter_mm` each way of it (only there for 0): the shapes a card laid beside it in a fan
    may have."""
    j = jitter_mm
    offsets = [(dx, dy) for dx in (-j, 0.0, j) for dy in (-j, 0.0, j)] if j else [(0.0, 0.0)]
    return [np.array([_moved_to(shape, point, sideways_mm, d) for d in offsets], np.float32)
            for shape in (rotate_corners(card, 2 * up) for up in ups)]


def _at_own_index(points: np.ndarray, cards: np.ndarray) -> np.ndarray:
    """(M,): whether each point lies at a printed index of one of the cards (any corner: four-index decks), as
    the card's own index box would (within OWN_INDEX_MM)."""
    points = np.asarray(points, np.float32).reshape(-1, 2)
    out = np.zeros(len(points), bool)
    if not len(points):
        return out
    centre = INDEX_BOX_MM.mean(axis=0)
    own = np.array([centre, [CARD_W_MM - centre[0], centre[1]], [CARD_W_MM - centre[0], CARD_H_MM - centre[1]],
                    [centre[0], CARD_H_MM - centre[1]]], np.float32)
    for card in np.asarray(cards, np.float32).reshape(-1, 4, 2):
        off = np.abs(to_frame(points, card_to_image(card))[:, None, :] - own[None])
        out |= ((off[..., 0] < OWN_INDEX_MM[0]) & (off[..., 1] < OWN_INDEX_MM[1])).any(axis=1)
    return out


def _index_gap(card: np.ndarray, other: np.ndarray) -> float:
    """How far (mm, in `card`'s frame) the printed top-left index of `other` lies from `card`'s own."""
    at = to_frame(_printed_index(other), card_to_image(card))
    return float(np.linalg.norm(at[0] - INDEX_BOX_MM.mean(axis=0)))


def _printed_index(card: np.ndarray) -> np.ndarray:
    """(1, 2): where the centre of a card's printed top-left index lies in the image."""
    return cv2.perspectiveTransform(INDEX_BOX_MM.mean(axis=0).reshape(1, 1, 2), card_to_image(card))[0]


def _fanned_from(point: np.ndarray, cards: np.ndarray, column_mm: float = FAN_COLUMN_MM) -> np.ndarray | None:
    """The read card whose fan an index at `point` may belong to: one that the index lies lengthwise beyond, in
    line with one of its printed index columns (a fan shifts its cards lengthwise). A fanned card is laid like
    the card on it, so its outline is that card's moved, truer than one rebuilt from a partly hidden index."""
    if not len(cards):
        return None
    heights = np.linalg.norm(cards[:, 3] - cards[:, 0], axis=1)
    column = float(INDEX_BOX_MM[:, 0].mean())
    for k in np.nonzero(np.linalg.norm(cards.mean(axis=1) - point, axis=1) < 1.5 * heights)[0]:
        x, y = to_frame(point, card_to_image(cards[k]))[0]
        if (abs(x - column) < column_mm and -CARD_H_MM < y < 0) or (
                abs(x - (CARD_W_MM - column)) < column_mm and CARD_H_MM < y < 2 * CARD_H_MM):
            return cards[k]
    return None


def _moved_to(corners: np.ndarray, point: np.ndarray, sideways_mm: float = FAN_SIDEWAYS_MM,
              jitter_mm: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The outline moved along its own length so that its printed top-left index lies level with `point` (a fan
    shifts its cards lengthwise; sideways by a few mm at most, less than an index box's centre is off)."""
    h = card_to_image(corners)
    at = to_frame(point, h)[0]
    shift = at - INDEX_BOX_MM.mean(axis=0) + np.asarray(jitter_mm, np.float32)
    shift[0] = np.clip(shift[0], -sideways_mm, sideways_mm)
    return cv2.perspectiveTransform((CARD_MM + shift)[None].astype(np.float32), h)[0]


def read_cards_first(image: np.ndarray, outlines: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Read only the printed top-left index of each outline (the other corner is a guess, often covered), with
    its face: a fan's top card rebuilt from one index shows its whole face, a lower card's face says nothing."""
    index = classify(np.stack([index_crop(image, o) for o in outlines]))
    face = np.zeros_like(index)
    face[:, NONE_CLASS] = 1.0
    shows = index[:, NONE_CLASS] < 0.5  # only an index that shows is worth its face (the cost of most candidates)
    if shows.any():
        face[shows] = read_faces(image, outlines[shows])
    codes, conf = fuse(index, face)
    return codes, conf, outlines


def _read_in_grid(image: np.ndarray, grid: Grid, faces: CardDetections, others: CardDetections,
                  unread: CardDetections) -> CardDetections:
    """All the cards of a map, read once more through its grid (synthetic seed 777: 45 of 53 wrong codes and
    nearly all of 54 unread cards in maps read right through their true outline, as a box or blob in a mosaic
    of touching cards often spans two of them). The faces read unsurely are read again in their cells, the
    unread cards in the cells the cards around them outline, and the cells holding no card within the map's
    bounds: a card the detector missed, such as one under a hand whose index corner alone shows (selection sets
    47 -> 45 errors against reading only the holes that held one of the detector's unsure face-up boxes, as
    before session 25; the ten measurement seeds alike). The outlines of all three are read in one batch.
    A face read unsurely off the grid takes no cell, and gives way to a card read in a hole it lies on: a box
    half a cell off a map's top card, read 9D at 0.46, kept its cell from being read (fresh seed 31798 scene 6:
    a whole 3C at the map's end missed)."""
    seen = CardDetections.merge([faces, others])
    unsure, unsure_of = _unsure_cells(faces, grid)
    beside, beside_of = _cells_of_unread(image, grid, unread, seen)
    loose = ~grid.members[:len(faces)] & (faces.confidence < SURE_READING)  # take no cell (below)
    loose_faces = faces[loose]
    taken = CardDetections.merge([faces[~loose], others, unread]).corners.mean(axis=1)
    table = table_lab(image, seen.corners)  # for the rim cells and the backs in holes
    rim = _rim_cells(image, grid, taken, table)
    holes = [o for o in grid.outlines(grid.empty_cells(taken, 0)) if _in_image(o, image)] + rim
    outlines = unsure + beside + holes
    if not outlines:
        return CardDetections.merge([seen, unread])
    codes, conf, corners = read_cards(image, np.array(outlines, np.float32))
    a, b = len(unsure), len(unsure) + len(beside)
    faces = _surer(faces, codes[:a], conf[:a], corners[:a], unsure_of)
    sure = (conf[a:b] * unread.confidence[beside_of]) ** 0.5 if beside_of else conf[a:b]  # with the box's score
    rescued, unread = _rescued(unread, codes[a:b], sure, corners[a:b], beside_of, MIN_READ, once=True)
    in_holes = _face_up(codes, corners, conf, [j for j in range(b, len(codes))
                                                if codes[j] not in ("none", "JOKER") and conf[j] >= EMPTY_CELL_READ])
    shows = [outlines[j] for j in range(b, len(codes))
             if codes[j] not in ("none", "JOKER") and conf[j] < EMPTY_CELL_READ]
    in_holes = _unique(CardDetections.merge([in_holes, _in_holes_beside(image, shows, seen)]))
    still = _same_outlines(faces, loose_faces)  # the loose faces no cell read surer
    faces, loose_faces = faces[~still], faces[still]
    cards = CardDetections.merge([faces, others, rescued, unread])
    in_holes = _apart(in_holes, cards)  # a face read again may have moved into a hole
    cards = CardDetections.merge([cards, in_holes, _apart(loose_faces, in_holes)])
    bare = [outlines[j] for j in range(b, len(codes)) if codes[j] == "none"]
    return CardDetections.merge([cards, _apart(_backs_in_holes(image, bare, cards, table), cards)])


def _same_outlines(cards: CardDetections, others: CardDetections) -> np.ndarray:
    """(N,): which cards have the very outline of one of `others`."""
    return np.array([any(np.array_equal(q, o) for o in others.corners) for q in cards.corners], bool)


def _backs_in_holes(image: np.ndarray, holes: list[np.ndarray], cards: CardDetections,
                    table: np.ndarray | None) -> CardDetections:
    """Backs in a map's empty cells that read as no face: a paperless middle of the colour of a sure back the map
    shows (`like_backs_seen`) and not the table's (selection seed 4343: a back under a hand boxed at 0.42 only
    at the larger input). The cell must show a design framed in paper (`framed_in_paper`, the faces' paper colour
    too): a hole on a noisy blue cloth near a blue back's colour has none (fresh seed 97531 scene 28). The back
    must be as sure as HOLE_BACK_SCORE: a hole boxed as a back at 0.56, on a cloth
    lit lighter in the middle than at the border, made every empty cell of a map's bounds a back (fresh seeds
    86111 scene 4 and 52391 scene 30: 17 and 8 false backs; every other set alike)."""
    sure = np.array([c == "back" for c in cards.codes], bool) & (cards.confidence >= HOLE_BACK_SCORE)
    if not holes or not sure.any():
        return CardDetections()
    quads = np.array(holes, np.float32)
    colours = centre_colours(image, quads)
    backs = cards.corners[sure]
    seen = (like_backs_seen(colours, centre_colours(image, backs))
            | like_backs_seen(centre_medians(image, quads), centre_medians(image, backs)))  # a finger on it
    keep = seen & ~like_table(colours, table) & ~of_table(image, quads, table) & paperless(image, quads)
    faces = cards.corners[[c in CARD_CODES for c in cards.codes] & (cards.confidence >= SURE_READING)]
    paper = paper_colour(image, faces) if keep.any() else None
    keep[keep] = [framed_in_paper(image, q, mean_sides(portrait_corners(q)), paper) for q in quads[keep]]
    return _face_down(quads[keep], np.full(int(keep.sum()), PROPOSAL_SCORE), colours[keep])


def _rim_cells(image: np.ndarray, grid: Grid, taken: np.ndarray, table: np.ndarray | None) -> list[np.ndarray]:
    """The outlines of the cells just beyond a map's bounds that no card seen takes and whose middle has not the
    table's colour (`table`: `table_lab`): a card at the map's end the detector missed (selection seed 6464: an ace
    on a noisy cloth)."""
    rim = [o for o in grid.outlines(_ring_cells(grid, taken)) if _in_image(o, image)]
    if not rim:
        return []
    bare = like_table(centre_colours(image, np.array(rim, np.float32)), table)
    return [o for o, t in zip(rim, bare, strict=True) if not t]


def _ring_cells(grid: Grid, taken: np.ndarray) -> np.ndarray:
    """The empty cells one ring beyond the grid's bounds."""
    inner = {tuple(c) for c in grid.empty_cells(taken, 0)}
    return np.array([c for c in grid.empty_cells(taken, 1) if tuple(c) not in inner], int).reshape(-1, 2)


def _in_holes_beside(image: np.ndarray, holes: list[np.ndarray], seen: CardDetections) -> CardDetections:
    """The cards read in a map's empty cells that show an index the grid's own cell reads unsurely, each read
    through the cell as the HOLE_NEIGHBOURS cards nearest it outline it (`cells_beside`): at the map's rim the
    whole map's fit lies a fifth of a card off, cutting the index, and inside it a card under a hand reads through
    its own cell at 0.68 and at 0.87 as its neighbours lay it (seed 99180: a 10S 0.44 of which shows)."""
    if not holes or not len(seen):
        return CardDetections()
    places = [cells_beside(o, seen.corners)[:HOLE_NEIGHBOURS] for o in holes]
    codes, conf, corners = read_cards(image, np.array([q for p in places for q in p], np.float32))
    picked, start = [], 0
    for p in places:
        end = start + len(p)
        best = max(range(start, end), key=lambda j: conf[j] if codes[j] not in ("none", "JOKER") else -1.0)
        if codes[best] not in ("none", "JOKER") and conf[best] >= EMPTY_CELL_READ:
            picked.append(best)
        start = end
    return _face_up(codes, corners, conf, picked)


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
    """The cards, each unread or unsure (BY_INDEX_UNSURE) one read again through the card each index box inside
    it implies, the box taken either way up and on either side (`outline_from_index`): a partly covered card's
    box holds its visible printed index, which its own corners miss. A reading as sure as TURNED_READ names the
    card; its outline stays its box. Real tune half: 2 tens read right, none lost; the synthetic selection sets
    unchanged. Since session 15 each box is also turned by INDEX_TURNS and taken from the card's box grown by
    INDEX_REACH: 3 more cards (a ten on white paper, an ace and a king cut by the frame), none lost, the selection
    sets unchanged. Since session 29 a box lying at a printed index of another card read surely (`_at_own_index`)
    is left to that card: real tune IMG_2624 shrunk to 0.7 read an unsure queen as the 9H beside it through the
    nine's own index, and the whole nine was then dropped as its code read twice."""
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
    read: dict[int, tuple[np.ndarray, list[str], np.ndarray, np.ndarray]] = {}  # the unread cards' readings
    start = 0
    for j, k in enumerate(asked):
        end = start + len(ways[k])
        if out.codes[k] == UNREAD and inside[:, j].sum() >= 2:
            read[k] = (indices.quads[inside[:, j]], codes[start:end], conf[start:end], corners[start:end])
        start = end
    return _by_two_indices(out, read)


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


def _in_image(quad: np.ndarray, image: np.ndarray) -> bool:
    return bool(((quad >= 0) & (quad < [image.shape[1], image.shape[0]])).all())


def _unsure_cells(faces: CardDetections, grid: Grid) -> tuple[list[np.ndarray], list[int]]:
    """The outlines of the cells under each face read unsurely (under SURE_READING), and whose each is. A cell
    held by a card read surely, or by a back (the grid's cards are the faces, then the backs), is left out."""
    sure = grid.members.copy()
    sure[:len(faces)] &= faces.confidence >= SURE_READING
    held = {tuple(c) for c in grid.cells[sure]}
    outlines, owner = [], []
    for k in np.nonzero(faces.confidence < SURE_READING)[0]:
        for cell in grid.cells_under(faces.corners[k].mean(axis=0)):
            if tuple(cell) not in held:
                outlines.append(grid.outline(cell))
                owner.append(int(k))
    return outlines, owner


def _surer(faces: CardDetections, codes: list[str], conf: np.ndarray, corners: np.ndarray,
           owner: list[int]) -> CardDetections:
    """The faces, each with the surest of its readings; two faces then read in one cell are one card."""
    if not owner:
        return faces
    out = list(faces.codes)
    confidence, turned = faces.confidence.copy(), faces.corners.copy()
    for j, k in enumerate(owner):
        if codes[j] not in ("none", "JOKER") and conf[j] > confidence[k]:
            out[k], confidence[k], turned[k] = codes[j], conf[j], corners[j]
    return _unique(CardDetections(out, turned, confidence, faces.backs, faces.index_seen))


def _cells_of_unread(image: np.ndarray, grid: Grid, unread: CardDetections,
                     seen: CardDetections) -> tuple[list[np.ndarray], list[int]]:
    """Outlines for each unread card, and whose each is: the cells around its centre as the grid and the
    cards nearest it outline them, each also tightened on the card's edges; only those on the card's own
    outline (REGRID_OVERLAP) and on no card seen."""
    outlines, owner = [], []
    for k, quad in enumerate(unread.corners):
        for place in cells_beside(quad, seen.corners) + [grid.outline(c) for c in grid.cells_under(quad.mean(axis=0))]:
            for o in (place, portrait_corners(refine(image, place))):
                if quad_iou(o, quad) >= REGRID_OVERLAP:
                    outlines.append(o)
                    owner.append(k)
    if not outlines or not len(seen):
        return outlines, owner
    free = ~(pairwise_iou(np.array(outlines, np.float32), seen.corners) >= 0.5).any(axis=1)
    return [o for o, f in zip(outlines, free, strict=True) if f], [k for k, f in zip(owner, free, strict=True) if f]


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


def _face_up(codes: list[str], corners: np.ndarray, confidence: np.ndarray, picked: list[int]) -> CardDetections:
    """The readings `picked` of outlines read (codes, corners, confidences) as face-up cards."""
    n = len(picked)
    return CardDetections([codes[j] for j in picked], corners[picked].reshape(-1, 4, 2),
                          confidence[picked].astype(np.float32), np.full(n, -1, np.int16), np.ones(n, bool))


def _found(boxes: Boxes, conf: float, faces: CardDetections) -> np.ndarray:
    """Quads of everything found on the table: the detector's sure boxes of cards and backs, and the faces read."""
    sure = (boxes.scores >= conf) & (boxes.classes != INDEX)
    return np.concatenate([boxes.quads[sure].reshape(-1, 4, 2), faces.corners.reshape(-1, 4, 2)]).astype(np.float32)


def face_down(image: np.ndarray, backs: Boxes, faces: CardDetections, proposals: np.ndarray,
              found: np.ndarray, holes: bool = True) -> CardDetections:
    """The face-down cards of the detector's back boxes (`_not_faces`, `_backs`), the classical blobs vouching for
    unsure ones (`_outlined`), and so do sure backs of their colour (`_as_sure_backs`). `holes`: the table may
    show through a map's holes here."""
    vouched = _outlined(image, backs, proposals) | _as_sure_backs(image, backs)
    return _backs(image, _not_faces(backs, faces, vouched), found, holes, _card_size(faces),
                  faces.corners[faces.confidence >= SURE_READING])


def _card_size(faces: CardDetections) -> tuple[float, float] | None:
    """The median short and long side (px) of the faces read surely, or None where none is."""
    sure = faces.corners[faces.confidence >= SURE_READING]
    if not len(sure):
        return None
    short, long = np.median([mean_sides(portrait_corners(q)) for q in sure], axis=0)
    return float(short), float(long)


def _as_sure_backs(image: np.ndarray, backs: Boxes) -> np.ndarray:
    """(N,): which unsure face-down boxes (under BACK_SCORE) show the middle of a sure one's (`like_backs_seen`): a
    second back of a design the table already shows (selection seed 8642: a pile boxed at 0.48 beside a back of
    0.96, their middles 2 apart). A pattern in the table matches none, or is the table's colour (`_backs`)."""
    sure = backs.scores >= BACK_SCORE
    out = np.zeros(len(backs.scores), bool)
    if sure.any() and not sure.all():
        colours = centre_colours(image, backs.quads)
        out[~sure] = like_backs_seen(colours[~sure], colours[sure])
    return out


def _backs(image: np.ndarray, backs: Boxes, found: np.ndarray, holes: bool = True,
           card: tuple[float, float] | None = None, sure: np.ndarray | None = None) -> CardDetections:
    """Face-down cards, but none of the table's own colour (see `backs.like_table`), which a map's hole shows;
    where no map lies (`holes` False) a box as sure as HOLELESS_BACK is kept whatever its colour: a red back
    on a red cloth, its white border all that tells it (ten measurement seeds: two Scoundrel piles, 0.95-0.98).
    Anywhere, a box as sure as FRAMED_BACK whose design lies framed in paper a border's width inside a card of the
    picture's size (`backs.framed_in_paper`, the faces read surely giving the size) is a back: a hole shows the
    table out to its neighbours' edges (fresh seed 57721: seven blue backs of a map on a blue cloth, six kept).
    `sure`: the faces read surely, whose paper's colour (`paper_colour`) frames a cream deck's design too."""
    outlines = _outlines(image, backs)
    colours = centre_colours(image, outlines)
    table = table_lab(image, found) if len(outlines) else None
    keep = ~like_table(colours, table) & ~of_table(image, outlines, table)
    if card is not None:  # a back of the table's colour shows its design framed in its border, a hole does not
        ask = np.nonzero(~keep & (backs.scores >= FRAMED_BACK))[0]
        paper = paper_colour(image, sure) if len(ask) and sure is not None else None
        keep[ask] = [framed_in_paper(image, outlines[k], card, paper) for k in ask]
    if not holes:
        keep |= backs.scores >= HOLELESS_BACK
    keep[keep] = paperless(image, outlines[keep], BACK_PAPER_MOST)  # half its middle paper: a face, or a pale table
    return _face_down(outlines[keep], backs.scores[keep], colours[keep])


def _backs_unread(image: np.ndarray, backs: CardDetections, unread: CardDetections,
                  found: np.ndarray) -> tuple[CardDetections, CardDetections]:
    """The backs among the unread face-up cards (`backs.look_like_backs`), moved to the backs, and the unread
    cards left; of both, none whose middle has the table's colour (`like_table`): a hole in a map on a pale
    table looks like a blank card to the detector, as a dark one's looks like a back (seed 4343: one false
    unread card of 7, and none of the true ones). Nor one whose middle shows no paper and only colours the
    table shows (`of_table`, `paperless`): a hole on a cloth lit unevenly lies far from the border's mean
    (selection seed 777: a hole on a green table, 7.3 from it; the real tune half unchanged). Either needs nearly
    every pixel of the middle in a colour the table shows (`of_table`): on a cluttered counter the border's mean
    was a court picture's mean too (real tune IMG_2509 turned a quarter: a lone KC boxed at 0.91, dropped before
    its turned outline read it). Paper is as light as the picture allows (`paper_lightness`): in the tune half at
    0.55 of its light six cards were dropped as holes on a cloth (IMG_2452: a 9S boxed at 0.8)."""
    if not len(unread):
        return backs, unread
    colours = centre_colours(image, unread.corners)
    lab = table_lab(image, found)
    bare = paperless(image, unread.corners)  # a back's middle and the table's alike: judged once for both
    table = of_table(image, unread.corners, lab) & (like_table(colours, lab) | bare)
    unread, colours, bare = unread[~table], colours[~table], bare[~table]
    turned = look_like_backs(image, unread.corners, colours, bare)
    seen = _face_down(unread.corners[turned], unread.confidence[turned], colours[turned])
    return CardDetections.merge([backs, seen]), unread[~turned]


def _blob_backs(image: np.ndarray, proposals: np.ndarray, seen: CardDetections, found: np.ndarray) -> CardDetections:
    """Backs the detector missed: card-shaped classical blobs read as no face and lying on no card seen, whose
    middle has a back design's colour (`like_a_design`; its white rings show paper) and not the table's
    (selection seed 6464: a close-up pile of a plain-deck back, boxed at 0.19, as large cards often are)."""
    blobs = np.asarray(proposals, np.float32).reshape(-1, 4, 2)
    if not len(blobs):
        return CardDetections()
    alone = ~_lying_on(blobs, seen.corners).any(axis=1) if len(seen) else np.ones(len(blobs), bool)
    blobs = blobs[alone & np.array([card_shape_off(b) <= SHAPE_OFF for b in blobs], bool)]
    if not len(blobs):
        return CardDetections()
    colours = centre_colours(image, blobs)
    lab = table_lab(image, found)
    keep = like_a_design(colours) & ~like_table(colours, lab) & ~of_table(image, blobs, lab)
    return _face_down(blobs[keep], np.full(int(keep.sum()), PROPOSAL_SCORE), colours[keep])


def _face_down(corners: np.ndarray, confidence: np.ndarray, colours: np.ndarray) -> CardDetections:
    """Backs with these outlines, confidences and `centre_colours` (which tell their design)."""
    n = len(corners)
    return CardDetections(["back"] * n, np.asarray(corners, np.float32).reshape(-1, 4, 2),
                          np.asarray(confidence, np.float32), back_designs(colours), np.zeros(n, bool))


def _lying_on(quads: np.ndarray, others: np.ndarray) -> np.ndarray:
    """(N, M): quad i lies on other j: they overlap (IoU 0.3) or i's centre is inside j."""
    return (pairwise_iou(quads, others) >= 0.3) | points_in_quads(np.asarray(quads).reshape(-1, 4, 2).mean(axis=1),
                                                                  others)


def _lies_on(quads: np.ndarray, others: np.ndarray) -> np.ndarray:
    """(N,): each quad lies on one of the others."""
    return _lying_on(quads, others).any(axis=1)
