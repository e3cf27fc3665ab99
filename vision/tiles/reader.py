"""Reads each tile's structure from the rectified board: what lies along each edge, in the middle, shields.

All editions paint fields green and everything else (city, road, monastery) not green, so the reader
measures "not field" in a few boxes per tile rather than recognising any particular art. Shields are
the one blue thing on a base-game tile.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PATCH = 48  # px per tile in the rectified board
FIELD_LEAD = 0.12  # share of green by which it must lead red and blue in a field (neutral light)
FIELD_LEAD_RANGE = (0.06, 0.18)  # where the per-board split may move with the light
FIELD_SHARE = 0.45  # the split, as a share of the board's commonest field lead
# boxes in tile units (x0, y0, x1, y1) at rotation 0; the other edges are the same boxes turned
STRIP = (0.05, 0.16)  # depth of the band read along an edge
SIDES = ((0.12, 0.32), (0.68, 0.88))  # parts of the edge near its corners
MIDDLE = (0.30, 0.70)  # where a road may cross the edge (tiles sit a little off the grid)
ROAD_WINDOW = 0.12  # width of the window slid along MIDDLE
CENTRE_BOX = (0.38, 0.38, 0.62, 0.62)
DIAGONAL = (0.31, 0.43)  # box on the diagonal near each corner (clear of one-edge city caps)


@dataclass
class TileFeatures:
    """Measured per tile: not-field share at each edge's sides and middle, centre, corners; blue share."""

    sides: np.ndarray  # (4,) N E S W
    middles: np.ndarray  # (4,)
    centre: float
    corners: np.ndarray  # (4,) NE SE SW NW
    blue: float
    valid: float  # share of the tile not hidden by meeples or hands


def green_lead(bgr: np.ndarray) -> np.ndarray:
    """How far green leads red and blue, as a share of green (fields about 0.2 to 0.45, roads about 0)."""
    b, g, r = (bgr[..., i].astype(np.float32) for i in range(3))
    return (g - np.maximum(r, b)) / (g + 1.0)


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
    b, g, r = (bgr[..., i].astype(np.int16) for i in range(3))
    top = np.maximum(r, g)
    return (b - top > 12) & (b * 100 > 118 * top)  # dark editions paint navy shields


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
CORNER_BOXES = [
    (1 - DIAGONAL[1], DIAGONAL[0], 1 - DIAGONAL[0], DIAGONAL[1]),  # NE
    (1 - DIAGONAL[1], 1 - DIAGONAL[1], 1 - DIAGONAL[0], 1 - DIAGONAL[0]),  # SE
    (DIAGONAL[0], 1 - DIAGONAL[1], DIAGONAL[1], 1 - DIAGONAL[0]),  # SW
    (DIAGONAL[0], DIAGONAL[0], DIAGONAL[1], DIAGONAL[1]),  # NW
]


def read_tile(not_field: np.ndarray, blue: np.ndarray, valid: np.ndarray) -> TileFeatures:
    """Features of one PATCH x PATCH tile given its masks (`valid` False where a meeple or hand hides it).

    A box mostly hidden gives NaN: no evidence either way.
    """
    sides = np.array([_mean([_share(not_field, valid, boxes[e]) for boxes in SIDE_BOXES]) for e in range(4)])
    middles = np.array([_road(not_field, valid, e) for e in range(4)])
    centre = _share(not_field, valid, CENTRE_BOX)
    corners = np.array([_share(not_field, valid, box) for box in CORNER_BOXES])
    inner = (0.1, 0.1, 0.9, 0.9)
    return TileFeatures(sides, middles, centre, corners, _share(blue, valid, inner), float(valid.mean()))


def _mean(values: list[float]) -> float:
    seen = [v for v in values if not np.isnan(v)]
    return float(np.mean(seen)) if seen else float("nan")


def _road(not_field: np.ndarray, valid: np.ndarray, edge: int) -> float:
    """The best not-field share of a road-wide window slid along the middle of an edge."""
    a, b = (int(round(v * PATCH)) for v in STRIP)
    m0, m1 = (int(round(v * PATCH)) for v in MIDDLE)
    turned_nf = np.rot90(not_field, edge)  # edge k turned to the top (N)
    turned_valid = np.rot90(valid, edge)
    strip_nf = (turned_nf[a:b, m0:m1] & turned_valid[a:b, m0:m1]).sum(axis=0).astype(np.float64)
    strip_n = turned_valid[a:b, m0:m1].sum(axis=0).astype(np.float64)
    w = max(2, int(round(ROAD_WINDOW * PATCH)))
    kernel = np.ones(w)
    hits = np.convolve(strip_nf, kernel, mode="valid")
    seen = np.convolve(strip_n, kernel, mode="valid")
    ok = seen >= 0.6 * w * (b - a)
    if not ok.any():
        return float("nan")
    return float((hits[ok] / seen[ok]).max())
