"""Draws a land tile in one of the project's art styles (BGR, uint8), from the catalog's structure.

Everything drawn comes from `geometry.shapes`, so a rendered D has its city on the N edge and its
road W-E exactly as the catalog says, in any style; only the paint varies.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.tiles.geometry import (
    MONASTERY_HALF,
    ROAD_WIDTH,
    Shape,
    feature_map,
    junction,
    rotate_points,
    shapes,
    shield_spot,
)
from vision.tiles.styles import RGB, Style

SHIELD_OUTLINE = np.array([[-1, -1], [1, -1], [1, 0.1], [0, 1], [-1, 0.1]], dtype=np.float64)


def render_tile(letter: str, rotation: int, style: Style, size: int, rng: np.random.Generator) -> np.ndarray:
    """The tile as it lies at `rotation` (clockwise degrees), `size` px square, BGR uint8."""
    canvas = _render_canonical(letter, style, size, rng)
    return np.ascontiguousarray(np.rot90(canvas, k=-(rotation // 90)))


def _jitter(colour: RGB, rng: np.random.Generator, amount: float = 10.0) -> tuple[float, float, float]:
    r, g, b = (np.clip(np.array(colour, np.float64) + rng.normal(0, amount, 3), 0, 255)).tolist()
    return (b, g, r)  # BGR for OpenCV


def _noise(size: int, rng: np.random.Generator, cells: int) -> np.ndarray:
    small = rng.normal(0, 1, (cells, cells)).astype(np.float32)
    return cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)


def _textured(size: int, base: tuple[float, float, float], dark: tuple[float, float, float], strength: float,
              rng: np.random.Generator) -> np.ndarray:
    """A colour with blotches and grain towards `dark`, stronger with the style's texture."""
    img = np.empty((size, size, 3), np.float32)
    img[:] = base
    if strength <= 0:
        return img
    mix = 0.5 * _noise(size, rng, 6) + 0.35 * _noise(size, rng, 18) + 0.25 * rng.normal(0, 1, (size, size))
    mix = np.clip(mix * 0.35 * strength, -0.6, 0.9)[..., None]
    return img + (np.array(dark, np.float32) - np.array(base, np.float32)) * mix


def _px(points: np.ndarray, size: int) -> np.ndarray:
    return np.round(points * size * 16).astype(np.int32)  # 4 fractional bits for cv2 shift=4


def _render_canonical(letter: str, style: Style, size: int, rng: np.random.Generator) -> np.ndarray:
    field = _jitter(style.field, rng, 5.0)
    img = _textured(size, field, _jitter(style.field_dark, rng, 5.0), max(style.texture, 0.15), rng)
    features = feature_map(letter, 32)
    _decorate_fields(img, features, style, size, rng)
    for shape in shapes(letter):
        if shape.kind == "city":
            _draw_city(img, shape, style, size, rng)
    for shape in shapes(letter):
        if shape.kind == "road":
            _draw_road(img, shape, style, size, rng)
    if junction(letter):
        _draw_house(img, (0.5, 0.5), 0.085, style, size, rng)
    for shape in shapes(letter):
        if shape.kind == "monastery":
            _draw_monastery(img, style, size, rng)
    from vision.tiles.catalog import TILES

    for part in TILES[letter].cities:
        if part.shield:
            _draw_shield(img, shield_spot(part.edges), style, size, rng)
    return np.clip(img, 0, 255).astype(np.uint8)


def _decorate_fields(img: np.ndarray, features: np.ndarray, style: Style, size: int, rng: np.random.Generator) -> None:
    """Trees, bushes and the odd farmhouse: field clutter the reader must not take for a feature."""
    free = np.argwhere(features[5:27, 5:27] == 0) + 5
    if len(free) == 0:
        return
    count = rng.poisson(style.decor)
    for _ in range(count):
        y, x = free[rng.integers(len(free))]
        centre = ((x + 0.5) / 32, (y + 0.5) / 32)
        if rng.random() < 0.12:
            _draw_house(img, centre, 0.05, style, size, rng)
            continue
        radius = max(1, int(size * rng.uniform(0.025, 0.05)))
        c = (int(centre[0] * size), int(centre[1] * size))
        cv2.circle(img, c, radius, _jitter(style.field_dark, rng, 12), -1, cv2.LINE_AA)


def _draw_city(img: np.ndarray, shape: Shape, style: Style, size: int, rng: np.random.Generator) -> None:
    mask = np.zeros((size, size), np.uint8)
    cv2.fillPoly(mask, [_px(shape.points, size)], 255, cv2.LINE_AA, shift=4)
    paint = _textured(size, _jitter(style.city, rng), _jitter(style.city_dark, rng), style.texture, rng)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    img[:] = img * (1 - alpha) + paint * alpha
    inner = _inner_boundary(shape.points)
    for run in inner:
        if style.wall_width > 0:
            width = max(1, round(style.wall_width * size))
            cv2.polylines(img, [_px(run, size)], False, _jitter(style.wall, rng), width, cv2.LINE_AA, shift=4)
        if style.outline_width > 0:
            width = max(1, round(style.outline_width * size))
            cv2.polylines(img, [_px(run, size)], False, _jitter(style.outline, rng), width, cv2.LINE_AA, shift=4)
    inside = np.argwhere(cv2.erode(mask, np.ones((max(3, size // 8),) * 2, np.uint8)) > 0)
    for _ in range(style.houses if len(inside) else 0):
        y, x = inside[rng.integers(len(inside))]
        _draw_house(img, ((x + 0.5) / size, (y + 0.5) / size), rng.uniform(0.03, 0.055), style, size, rng)


def _inner_boundary(points: np.ndarray) -> list[np.ndarray]:
    """Runs of the outline that lie inside the tile (where the wall is), not along its border."""
    on_border = (np.minimum(points, 1 - points).min(axis=1) < 1e-6)
    runs: list[np.ndarray] = []
    current: list[np.ndarray] = []
    for p, border in zip(points, on_border, strict=True):
        if border:
            if len(current) > 1:
                runs.append(np.array(current + [p]))
            current = [p]
        else:
            current.append(p)
    if len(current) > 1:
        runs.append(np.array(current + [points[0]]))
    return runs


def _draw_road(img: np.ndarray, shape: Shape, style: Style, size: int, rng: np.random.Generator) -> None:
    width = ROAD_WIDTH * size * rng.uniform(0.85, 1.15)
    pts = _px(shape.points, size)
    cv2.polylines(img, [pts], False, _jitter(style.road_edge, rng), max(1, round(width * 1.3)), cv2.LINE_AA, shift=4)
    cv2.polylines(img, [pts], False, _jitter(style.road, rng, 6), max(1, round(width)), cv2.LINE_AA, shift=4)


def _draw_house(img: np.ndarray, centre: tuple[float, float], half: float, style: Style, size: int,
                rng: np.random.Generator) -> None:
    cx, cy = centre
    body = np.array([[cx - half, cy - half * 0.7], [cx + half, cy - half * 0.7], [cx + half, cy + half * 0.7],
                     [cx - half, cy + half * 0.7]])
    cv2.fillPoly(img, [_px(body, size)], _jitter(style.monastery, rng), cv2.LINE_AA, shift=4)
    roof = body.copy()
    roof[2:, 1] = cy
    cv2.fillPoly(img, [_px(roof, size)], _jitter(style.roof, rng), cv2.LINE_AA, shift=4)


def _draw_monastery(img: np.ndarray, style: Style, size: int, rng: np.random.Generator) -> None:
    h = MONASTERY_HALF
    yard = np.array([[0.5 - h, 0.5 - h], [0.5 + h, 0.5 - h], [0.5 + h, 0.5 + h], [0.5 - h, 0.5 + h]])
    cv2.fillPoly(img, [_px(yard, size)], _jitter(style.monastery, rng), cv2.LINE_AA, shift=4)
    nave = np.array([[0.5 - h * 0.35, 0.5 - h * 0.9], [0.5 + h * 0.35, 0.5 - h * 0.9], [0.5 + h * 0.35, 0.5 + h * 0.7],
                     [0.5 - h * 0.35, 0.5 + h * 0.7]])
    transept = np.array([[0.5 - h * 0.8, 0.5 - h * 0.45], [0.5 + h * 0.8, 0.5 - h * 0.45],
                         [0.5 + h * 0.8, 0.5 - h * 0.1], [0.5 - h * 0.8, 0.5 - h * 0.1]])
    roof = _jitter(style.monastery_roof, rng)
    turn = int(rng.integers(4)) * 90
    for part in (nave, transept):
        cv2.fillPoly(img, [_px(rotate_points(part, turn), size)], roof, cv2.LINE_AA, shift=4)


def _draw_shield(img: np.ndarray, spot: tuple[float, float], style: Style, size: int, rng: np.random.Generator) -> None:
    half = 0.09 * rng.uniform(0.9, 1.1)
    outline = np.array(spot) + SHIELD_OUTLINE * half
    cv2.fillPoly(img, [_px(outline, size)], _jitter(style.shield_trim, rng, 4), cv2.LINE_AA, shift=4)
    inner = np.array(spot) + SHIELD_OUTLINE * half * 0.72
    cv2.fillPoly(img, [_px(inner, size)], _jitter(style.shield, rng, 8), cv2.LINE_AA, shift=4)
