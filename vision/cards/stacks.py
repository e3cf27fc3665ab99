"""Weapon stacks and fans: cards of which only a strip or the index corner shows, walked step by step from the
cards read on them."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.contours import turned_to_edges
from vision.cards.detect import Boxes
from vision.cards.geometry import (
    CARD_H_MM,
    CARD_MM,
    CARD_W_MM,
    INDEX_BOX_MM,
    card_shape_off,
    card_to_image,
    cards_at_top,
    mean_sides,
    outline_from_index,
    points_in_quads,
    portrait_corners,
    rect_crop,
    rotate_corners,
    to_frame,
)
from vision.cards.identity import read_cards
from vision.cards.labels import CARD_CODES
from vision.cards.readings import (
    MIN_CONFIDENCE,
    _best_placed,
    _covered_share,
    _face_up,
    _scaled,
    _top_turn,
    _without,
    read_cards_first,
)
from vision.detections import CardDetections

ON_CARD_MARGIN = 0.08  # an index box this far (of the card's size) outside a read card still lies on it
OWN_INDEX_MM = (8.0, 10.0)  # an index box centre this near (x, y) a card's printed index centre is that card's
FAN_SIDEWAYS_MM = 3.0  # how far a fanned card may lie sideways of the card on it (in a map: see STACK_*)
FAN_COLUMN_MM = 7.0  # how far sideways of a card's index column a fanned card's index may lie
STACK_SIDEWAYS_MM = 12.0  # off a map (a weapon stack) the cards drift sideways more: a few mm per card laid
STACK_STEP_MM = (18.0, 29.0)  # how far apart a weapon stack's cards lie along their length (a strip each)
STACK_BEFORE_MM = (12.0, 18.0, 24.0)  # and a card whose strip shows above a read card, this far above its index
PAPER_LAB, PAPER_SHARE = 20.0, 0.6  # a band whose pixels lie this near a card's paper colour, this many, is paper
SQUEEZE_STEP_MM = 14.0  # the least step seen between a stack's indices (the generator's 18 mm, foreshortened)
STACK_MOST = 6  # steps between two read cards of a stack at most
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
STRIP_REACH = 1.1  # a weapon stack's strip taken in by its region grown by this (`_stacked_on`): the region's
# outline often ends inside the strip, cutting the index of the card under it in two (selection sets 56 -> 55, the
# ten measurement seeds 83 -> 79; 1.05-1.15 alike on the selection sets, 1.2 57; real tune half alike)
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
UPSIDE_DOWN_RANK = {"6": "9", "9": "6"}  # the rank an index shows when read upside down


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


def _paper_above(image: np.ndarray, card: np.ndarray) -> bool:
    """Whether a band just above the card's printed top shows the card's paper: the strip of a card under it."""
    above = rect_crop(image, card, (4.0, -9.0, CARD_W_MM - 4.0, -3.0), (40, 6))
    own = rect_crop(image, card, (15.0, 1.5, CARD_W_MM - 15.0, 5.0), (30, 4))
    lab = [cv2.cvtColor(c, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32) for c in (above, own)]
    paper = np.median(lab[1], axis=0)
    return float((np.linalg.norm(lab[0] - paper, axis=1) < PAPER_LAB).mean()) >= PAPER_SHARE


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
