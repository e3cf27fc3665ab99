"""Where things lie on a tile, in unit coordinates (x right, y down, canonical orientation).

The shapes are derived from the catalog's parts (which edges a city or road part joins, the
monastery), never from per-letter drawings, so the renderer, the feature map the meeple reader
looks up and the reader's expectations all agree with `engine.carcassonne.tiles`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.tiles.catalog import DIRECTIONS, TILES, rotate_edge

CAP_DEPTH = 0.27  # how far a one-edge city reaches into the tile
FIELD_CAP_DEPTH = 0.28  # how far a field bites into a city that covers the opposite edges
ROAD_WIDTH = 0.10
MONASTERY_HALF = 0.17
# edge -> (start corner, end corner) walking the square clockwise
EDGE_CORNERS: dict[str, tuple[tuple[float, float], tuple[float, float]]] = {
    "N": ((0.0, 0.0), (1.0, 0.0)),
    "E": ((1.0, 0.0), (1.0, 1.0)),
    "S": ((1.0, 1.0), (0.0, 1.0)),
    "W": ((0.0, 1.0), (0.0, 0.0)),
}
INWARD: dict[str, tuple[float, float]] = {"N": (0, 1), "E": (-1, 0), "S": (0, -1), "W": (1, 0)}
MIDPOINT: dict[str, tuple[float, float]] = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
CENTRE = (0.5, 0.5)

# label values in a feature map: 0 field, 1.. city parts, 10.. road parts, 20 monastery
FIELD_LABEL, CITY_LABEL, ROAD_LABEL, MONASTERY_LABEL = 0, 1, 10, 20
LABEL_ORDER = ("city", "road", "monastery")  # drawn in turn: roads over cities, the monastery over its road's end (A)


@dataclass(frozen=True)
class Shape:
    """One feature of a tile: its kind, its index among the tile's parts of that kind, its outline."""

    kind: str  # "city", "road", "monastery"
    index: int
    points: np.ndarray  # (n, 2) polygon for city/monastery, polyline for road
    edges: frozenset[str]


def _arc(edge: str, depth: float, span: float = 0.06, n: int = 24) -> np.ndarray:
    """Points from the edge's start corner region bulging inward to `depth`, ending near its end corner."""
    (x0, y0), (x1, y1) = EDGE_CORNERS[edge]
    ix, iy = INWARD[edge]
    t = np.linspace(span, 1.0 - span, n)
    bulge = depth * np.sin(np.pi * (t - span) / (1.0 - 2 * span)) ** 0.6
    xs = x0 + (x1 - x0) * t + ix * bulge
    ys = y0 + (y1 - y0) * t + iy * bulge
    return np.stack([xs, ys], axis=1)


def _bezier(p0: tuple[float, float], c: tuple[float, float], p1: tuple[float, float], n: int = 24) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n)[:, None]
    return (1 - t) ** 2 * np.array(p0) + 2 * (1 - t) * t * np.array(c) + t**2 * np.array(p1)


def city_polygon(edges: frozenset[str]) -> np.ndarray:
    """A city part's outline: a cap, a corner, a band or the tile minus field caps."""
    if len(edges) == 1:
        (edge,) = edges
        (x0, y0), (x1, y1) = EDGE_CORNERS[edge]
        return np.vstack([[[x0, y0]], _arc(edge, CAP_DEPTH), [[x1, y1]]])
    ordered = [e for e in DIRECTIONS if e in edges]
    if len(edges) == 2 and _adjacent(*ordered):
        first, second = (ordered[0], ordered[1]) if _next(ordered[0]) == ordered[1] else (ordered[1], ordered[0])
        start = EDGE_CORNERS[first][0]
        corner = EDGE_CORNERS[first][1]
        end = EDGE_CORNERS[second][1]
        control = (0.5 + 0.16 * (corner[0] - 0.5) * 2, 0.5 + 0.16 * (corner[1] - 0.5) * 2)
        return np.vstack([[start], [corner], [end], _bezier(end, control, start)[1:-1]])
    points: list[np.ndarray] = []
    for edge in DIRECTIONS:
        (x0, y0), (x1, y1) = EDGE_CORNERS[edge]
        if edge in edges:
            points.append(np.array([[x0, y0], [x1, y1]]))
        else:
            points.append(np.vstack([[[x0, y0]], _arc(edge, FIELD_CAP_DEPTH), [[x1, y1]]]))
    return np.vstack(points)


def _next(edge: str) -> str:
    return DIRECTIONS[(DIRECTIONS.index(edge) + 1) % 4]


def _adjacent(a: str, b: str) -> bool:
    return _next(a) == b or _next(b) == a


def road_polyline(edges: frozenset[str], end: tuple[float, float]) -> np.ndarray:
    """A road part: straight or curved between two edges, or from one edge to `end` (where it stops)."""
    ordered = [e for e in DIRECTIONS if e in edges]
    if len(ordered) == 1:
        return np.array([MIDPOINT[ordered[0]], end])
    a, b = ordered
    if not _adjacent(a, b):
        return np.array([MIDPOINT[a], MIDPOINT[b]])
    corner = _shared_corner(a, b)
    pa, pb = np.array(MIDPOINT[a]), np.array(MIDPOINT[b])
    ang_a = np.arctan2(pa[1] - corner[1], pa[0] - corner[0])
    ang_b = np.arctan2(pb[1] - corner[1], pb[0] - corner[0])
    if abs(ang_b - ang_a) > np.pi:
        ang_b += -2 * np.pi if ang_b > ang_a else 2 * np.pi
    angles = np.linspace(ang_a, ang_b, 20)
    return np.stack([corner[0] + 0.5 * np.cos(angles), corner[1] + 0.5 * np.sin(angles)], axis=1)


def _shared_corner(a: str, b: str) -> tuple[float, float]:
    ca, cb = set(EDGE_CORNERS[a]), set(EDGE_CORNERS[b])
    (corner,) = ca & cb
    return corner


def _road_end(letter: str, edge: str) -> tuple[float, float]:
    """Where a one-edge road stops: the monastery, the city gate, or the junction at the centre."""
    t = TILES[letter]
    mx, my = MIDPOINT[edge]
    ix, iy = INWARD[edge]
    if t.monastery:
        reach = 0.5 - MONASTERY_HALF
    elif sum(len(p) == 1 for p in t.roads) < 3 and t.cities:
        reach = FIELD_CAP_DEPTH + 0.02  # runs into the city that surrounds the opposite edges
    else:
        reach = 0.5
    return (mx + ix * reach, my + iy * reach)


@cache
def shapes(letter: str) -> tuple[Shape, ...]:
    """Every feature of a tile in canonical orientation."""
    t = TILES[letter]
    out: list[Shape] = []
    for i, part in enumerate(t.cities):
        out.append(Shape("city", i, city_polygon(part.edges), part.edges))
    for i, road in enumerate(t.roads):
        end = _road_end(letter, next(iter(road))) if len(road) == 1 else CENTRE
        out.append(Shape("road", i, road_polyline(road, end), road))
    if t.monastery:
        h = MONASTERY_HALF
        box = np.array([[0.5 - h, 0.5 - h], [0.5 + h, 0.5 - h], [0.5 + h, 0.5 + h], [0.5 - h, 0.5 + h]])
        out.append(Shape("monastery", 0, box, frozenset()))
    return tuple(out)


def junction(letter: str) -> bool:
    """Three or more roads meet at the centre (a junction house is drawn there)."""
    t = TILES[letter]
    return not t.monastery and sum(len(p) == 1 for p in t.roads) >= 3


def rotate_points(points: np.ndarray, rotation: int) -> np.ndarray:
    """Unit-square points turned `rotation` degrees clockwise about the centre (image axes)."""
    p = np.asarray(points, dtype=np.float64)
    for _ in range(rotation // 90):
        p = np.stack([1.0 - p[:, 1], p[:, 0]], axis=1)
    return p


@cache
def feature_map(letter: str, size: int = 32) -> np.ndarray:
    """Canonical label map (see *_LABEL); roads drawn wide so a meeple beside the road still counts.

    The monastery is drawn last, as the art paints it over the end of its road (A): the wide road's end
    would otherwise take the lower third of the monastery, where a monastery meeple's foot is read.
    """
    labels = np.zeros((size, size), np.uint8)
    for shape in sorted(shapes(letter), key=lambda s: LABEL_ORDER.index(s.kind)):
        pts = np.round(shape.points * size - 0.5).astype(np.int32)
        if shape.kind == "city":
            cv2.fillPoly(labels, [pts], CITY_LABEL + shape.index)
        elif shape.kind == "road":
            cv2.polylines(labels, [pts], False, ROAD_LABEL + shape.index, max(1, round(0.2 * size)))
        else:
            cv2.fillPoly(labels, [pts], MONASTERY_LABEL)
    return labels


def rotated_feature_map(letter: str, rotation: int, size: int = 32) -> np.ndarray:
    return np.rot90(feature_map(letter, size), k=-(rotation // 90))


# px per tile of the label maps a meeple's foot is looked up in (`foot_pixel`): the art paints the catalog's
# outlines to a sixteenth of a pixel, while a 32 px map rounds each outline to whole pixels, a city's up to 1/32
# tile outwards (round 26)
FOOT_MAP = 128


def foot_pixel(u: float, v: float) -> tuple[int, int]:
    """The (x, y) pixel of point (u, v) of a tile on a FOOT_MAP label map."""
    return int(np.clip(u * FOOT_MAP, 0, FOOT_MAP - 1)), int(np.clip(v * FOOT_MAP, 0, FOOT_MAP - 1))


def meeple_spots(letter: str) -> list[tuple[str, int, tuple[float, float]]]:
    """(kind, part index, canonical point) where a meeple is usually put on each scoring feature."""
    spots: list[tuple[str, int, tuple[float, float]]] = []
    for shape in shapes(letter):
        if shape.kind == "road":
            pts = shape.points
            seg = np.cumsum(np.r_[0, np.linalg.norm(np.diff(pts, axis=0), axis=1)])
            half = seg[-1] * (0.5 if len(shape.edges) == 2 else 0.45)
            x = float(np.interp(half, seg, pts[:, 0]))
            y = float(np.interp(half, seg, pts[:, 1]))
            spots.append(("road", shape.index, (x, y)))
        elif shape.kind == "city":
            spots.append(("city", shape.index, _city_spot(shape.edges)))
        else:
            spots.append(("monastery", 0, CENTRE))
    return spots


def _city_spot(edges: frozenset[str]) -> tuple[float, float]:
    vx = sum(MIDPOINT[e][0] - 0.5 for e in edges)
    vy = sum(MIDPOINT[e][1] - 0.5 for e in edges)
    if len(edges) == 1:
        return (0.5 + vx * 0.72, 0.5 + vy * 0.72)
    if len(edges) == 2 and not _adjacent(*edges):
        return (0.62, 0.5) if "E" in edges else (0.5, 0.62)
    if len(edges) == 4:
        return (0.62, 0.62)
    norm = max(np.hypot(vx, vy), 1e-9)
    return (0.5 + 0.26 * vx / norm, 0.5 + 0.26 * vy / norm)


def shield_spot(edges: frozenset[str]) -> tuple[float, float]:
    """Where the shield is painted: in the city, beside the meeple spot."""
    if len(edges) == 2 and not _adjacent(*edges):
        return (0.3, 0.5) if "E" in edges else (0.5, 0.3)
    sx, sy = _city_spot(edges)
    dx, dy = sx - 0.5, sy - 0.5
    if len(edges) == 4:
        return (0.34, 0.34)
    norm = max(np.hypot(dx, dy), 1e-9)
    return (sx - 0.2 * dy / norm, sy + 0.2 * dx / norm)


def feature_edge(letter: str, rotation: int, kind: str, index: int) -> str:
    """The name of a road or city part for the output: its first edge in N E S W order as the tile lies."""
    t = TILES[letter]
    part = t.roads[index] if kind == "road" else t.cities[index].edges
    return min((rotate_edge(e, rotation) for e in part), key=DIRECTIONS.index)


def peak_offset(before: np.ndarray | float, at: np.ndarray | float, after: np.ndarray | float) -> np.ndarray:
    """The peak's offset (within half a sample) from the middle of three samples of a parabola through them; 0
    where they make no peak (a flat or hollow run)."""
    bend = np.asarray(before - 2 * at + after, np.float64)
    peaked = bend < -1e-9
    return np.where(peaked, np.clip(0.5 * (before - after) / np.where(peaked, bend, -1.0), -0.5, 0.5), 0.0)


def percentile_lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The value a share `t` of the way from `a` to `b` as `np.percentile`'s linear method takes it, bit for bit: from
    the lower value below the middle of the gap, from the upper one above it (the fast percentiles that skip numpy's
    overhead use it)."""
    diff = b - a
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)
