"""Reads each tile's structure from the rectified board: what lies along each edge, in the middle, shields.

All editions paint fields green and everything else (city, road, monastery) not green, so the reader
measures "not field" in a few boxes per tile rather than recognising any particular art. Shields are
the one blue thing on a base-game tile.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

PATCH = 48  # px per tile in the rectified board
FIELD_LEAD = 0.12  # share of green by which it must lead red and blue in a field (neutral light)
FIELD_LEAD_RANGE = (0.06, 0.18)  # where the per-board split may move with the light
FIELD_SHARE = 0.45  # the split, as a share of the board's commonest field lead
# boxes in tile units (x0, y0, x1, y1) at rotation 0; the other edges are the same boxes turned
STRIP = (0.05, 0.16)  # depth of the band read along an edge
SIDES = ((0.12, 0.32), (0.68, 0.88))  # parts of the edge near its corners
MIDDLE = (0.38, 0.62)  # where a road may cross the edge: the middle, give or take a tile's slop off its square
ROAD_WINDOW = 0.12  # width of the window slid along MIDDLE
ALONG = (0.14, 0.86)  # where a field beside a road, or along a field edge, is looked for
ROAD_DEPTH = (0.16, 0.26)  # the band deeper in where a road crossing the edge must go on
ROAD_BEND = 0.08  # how far a curved road may have moved along the edge there
ROAD_ONWARD = (0.26, 0.36)  # further in, where a road stub still runs (every road reaches 0.3 tile in or more)
ONWARD_BEND = 0.16  # how far a curved road may have moved along the edge there
HIDDEN_BOUND = 0.5  # a window share past which a partly hidden edge's best (least) still counts as seen
# share of each crossing window (strip and deeper band together) that must show for a hidden crossing to read as
# field (round 22, tuning sets: 0.25 mended 4 farmers' tiles and one other, 0.15 two more farmers' tiles; none broken)
PARTLY_SEEN = 0.15
CENTRE_BOX = (0.38, 0.38, 0.62, 0.62)
DIAGONAL = (0.31, 0.43)  # box on the diagonal near each corner (clear of one-edge city caps)
BETWEEN = (0.36, 0.44)  # deeper in on the diagonal: field there between two separate caps, city in one corner city
# on the diagonal between two city edges, px from the corner of the 3 px windows whose least not-field share tells a
# field wedge between two caps (I) from one corner city (N, M), whose wall the catalog draws 0.42 tile in
WEDGE_PX = range(10, 19)
WEDGE_LEAST = 3  # of the WEDGE_PX windows, seen at least: a figure on one cap hides the deeper ones (session 47)
SEEN_GRID = 16  # cells per tile side of the coarse map of what meeples and hands leave seen


@dataclass
class TileFeatures:
    """Measured per tile: not-field share at each edge's sides and middle, centre, corners; blue share.

    `clearest` is the least not-field share of a road-wide window anywhere along the edge: some field
    shows along a road or field edge (beside the road, between a city's walls), none along a city edge,
    so a three-sided city whose field caps are thin near the corners is still told from a full city.
    """

    sides: np.ndarray  # (4,) N E S W
    middles: np.ndarray  # (4,)
    centre: float
    corners: np.ndarray  # (4,) NE SE SW NW
    blue: float
    valid: float  # share of the tile not hidden by meeples or hands
    clearest: np.ndarray  # (4,)
    between: np.ndarray = field(default_factory=lambda: np.full(4, np.nan))  # (4,) NE SE SW NW, BETWEEN boxes
    onward: np.ndarray = field(default_factory=lambda: np.full(4, np.nan))  # (4,) the road crossing, run on further
    # (4,) NE SE SW NW: the least not-field share along the diagonal's seen windows (`WEDGE_PX`), NaN where under
    # WEDGE_LEAST of them are seen
    wedge: np.ndarray = field(default_factory=lambda: np.full(4, np.nan))
    # (SEEN_GRID, SEEN_GRID) share of each cell seen: where a meeple hides a spot the matcher expects something
    seen: np.ndarray = field(default_factory=lambda: np.ones((SEEN_GRID, SEEN_GRID)))
    # (SEEN_GRID, SEEN_GRID) mean lead of blue over red and green (`blue_lead`, levels) per cell, hidden px as 0
    lead: np.ndarray = field(default_factory=lambda: np.zeros((SEEN_GRID, SEEN_GRID)))
    # (SEEN_GRID, SEEN_GRID) mean Lab b* (yellow over blue, 0 neutral) of each cell's seen not-field px, 0 where none:
    # a blurred shield leaves its spot's city bluer than the rest of the tile's (`matcher._greyer`)
    tint: np.ndarray = field(default_factory=lambda: np.zeros((SEEN_GRID, SEEN_GRID)))
    # (SEEN_GRID, SEEN_GRID) share of each cell that is seen and not field (city, road, shield): what `tint` averages
    cover: np.ndarray = field(default_factory=lambda: np.zeros((SEEN_GRID, SEEN_GRID)))
    # (4, 2) N E S W: the not-field share of each edge's two side boxes (`SIDES`), the one at the corner before the edge
    # clockwise first (NW for N), then the one at the corner after it (NE for N); NaN where hidden
    ends: np.ndarray = field(default_factory=lambda: np.full((4, 2), np.nan))


def green_lead(bgr: np.ndarray) -> np.ndarray:
    """How far green leads red and blue, as a share of green (fields about 0.2 to 0.45, roads about 0)."""
    b, g, r = cv2.split(bgr)  # contiguous planes: the same figures, about twice as fast over a whole board
    green = g.astype(np.float32)
    return (green - cv2.max(r, b).astype(np.float32)) / (green + 1.0)


def field_threshold(lead: np.ndarray) -> float:
    """The lead that splits fields from the rest on this board: a share of the commonest field lead.

    A colour cast shifts every pixel's lead alike, so the split follows the board's own grass where a
    fixed threshold would turn a pale road green or a pastel field brown.
    """
    grass = lead[lead > 0.08]
    if grass.size < 50:
        return FIELD_LEAD
    counts, edges = np.histogram(grass, bins=np.arange(0.08, 0.62, 0.01))
    counts = np.convolve(counts, np.ones(5) / 5, mode="same")
    mode = float(edges[int(np.argmax(counts))] + 0.005)
    return float(np.clip(FIELD_SHARE * mode, *FIELD_LEAD_RANGE))


def field_mask(bgr: np.ndarray, threshold: float = FIELD_LEAD) -> np.ndarray:
    """Green where it is a field: green clearly above red and blue (a pale road under a green cast is not)."""
    return green_lead(bgr) > threshold


def blue_mask(bgr: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(bgr)
    blue, top = b.astype(np.int16), cv2.max(r, g).astype(np.int16)
    return (blue - top > 12) & (blue * 100 > 118 * top)  # dark editions paint navy shields


def blue_lead(bgr: np.ndarray) -> np.ndarray:
    """How far blue leads red and green, 0 where it does not (uint8 levels): a blurred shield's blue mixes with the
    city's tan and leads by too little for `blue_mask`, but still leads, where a plain city's never does."""
    b, g, r = cv2.split(bgr)
    return cv2.subtract(b, cv2.max(r, g))


def _share(mask: np.ndarray, valid: np.ndarray, box: tuple[float, float, float, float]) -> float:
    x0, y0, x1, y1 = (int(round(v * PATCH)) for v in box)
    m, v = mask[y0:y1, x0:x1], valid[y0:y1, x0:x1]
    n = v.sum()
    return float((m & v).sum() / n) if n >= 0.6 * v.size else float("nan")


def _edge_boxes(span: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    """The box covering `span` along each edge N E S W, within the edge strip."""
    a, b = STRIP
    s0, s1 = span
    return [(s0, a, s1, b), (1 - b, s0, 1 - a, s1), (1 - s1, 1 - b, 1 - s0, 1 - a), (a, 1 - s1, b, 1 - s0)]


SIDE_BOXES = [_edge_boxes(span) for span in SIDES]


def _diagonal_boxes(span: tuple[float, float]) -> list[tuple[float, float, float, float]]:
    """The square covering `span` on each diagonal, NE SE SW NW (tile units from each corner)."""
    a, b = span
    return [(1 - b, a, 1 - a, b), (1 - b, 1 - b, 1 - a, 1 - a), (a, 1 - b, b, 1 - a), (a, a, b, b)]


CORNER_BOXES = _diagonal_boxes(DIAGONAL)
BETWEEN_BOXES = _diagonal_boxes(BETWEEN)
WEDGE_BOXES = [_diagonal_boxes(((k - 1) / PATCH, (k + 2) / PATCH)) for k in WEDGE_PX]


def read_tile(not_field: np.ndarray, blue: np.ndarray, valid: np.ndarray) -> TileFeatures:
    """Features of one PATCH x PATCH tile given its masks (`valid` False where a meeple or hand hides it).

    A box mostly hidden gives NaN: no evidence either way.
    """
    return read_tiles(not_field, blue, valid, [(0, 0)])[0]


def read_tiles(not_field: np.ndarray, blue: np.ndarray, valid: np.ndarray, origins: list[tuple[int, int]],
               lead: np.ndarray | None = None, tint: np.ndarray | None = None) -> list[TileFeatures]:
    """`read_tile` for many tiles of one board at once: (x, y) px of each tile's top-left corner in the masks.

    `lead` (`blue_lead` of the board, optional) gives each tile's `TileFeatures.lead`; `tint` (the board's Lab b*
    plane, 8-bit: 128 neutral, optional) its `TileFeatures.tint` (and `cover`, which is read regardless).

    Box sums come from integral images, so a 72-tile board costs a few array operations, not 72 loops.
    """
    if not origins:
        return []
    seen = integral(valid)
    city_px = not_field & valid
    hits = integral(city_px)
    shields = integral(blue & valid)
    ox = np.array([o[0] for o in origins])
    oy = np.array([o[1] for o in origins])

    def share(table: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
        x0, y0, x1, y1 = (int(round(v * PATCH)) for v in box)
        n = box_sum(seen, ox, oy, x0, y0, x1, y1)
        m = box_sum(table, ox, oy, x0, y0, x1, y1)
        enough = n >= 0.6 * (x1 - x0) * (y1 - y0)
        return np.where(enough, m / np.maximum(n, 1), np.nan)

    sides = np.stack([np.stack([share(hits, boxes[e]) for boxes in SIDE_BOXES]) for e in range(4)])  # (4, 2, T)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # both boxes hidden: NaN, no evidence
        side_means = np.nanmean(sides, axis=1)  # (4, T)
    middles, clearest, onward = (np.stack(v) for v in zip(*(_windows(hits, seen, ox, oy, e) for e in range(4)),
                                                           strict=True))
    centre = share(hits, CENTRE_BOX)
    corners = np.stack([share(hits, box) for box in CORNER_BOXES])  # (4, T)
    between = np.stack([share(hits, box) for box in BETWEEN_BOXES])  # (4, T)
    # Modern art's deep caps meet near the corner and fill the boxes between them about as much as a corner city;
    # the field between them still reaches along the diagonal, a wedge a few px wide that a box's mean hides.
    # The windows a figure hides are left out: NaN (no evidence) only where fewer than WEDGE_LEAST are seen.
    wedge = np.stack([_least_seen(np.stack([share(hits, boxes[c]) for boxes in WEDGE_BOXES])) for c in range(4)])
    blues = share(shields, (0.1, 0.1, 0.9, 0.9))
    whole = box_sum(seen, ox, oy, 0, 0, PATCH, PATCH) / (PATCH * PATCH)
    step = np.linspace(0, PATCH, SEEN_GRID + 1).round().astype(int)
    area = np.diff(step)[None, :, None] * np.diff(step)

    def per_cell(table: np.ndarray) -> np.ndarray:
        return box_sum(table, ox[:, None, None], oy[:, None, None], step[None, None, :-1], step[None, :-1, None],
                       step[None, None, 1:], step[None, 1:, None])

    cells = per_cell(seen) / area
    leads = np.zeros_like(cells) if lead is None else per_cell(integral(np.where(valid, lead, 0))) / area
    city = per_cell(hits)
    tints = np.zeros_like(cells) if tint is None else _tints(per_cell, city_px, tint, city)
    return [TileFeatures(side_means[:, t], middles[:, t], float(centre[t]), corners[:, t], float(blues[t]),
                         float(whole[t]), clearest[:, t], between[:, t], onward[:, t], wedge[:, t], cells[t], leads[t],
                         tints[t], city[t] / area[0], sides[:, :, t])
            for t in range(len(origins))]


def _least_seen(shares: np.ndarray) -> np.ndarray:
    """(T,) the least of each tile's seen window shares (windows, T), NaN where under WEDGE_LEAST are seen."""
    seen = ~np.isnan(shares)
    least = np.where(seen, shares, np.inf).min(axis=0)
    return np.where(seen.sum(axis=0) >= WEDGE_LEAST, least, np.nan)


def _tints(per_cell: Callable[[np.ndarray], np.ndarray], city: np.ndarray, tint: np.ndarray,
           count: np.ndarray) -> np.ndarray:
    """(tiles, SEEN_GRID, SEEN_GRID) mean b* less neutral of each cell's city px (`count` of them), 0 where none."""
    sums = per_cell(integral(cv2.bitwise_and(tint, tint, mask=city.view(np.uint8))))
    return np.where(count > 0, sums / np.maximum(count, 1) - 128.0, 0.0)


def integral(mask: np.ndarray) -> np.ndarray:
    """Summed-area table with a zero first row and column: box sums in four lookups."""
    return cv2.integral(mask.view(np.uint8) if mask.dtype == bool else mask.astype(np.uint8), sdepth=cv2.CV_32S)


def box_sum(table: np.ndarray, ox: np.ndarray, oy: np.ndarray, x0: Any, y0: Any, x1: Any, y1: Any) -> np.ndarray:
    """Sums of boxes (px, ints or broadcasting arrays) offset by each tile origin, from an integral image."""
    return (table[oy + y1, ox + x1] - table[oy + y0, ox + x1] - table[oy + y1, ox + x0]
            + table[oy + y0, ox + x0]).astype(np.float64)


def _windows(hits: np.ndarray, seen: np.ndarray, ox: np.ndarray, oy: np.ndarray, edge: int
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per tile, over road-wide windows slid along an edge: the best road crossing within MIDDLE, the least
    not-field share within ALONG (some field by the edge), and the best crossing that also runs on through
    ROAD_ONWARD.

    A road crossing is not-field in the edge strip and again deeper in (ROAD_DEPTH, where the road may have
    bent by up to ROAD_BEND towards a corner): a road runs on into the tile, while a house or flower painted
    in a field near the edge is a dot. A farmhouse painted a little further in, blurred to a fifth of a tile,
    fills both bands; every road still runs on to 0.3 tile in or more (to a junction, a city, a monastery, or
    across), which the onward share measures for the matcher to tell a road edge from a field edge by (a city
    edge's cap may end before it, so it judges roads against fields only). The windows' set is symmetric about
    the edge's middle, so sliding in either direction gives the same figures.
    """
    w = max(2, int(round(ROAD_WINDOW * PATCH)))
    l0, l1 = (int(round(v * PATCH)) for v in ALONG)
    m0, m1 = (int(round(v * PATCH)) - l0 for v in MIDDLE)
    bend = int(round(ROAD_BEND * PATCH))
    c = np.arange(l0, l1 - w + 1)[:, None]  # window starts along the edge, against tiles
    strip, deep, far = (_band(hits, seen, ox, oy, edge, c, w, band) for band in (STRIP, ROAD_DEPTH, ROAD_ONWARD))
    share, enough = strip
    least = np.where(enough, share, np.inf).min(axis=0)
    reach = int(round(ONWARD_BEND * PATCH))
    # a figure by the crossing hides the road's own deeper part while windows bent beside it show field: the
    # deeper band is then no evidence, and the strip alone tells the crossing
    deeper = np.where(_hidden_near(deep[1], m0, m1 - w + 1, bend), -np.inf, _bent(deep, m0, m1 - w + 1, bend))
    onward_share = _bent(far, m0, m1 - w + 1, reach)
    inner = slice(m0, m1 - w + 1)
    road = np.where(np.isfinite(deeper), np.minimum(share[inner], deeper), share[inner])  # deeper hidden: the strip
    best = np.where(enough[inner], road, -np.inf).max(axis=0)
    onward = np.where(enough[inner] & np.isfinite(onward_share), np.minimum(road, onward_share), -np.inf).max(axis=0)
    # a best or least taken over the seen windows only bounds the truth: a road (a field) may lie where it is
    # hidden, so a low best (a high least) with a window hidden is no evidence
    best_gap = ~enough[inner].all(axis=0)
    least_gap = ~enough.all(axis=0)
    # a meeple on a road hides its onward part, and windows bent to either side of it show field: any hidden
    # onward window makes a low onward share no evidence
    onward_gap = best_gap | ~far[1][max(0, m0 - reach):m1 - w + 1 + reach].all(axis=0)
    best = np.where(np.isfinite(best) & ~(best_gap & (best < HIDDEN_BOUND)), best, np.nan)
    least = np.where(np.isfinite(least) & ~(least_gap & (least > HIDDEN_BOUND)), least, np.nan)
    onward = np.where(np.isfinite(onward) & ~(onward_gap & (onward < HIDDEN_BOUND)), onward, np.nan)
    best = np.where(np.isnan(best), _field_behind(hits, seen, ox, oy, edge, c[inner], w), best)
    return best, least, onward


def _field_behind(hits: np.ndarray, seen: np.ndarray, ox: np.ndarray, oy: np.ndarray, edge: int, starts: np.ndarray,
                  w: int) -> np.ndarray:
    """(tiles,) a field edge's crossing where a figure hides most of it: the low share its windows show, or NaN.

    A farmer on a three-sided city's thin field strip stands where T's road would cross R's field edge: its
    figure hides the edge strip, and the field prior then reads T. Between its base and the city, or beside it,
    the field still shows, where a road crossing would show road. Each window is judged on the seen part of
    the strip and the deeper band together, and a low share counts only when every window shows
    `PARTLY_SEEN` of itself (a road wholly under the figure is then unlikely). A high share is not taken: the
    figure's rim and shadow beside its blob read as not field, and they must not make a road of a field.
    """
    share, enough = _band(hits, seen, ox, oy, edge, starts, w, (STRIP[0], ROAD_DEPTH[1]), PARTLY_SEEN)
    low = np.where(enough, share, -np.inf).max(axis=0)
    return np.where(enough.all(axis=0) & (low < HIDDEN_BOUND), low, np.nan)


def _bent(band: tuple[np.ndarray, np.ndarray], start: int, stop: int, reach: int) -> np.ndarray:
    """(windows start..stop, tiles): a band's best seen share within `reach` px along the edge of each window
    (where a curved road may have moved to); -inf where none of them is seen."""
    return _near(np.where(band[1], band[0], -np.inf), start, stop, reach)


def _hidden_near(enough: np.ndarray, start: int, stop: int, reach: int) -> np.ndarray:
    """(windows start..stop, tiles): whether a window within `reach` px along the edge of each is hidden (`enough`
    as `_band` gives it, False there)."""
    return _near(~enough, start, stop, reach)


def _near(values: np.ndarray, start: int, stop: int, reach: int) -> np.ndarray:
    """(windows start..stop, tiles): the most of `values` (windows, tiles) within `reach` px along the edge."""
    return np.stack([values[max(0, k - reach):k + reach + 1].max(axis=0) for k in range(start, stop)])


def _band(hits: np.ndarray, seen: np.ndarray, ox: np.ndarray, oy: np.ndarray, edge: int, starts: np.ndarray,
          w: int, band: tuple[float, float], least_seen: float = 0.6) -> tuple[np.ndarray, np.ndarray]:
    """(windows, tiles) not-field share of the seen pixels and whether `least_seen` of each is seen, of windows
    `w` px wide starting at `starts` along an edge, `band` (tile units) deep."""
    a, b = (int(round(v * PATCH)) for v in band)
    # the windows as they lie at edge N, turned clockwise `edge` quarter turns about the tile's centre
    x0, y0, x1, y1 = _turn_box((starts, np.full_like(starts, a), starts + w, np.full_like(starts, b)), edge)
    n = box_sum(seen, ox, oy, x0, y0, x1, y1)
    return box_sum(hits, ox, oy, x0, y0, x1, y1) / np.maximum(n, 1), n >= least_seen * w * (b - a)


def _turn_box(box: tuple[Any, Any, Any, Any], quarter_turns: int) -> tuple[Any, Any, Any, Any]:
    """A px box of a PATCH tile turned clockwise by quarter turns (N -> E -> S -> W); ints or arrays of them."""
    x0, y0, x1, y1 = box
    for _ in range(quarter_turns % 4):
        x0, y0, x1, y1 = PATCH - y1, x0, PATCH - y0, x1
    return x0, y0, x1, y1
