"""The board's mask in the picture: what is unlike the table (its grain and streaks left out), and the arms and
hands over it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.table import border_band, border_mask, table_colour, table_distance

STREAK = 1.5  # times the table cut: a part of the board mask whose paint stays below this is the table's grain
# a part this many times longer than wide whose hue (a*b*) stays below STREAK times the cut is a streak of the table:
# white streaks on a pale grey table, 10-15 x 160-300 working px, pass the cut by their lightness (their hue 3-13
# from the table's, the cut 10-11); parts of boards are at most 7 times longer than wide, their hue 26 or more off
STREAK_LONG = 10.0
SKIN_LOW = np.array([0, 135, 85], np.uint8)  # YCrCb
SKIN_HIGH = np.array([255, 178, 127], np.uint8)
HAND_AREA = 0.015  # least share of the picture an arm and hand cover
HAND_RED = 118  # Lab a* (OpenCV's, 128 grey): an arm's median lies above it (skin is never green; a field is)
HAND_CHROMA = 8.0  # Lab a*b* units: an arm's pixels stay this near the hue it enters with (shading moves only L)


def _board_mask(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Pixels unlike the table, the table being what the picture's border shows most."""
    h, w = lab.shape[:2]
    table, spread = table_colour(lab)
    dist = table_distance(lab, table)
    cut = max(10.0, 2.5 * spread)
    mask = (dist > cut).astype(np.uint8)
    k = max(3, min(h, w) // 200 * 2 + 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return np.zeros((h, w), bool), table, cut
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = 1 + np.nonzero(areas >= 0.03 * areas.max())[0]  # parts cut off by a table-coloured city too
    # a bright streak in a wooden table passes the cut by a hair all over; any piece of board holds paint far
    # unlike the table (fields, roads)
    keep = [i for i in keep if _unlike(dist, labels, stats[i], i) >= STREAK * cut]
    # a bright streak in a pale table may pass it by its lightness alone: a long thin part whose hue stays the
    # table's is none either (a row of tiles apart from the board is a tile wide and holds fields)
    keep = [i for i in keep if not _streak(lab, table, labels, stats[i], i, cut)]
    return np.isin(labels, keep), table, cut


def _streak(lab: np.ndarray, table: np.ndarray, labels: np.ndarray, stats: np.ndarray, index: int, cut: float
            ) -> bool:
    """Whether a part of the mask is a streak of the table's hue: STREAK_LONG times longer than wide, and the
    90th percentile of its pixels' a*b* distance from the table under STREAK times the cut."""
    x, y, w, h, area = stats[:5]
    if area > (w * w + h * h) / STREAK_LONG:  # its rectangle, no longer than the box's diagonal, holds it
        return False
    part = labels[y:y + h, x:x + w] == index
    contours, _ = cv2.findContours(part.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (w, h), _ = cv2.minAreaRect(np.vstack(contours))
    if max(w, h) < STREAK_LONG * max(min(w, h), 1.0):
        return False
    ys, xs = np.nonzero(part)
    hue = lab[y + ys, x + xs, 1:].astype(np.float32) - np.asarray(table[1:], np.float32)
    return float(np.percentile(np.hypot(hue[:, 0], hue[:, 1]), 90)) < STREAK * cut


def _unlike(dist: np.ndarray, labels: np.ndarray, stats: np.ndarray, index: int) -> float:
    """How far from the table a part of the mask is: the 90th percentile of its pixels' distances."""
    x, y, w, h = stats[:4]
    box = np.s_[y:y + h, x:x + w]
    return float(np.percentile(dist[box][labels[box] == index], 90))


def _hands(bgr: np.ndarray, mask: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """Skin-coloured parts of the board mask that reach the picture's border: an arm and its hand.

    City paint can be skin-coloured too, but a city is ringed by its board while an arm crosses the table,
    and an arm keeps the hue it enters the picture with (a tan city a fingertip touches does not). On a
    skin-coloured (wooden) table skin tells nothing, and the arm is what the board mask brings in through
    the picture's border, in the hue it has there, unless that hue is green (`HAND_RED`): a field running off it.
    """
    ycrcb = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, SKIN_LOW, SKIN_HIGH) > 0
    h, w = skin.shape
    band, edge = border_band(skin.shape), border_mask(skin.shape)
    skin = mask.copy() if np.r_[skin[:band].ravel(), skin[-band:].ravel()].mean() > 0.3 else skin & mask
    n, labels, stats, _ = cv2.connectedComponentsWithStats(skin.astype(np.uint8))
    hand = np.zeros((h, w), bool)
    ring_kernel, beside_kernel = np.ones((9, 9), np.uint8), np.ones((25, 25), np.uint8)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        touches = x <= band or y <= band or x + bw >= w - band or y + bh >= h - band
        if not touches or area < HAND_AREA * h * w:
            continue
        part = _entry_hue(labels == i, lab, edge, band)
        # on a skin-coloured table a lone tile's field running off the picture keeps its hue there too
        if part.sum() < HAND_AREA * h * w or np.median(lab[..., 1][part]) < HAND_RED:
            continue
        near = cv2.dilate(part.astype(np.uint8), ring_kernel) > 0
        ring = near & ~part
        beside = (cv2.dilate(part.astype(np.uint8), beside_kernel) > 0) & ~near & edge  # past its blurred sides
        # an arm lies over the table for part of its length, or at least where it enters the picture; a city
        # at the picture's edge is ringed by tiles
        if (ring.any() and (~mask[ring]).mean() > 0.25) or (beside.any() and (~mask[beside]).mean() > 0.5):
            hand |= part
    return hand


def _entry_hue(part: np.ndarray, lab: np.ndarray, edge: np.ndarray, band: int) -> np.ndarray:
    """The pieces of `part` in the hue (Lab a*b*) with which it crosses the picture's border there, that reach it.

    Shading and light move an arm's lightness, hardly its hue; city paint joined to it differs in hue by
    more than the arm varies (classic and modern cities are skin-coloured, yet yellower than skin).
    """
    entries, at = cv2.connectedComponents((part & edge).astype(np.uint8))
    chroma = lab[..., 1:].astype(np.float32)
    same = np.zeros(part.shape, bool)
    for k in range(1, entries):
        piece = at == k
        if piece.sum() < band * band:
            continue
        d = chroma - np.median(chroma[piece], axis=0)
        same |= part & (np.hypot(d[..., 0], d[..., 1]) < HAND_CHROMA)
    n, labels = cv2.connectedComponents(same.astype(np.uint8))
    reach = np.unique(labels[same & edge])
    return np.isin(labels, reach[reach > 0])


def _close_channels(mask: np.ndarray) -> np.ndarray:
    """Closes pale roads that cut the mask open where they meet a pale table.

    A board of square tiles has a pitch of about 3.5 x area / perimeter (a single tile 4, a long
    line 2), so a closing of a quarter of that fills road-wide channels but no tile-wide notch.
    """
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = sum(cv2.contourArea(c) for c in contours)
    perimeter = sum(cv2.arcLength(cv2.approxPolyDP(c, 2.0, True), True) for c in contours)
    if perimeter <= 0:
        return mask
    k = int(np.clip(0.25 * 3.5 * area / perimeter, 3, 200)) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    # beyond the picture lies table: OpenCV's erosion takes the border as board, so a closing would fill the table
    # between a board and the picture's edge wherever they lie nearer than the disc; table one disc radius wide is
    # all the erosion reaches
    r = k // 2
    padded = cv2.copyMakeBorder(mask.astype(np.uint8), r, r, r, r, cv2.BORDER_CONSTANT, value=0)
    return cv2.morphologyEx(padded, cv2.MORPH_CLOSE, disc)[r:-r, r:-r] > 0


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """The board without holes: art as pale as the table must not punch the outline."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled > 0


def pixels(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y of a mask's pixels in raster order, as `np.nonzero` gives them (y, x), at half its cost."""
    points = cv2.findNonZero(np.ascontiguousarray(mask.view(np.uint8) if mask.dtype == bool else mask))
    if points is None:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    xs, ys = points.reshape(-1, 2).T  # (N, 1, 2) in OpenCV 4, (N, 2) in 5
    return xs, ys
