"""Which of the two back designs a face-down card shows: nearest reference colour of the back's centre.

The two Superheld decks differ only in their backs. The references are the project's designs 0 (red)
and 1 (blue); a real pair of decks is told apart the same way as long as their backs differ in colour.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision.cards.geometry import CARD_H_MM, CARD_W_MM, card_to_image, index_crop, rect_crop, rotate_corners
from vision.cards.memo import remembered
from vision.light import brightest
from vision.table import table_distance, table_pixels

TABLE_BACK = 5.0  # a back's middle this close to the table's colour is the table (seed 777: false backs 0.6-2.7
# from it, true ones 8.2 and more)
PALE_L = 140.0  # paper is lighter than this (OpenCV's 0-255 L: L* 55) in a picture lit as most are
PAPER_OF_BRIGHTEST = 0.6  # ... or than 0.6 of the picture's brightest lightness (`vision.light.brightest`)
PAPER_SHARE = 0.1  # a card whose middle shows less paper than this may be a back (faces: 0.32 and more on the
# real tune half's unread cards, but for two dark photos at 0.01-0.02; the backs read as unread faces: 0)
SAME_BACK = 8.0  # a middle this near a sure back's in the same picture is that design's (two backs of one pile: 2)
DESIGN_NEAR = 30.0  # ... when its middle is this near a back design's colour (backs 4-24; faces 39 and more)
TABLE_BIN, TABLE_SHARE = 4, 0.9  # a middle whose pixels lie in (or beside) Lab bins of 4 the table shows, this
# many, is the table
TABLE_STEP = 4  # every 4th border pixel is enough for the table's colour (a 1280 x 720 frame: 18k of 72k)
DESIGN_BLUR = 1.5  # px: a back's fine pattern blurred to one colour (`framed_in_paper`)
DESIGN_TEXTURE = 4.0  # a patterned design's mean difference from itself blurred (`_patterned`)
DESIGN_NEAR_LAB = 25.0  # Lab distance within which the blurred design is one region
DESIGN_SHARE = (0.75, 0.95)  # a back's design spans this share of its outline's sides (the designs' borders: 3-5 mm)
PAPER_NEAR_LAB = 15.0  # a middle this near the faces' paper colour (`paper_colour`) is no design
PAPER_FACES = 8  # faces enough to read the deck's paper colour off
_MARGINS_MM = ((1.5, 28.0, 4.5, 60.0), (CARD_W_MM - 4.5, 28.0, CARD_W_MM - 1.5, 60.0))  # a face's plain long edges
_PATCH = (16, 22)  # w, h of the sampled centre
_CENTRE_MM = np.array([[12, 16], [CARD_W_MM - 12, 16], [CARD_W_MM - 12, CARD_H_MM - 16], [12, CARD_H_MM - 16]],
                      np.float32)


def _centre_lab(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """(n, 3) Lab pixels of the middle of a card (its border and the table stay out)."""
    h = card_to_image(corners)
    src = cv2.perspectiveTransform(_CENTRE_MM[None], h)[0]
    dst = np.array([[0, 0], [_PATCH[0], 0], [_PATCH[0], _PATCH[1]], [0, _PATCH[1]]], np.float32)
    patch = cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), _PATCH)
    return cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


def paper_colour(image: np.ndarray, faces: np.ndarray) -> np.ndarray | None:
    """The median Lab colour of the faces' paper, read along their long edges between the indices (`_MARGINS_MM`)
    of the first PAPER_FACES, or None for no face: a deck's paper may be cream, which `_pale` does not take for
    paper."""
    quads = np.asarray(faces, np.float32).reshape(-1, 4, 2)[:PAPER_FACES]
    if not len(quads):
        return None
    strips = [rect_crop(image, q, m, (3, 16)) for q in quads for m in _MARGINS_MM]
    lab = cv2.cvtColor(np.concatenate(strips, axis=0), cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    return np.median(lab, axis=0)


def framed_in_paper(image: np.ndarray, corners: np.ndarray, card: tuple[float, float],
                    paper: np.ndarray | None = None) -> bool:
    """Whether the unpale region round a card's middle is framed by paper a border's width inside a card of the
    picture (`card`: its short and long side in px), on both axes (DESIGN_SHARE): a back's design in its white
    border. A hole in a map shows the table out to the neighbours' edges, a card's size or larger (the gaps).
    Round a patterned design (`_patterned`) paper is also whatever is not the design's blurred colour
    (DESIGN_NEAR_LAB): a cream deck's paper (chroma 21) is not `_pale` (fresh seed 72941 scene 30: four red
    crosshatched backs of a map on a red checked cloth dropped as its holes). Paper is also what lies nearer the
    faces' paper colour (`paper`, `paper_colour`) than the middle's: a cream deck's fine design blurs out of
    `_patterned` (fresh seed 97531 scene 12: six red backs of a map on a red marbled cloth, their cream borders
    chroma 21-26)."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    short, long = card
    lo, hi = q.min(axis=0) - long * 0.2, q.max(axis=0) + long * 0.2
    (x0, y0), (x1, y1) = np.floor(lo).astype(int), np.ceil(hi).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    window = image[y0:y1, x0:x1]
    cx, cy = (q.mean(axis=0) - [x0, y0]).astype(int)
    if window.size == 0 or not (0 <= cy < window.shape[0] and 0 <= cx < window.shape[1]):
        return False
    lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
    masks = [~_pale(lab)]
    if _patterned(window, (cx, cy), short):  # a design's one colour: a cream deck's paper is no `_pale` paper
        smooth = cv2.cvtColor(cv2.GaussianBlur(window, (0, 0), DESIGN_BLUR), cv2.COLOR_BGR2LAB).astype(np.float32)
        middle = np.median(smooth[max(cy - 2, 0):cy + 3, max(cx - 2, 0):cx + 3].reshape(-1, 3), axis=0)
        masks.append(np.linalg.norm(smooth - middle, axis=2) < DESIGN_NEAR_LAB)
    if paper is not None:  # the design: what lies nearer its middle's colour than the faces' paper's
        middle = np.median(lab[max(cy - 3, 0):cy + 4, max(cx - 3, 0):cx + 4].reshape(-1, 3), axis=0)
        if np.linalg.norm(middle - paper) > PAPER_NEAR_LAB:
            masks.append(np.linalg.norm(lab - middle, axis=2) < np.linalg.norm(lab - paper, axis=2))
    return any(_framed(mask, (cx, cy), card) for mask in masks)


def _patterned(window: np.ndarray, centre: tuple[int, int], short: float) -> bool:
    """Whether the middle of a card (a square a third of its width round `centre`) shows a fine pattern: its mean
    difference from itself blurred by DESIGN_BLUR is DESIGN_TEXTURE at least (crosshatched backs 8-11; map holes of
    plain, noisy or marbled cloths 0.3-1.8; plain backs 0.7-2: left to the pale-paper frame)."""
    cx, cy = centre
    r = max(int(short / 6), 2)
    patch = cv2.cvtColor(window[max(cy - r, 0):cy + r + 1, max(cx - r, 0):cx + r + 1], cv2.COLOR_BGR2GRAY)
    patch = patch.astype(np.float32)
    return bool(np.abs(patch - cv2.GaussianBlur(patch, (0, 0), DESIGN_BLUR)).mean() >= DESIGN_TEXTURE)


def _framed(mask: np.ndarray, centre: tuple[int, int], card: tuple[float, float]) -> bool:
    """Whether the part of `mask` holding `centre` lies clear of the window's edges and spans DESIGN_SHARE of
    the card's sides (`card`: short, long) on both axes."""
    cx, cy = centre
    _, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=4)
    if labels[cy, cx] == 0:
        return False
    region = labels == labels[cy, cx]
    if region[0].any() or region[-1].any() or region[:, 0].any() or region[:, -1].any():
        return False  # not enclosed by paper: the table, or a card the picture's edge cuts
    inside = np.argwhere(region)[:, ::-1].astype(np.float32)
    w, h = sorted(cv2.minAreaRect(inside)[1])
    short, long = card
    return all(DESIGN_SHARE[0] <= a / max(b, 1.0) <= DESIGN_SHARE[1] for a, b in ((w, short), (h, long)))


def centre_colour(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Mean Lab colour of the middle of a card."""
    return _centre_lab(image, corners).mean(axis=0)


def centre_medians(image: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """(N, 3) median Lab colour of each outline's middle: its design's colour where a finger or a coin covers
    less than half of it, which the mean is not."""
    return np.array([np.median(_centre_lab(image, o), axis=0) for o in outlines], np.float32).reshape(-1, 3)


def paper_share(image: np.ndarray, corners: np.ndarray, least: float = PALE_L) -> float:
    """How much of a card's middle is pale, colourless paper: most of a face (pips, an index), none of a back.
    `least`: the lightness paper has at least in this picture (`paper_lightness`)."""
    return float(_pale(_centre_lab(image, corners), least).mean())


def index_paper(image: np.ndarray, outlines: np.ndarray, least: float = PALE_L) -> np.ndarray:
    """(N,): the larger share of pale paper in each outline's two printed index corners (`index_crop`): a card
    a hand covers but for an index shows paper there, a hole in a map its cloth."""
    quads = np.asarray(outlines, np.float32).reshape(-1, 4, 2)
    shares = [[_pale(cv2.cvtColor(index_crop(image, rotate_corners(q, k)), cv2.COLOR_BGR2LAB).astype(np.float32),
                     least).mean() for k in (0, 2)] for q in quads]
    return np.array([max(s) for s in shares], np.float32).reshape(-1)


def paper_lightness(image: np.ndarray) -> float:
    """The lightness (OpenCV's 0-255 L) paper has at least in this picture: PALE_L, or less in a dark picture,
    PAPER_OF_BRIGHTEST of its brightest (`brightest_lightness`): a white face photographed at dusk is grey."""
    return remembered(image, paper_lightness,
                      lambda: float(min(PALE_L, PAPER_OF_BRIGHTEST * brightest_lightness(image))))


def brightest_lightness(image: np.ndarray) -> float:
    """`vision.light.brightest`, once per picture read."""
    return remembered(image, brightest_lightness, lambda: brightest(image))


def _pale(lab: np.ndarray, least: float = PALE_L) -> np.ndarray:
    """Which Lab pixels (..., 3) are pale, colourless paper: L* over 55 (PALE_L, 140 on OpenCV's 0-255 scale, or
    `least`), chroma under 18."""
    return (lab[..., 0] > least) & (np.hypot(lab[..., 1] - 128.0, lab[..., 2] - 128.0) < 18.0)


@cache
def _references() -> np.ndarray:
    from vision.synth.cards import render_back  # the project's own designs are the references

    refs = []
    for design in (0, 1):
        img = render_back(design, 126)
        h, w = img.shape[:2]
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        refs.append(centre_colour(img, corners))
    return np.stack(refs)


def centre_colours(image: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """(N, 3) `centre_colour` of each outline: read once, both to judge a back and to tell its design."""
    return np.array([centre_colour(image, o) for o in outlines], np.float32).reshape(-1, 3)


def _design_distances(colours: np.ndarray) -> np.ndarray:
    """(N, 2): how far each `centre_colours` lies from each design's (chroma a, b weigh more than lightness)."""
    return _colour_distances(colours, _references())


def _colour_distances(colours: np.ndarray, others: np.ndarray) -> np.ndarray:
    """(N, M): how far each of `colours` (Lab) lies from each of `others` (chroma a, b weigh more than lightness)."""
    weights = np.array([0.3, 1.0, 1.0], np.float32)
    diff = np.asarray(colours, np.float32).reshape(-1, 1, 3) - np.asarray(others, np.float32).reshape(1, -1, 3)
    return np.sqrt(((diff * weights) ** 2).sum(axis=2))


def like_backs_seen(colours: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """(N,): which `centre_colours` lie within SAME_BACK of a back's seen in the same picture (`seen`): a back of a
    design the table already shows, under a light that moves every design's colour alike."""
    if not len(colours) or not len(seen):
        return np.zeros(len(colours), bool)
    return _colour_distances(colours, seen).min(axis=1) < SAME_BACK


def back_designs(colours: np.ndarray) -> np.ndarray:
    """Design 0 or 1 per face-down card's `centre_colours`, by colour."""
    if len(colours) == 0:
        return np.zeros(0, np.int16)
    return _design_distances(colours).argmin(axis=1).astype(np.int16)


def look_like_backs(image: np.ndarray, outlines: np.ndarray, colours: np.ndarray,
                    bare: np.ndarray | None = None) -> np.ndarray:
    """(N,): which cards (outlines and their `centre_colours`) show a back's middle: almost no paper, and near a
    back design's colour. The detector calls a back with a white border a face-up card now and then (a pile of
    them on a Scoundrel table), which then reads as an unread face. `bare`: their `paperless`, where already
    judged."""
    if len(outlines) == 0:
        return np.zeros(0, bool)
    return like_a_design(colours) & (paperless(image, outlines) if bare is None else bare)


def like_a_design(colours: np.ndarray) -> np.ndarray:
    """(N,): which `centre_colours` lie near a back design's (DESIGN_NEAR)."""
    return _design_distances(colours).min(axis=1) < DESIGN_NEAR


def paperless(image: np.ndarray, outlines: np.ndarray, most: float = PAPER_SHARE) -> np.ndarray:
    """(N,): which outlines' middles show almost no paper (under `most`): a back's, or the table's; no face's."""
    quads = np.asarray(outlines).reshape(-1, 4, 2)
    least = paper_lightness(image) if len(quads) else PALE_L
    return np.array([paper_share(image, o, least) < most for o in quads], bool)


def table_lab(image: np.ndarray, found: np.ndarray) -> np.ndarray | None:
    """(N, 3) Lab pixels of the table: what the picture's border shows off everything `found` (quads of cards and
    backs); None where too little of it does (a region cut from a map for an update may be all cards)."""
    free = np.ones(image.shape[:2], np.uint8)
    cv2.fillPoly(free, [np.round(q).astype(np.int32) for q in np.asarray(found).reshape(-1, 4, 2)], 0)
    table = table_pixels(image, free, TABLE_STEP)
    return None if table is None else cv2.cvtColor(table[:, None, :], cv2.COLOR_BGR2LAB)[:, 0].astype(np.float32)


def like_table(colours: np.ndarray, table: np.ndarray | None) -> np.ndarray:
    """Per face-down card's `centre_colours`: its middle has the table's colour. The detector sees backs where
    the table shows through a map's holes; a back always differs from the cloth it lies on, or no player could
    see it either. `table`: `table_lab`; where it cannot be seen (None), nothing is judged."""
    if table is None:
        return np.zeros(len(colours), bool)
    # a card's middle is averaged: the table's mean colour is its match on a patterned cloth, the median on a
    # plain one with a hand or a coin at the border
    near = [table_distance(colours, np.asarray(c, np.float32)) for c in (np.median(table, axis=0), table.mean(axis=0))]
    return np.minimum(*near) < TABLE_BACK


def of_table(image: np.ndarray, outlines: np.ndarray, table: np.ndarray | None,
             share: float = TABLE_SHARE) -> np.ndarray:
    """Per face-down card: nearly every pixel of its middle has a colour the table (`table_lab`) shows somewhere (a
    checked cloth, whose mean is none of its colours, seen through a map's hole). Only for backs: a face's white
    paper matches any table with white in it (the real photos' unread cards on tiles and papers)."""
    if table is None or not len(outlines):
        return np.zeros(len(outlines), bool)
    shown = _colours_shown(table)
    out = [shown[tuple((_centre_lab(image, o) // TABLE_BIN).astype(np.intp).T)].mean() >= share
           for o in np.asarray(outlines, np.float32).reshape(-1, 4, 2)]
    return np.array(out, bool)


def _colours_shown(lab: np.ndarray) -> np.ndarray:
    """(B, B, B) bool over Lab bins of TABLE_BIN: the bins these pixels fall in, and the bins beside them."""
    n = 256 // TABLE_BIN
    shown = np.zeros((n + 2, n + 2, n + 2), bool)  # a bin's margin each side, so shifting stays in bounds
    shown[tuple(((np.asarray(lab, np.float32) // TABLE_BIN).astype(np.intp) + 1).T)] = True
    for axis in range(3):  # grown by one bin along each axis in turn: the 27 bins around each
        grown = shown.copy()
        ahead, behind = [slice(None)] * 3, [slice(None)] * 3
        ahead[axis], behind[axis] = slice(1, None), slice(None, -1)
        grown[tuple(ahead)] |= shown[tuple(behind)]
        grown[tuple(behind)] |= shown[tuple(ahead)]
        shown = grown
    return shown[1:-1, 1:-1, 1:-1]
