"""What the live view draws over the camera image: cards outlined and named, the play area (manual, or the
auto calibration's faint mm grid), where the hero may go, the heroes' pawns, trouble in red."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.cards.geometry import CARD_H_MM, CARD_W_MM
from vision.tiles.figures import MEEPLE_PAINT

GREEN, RED, AMBER, WHITE, DARK = (80, 200, 60), (40, 40, 230), (0, 190, 250), (255, 255, 255), (30, 30, 30)
CYAN, MAGENTA = (255, 210, 0), (220, 60, 220)
MARK_COLOURS = {"reach": CYAN, "hero": MAGENTA}  # where the hero may go, where it stands
MARK_INSET = 0.9  # marks drawn inside the card's outline, so that two touching map cards keep their own
GRID_ALPHA = 0.35
PAWN_RING_MM = 12.0  # the ring's radius round a pawn's foot (its base is 9 mm), in the mm of the card under it
PAWN_RING_PX = 14  # where that card is not known
GATE_TEXT = {"moving": "image moving", "hand": "hand over the table", "settling": "settling", "still": ""}


def draw(image: np.ndarray, cards: list[dict[str, Any]], trouble: set[str], gate: str,
         source: dict[str, Any], play_area: list[list[float]] | None, grid: list[np.ndarray] | None = None,
         marks: list[dict[str, Any]] | None = None, pawns: list[dict[str, Any]] | None = None) -> np.ndarray:
    """A copy of `image` with the overlays; `trouble` names the cards of a violation or misread.

    `grid`: the auto calibration's play area and mm grid (image polylines, drawn faint); `marks`: the
    cells where the hero may go and stands (companion.hero.camera_marks); `pawns`: the pawns seen
    (companion.recognisers.Reading.pawns), each ringed in its colour at its foot with its hero's number.
    """
    out = image.copy()
    h, w = out.shape[:2]
    if grid:
        faint = out.copy()
        cv2.polylines(faint, grid[1:], False, WHITE, 1, cv2.LINE_AA)
        cv2.polylines(faint, grid[:1], False, AMBER, 2, cv2.LINE_AA)
        cv2.addWeighted(faint, GRID_ALPHA, out, 1 - GRID_ALPHA, 0, dst=out)
    if play_area:
        pts = np.array([[x * (w - 1), y * (h - 1)] for x, y in play_area], np.int32)
        cv2.polylines(out, [pts], True, AMBER, 2, cv2.LINE_AA)
    dim = gate not in ("still", "settling")
    for card in cards:
        corners = np.asarray(card.get("corners", []), np.float32)
        if corners.shape != (4, 2):
            continue
        colour = RED if card.get("code") in trouble else GREEN
        if dim and colour is GREEN:
            colour = (60, 120, 50)
        cv2.polylines(out, [corners.astype(np.int32)], True, colour, 2, cv2.LINE_AA)
        _label(out, str(card.get("code", "?")), tuple(corners.min(axis=0).astype(int)), colour)
    for mark in marks or []:
        _mark(out, mark)
    for pawn in pawns or []:
        _pawn(out, pawn, cards)
    banner = GATE_TEXT.get(gate, "")
    if source.get("state") not in (None, "live", "none"):
        banner = f"camera {source.get('state')}"
    if banner:
        _label(out, banner, (8, 8), RED if source.get("state") == "lost" else AMBER, scale=0.6)
    return out


def inset(corners: np.ndarray) -> np.ndarray:
    """The outline shrunk towards its centre by MARK_INSET."""
    centre = corners.mean(axis=0)
    return centre + (corners - centre) * MARK_INSET


def _mark(image: np.ndarray, mark: dict[str, Any]) -> None:
    """A thick outline round a read card; a dashed one where the card was placed from the map, not read."""
    corners = np.asarray(mark["corners"], np.float64)
    corners = inset(corners)
    colour = MARK_COLOURS.get(mark.get("kind", "reach"), CYAN)
    if mark.get("seen", True):
        cv2.polylines(image, [np.round(corners).astype(np.int32)], True, colour, 4, cv2.LINE_AA)
    else:
        for a, b in zip(corners, np.roll(corners, -1, axis=0), strict=True):
            steps = max(2, int(np.linalg.norm(b - a) / 8))
            pts = np.linspace(a, b, steps + 1)
            for p, q in zip(pts[::2], pts[1::2], strict=False):
                cv2.line(image, tuple(np.round(p).astype(int)), tuple(np.round(q).astype(int)), colour, 3, cv2.LINE_AA)
    text = "hero" if mark.get("kind") == "hero" else str(mark.get("label", "go"))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.45, 1)
    cx, cy = corners.mean(axis=0)
    _label(image, text, (int(cx - tw / 2) - 3, int(cy + th / 2) + 3), colour, scale=0.45)


def pawn_colour(name: str) -> tuple[int, int, int]:
    """The ring's colour for a pawn colour name: its paint; white for a colour the overlay does not know."""
    return MEEPLE_PAINT.get(name, WHITE)


def ring_radius(point: tuple[float, float], cards: list[dict[str, Any]]) -> int:
    """PAWN_RING_MM in the px of the card under `point` (its perimeter, either way round); PAWN_RING_PX off cards."""
    for card in cards:
        corners = np.asarray(card.get("corners", []), np.float32)
        if corners.shape == (4, 2) and cv2.pointPolygonTest(corners, (float(point[0]), float(point[1])), False) >= 0:
            perimeter = float(np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1).sum())
            return max(6, int(round(PAWN_RING_MM * perimeter / (2 * (CARD_W_MM + CARD_H_MM)))))
    return PAWN_RING_PX


def _pawn(image: np.ndarray, pawn: dict[str, Any], cards: list[dict[str, Any]]) -> None:
    """A ring in the pawn's colour round its foot (edged white, so that a dark pawn shows), its hero's number beside."""
    x, y = (int(round(v)) for v in pawn["point"])
    radius = ring_radius((x, y), cards)
    colour = pawn_colour(str(pawn.get("colour")))
    cv2.circle(image, (x, y), radius + 3, WHITE, 1, cv2.LINE_AA)
    cv2.circle(image, (x, y), radius - 3, WHITE, 1, cv2.LINE_AA)
    cv2.circle(image, (x, y), radius, colour, 4, cv2.LINE_AA)
    if pawn.get("hero") is not None:
        _label(image, str(pawn["hero"]), (x + radius + 2, y - radius + 14), WHITE, scale=0.5)


def placeholder(text: str, size: tuple[int, int] = (640, 360)) -> np.ndarray:
    """The frame shown while there is no camera image."""
    image = np.full((size[1], size[0], 3), 40, np.uint8)
    _label(image, text, (20, size[1] // 2 - 12), WHITE, scale=0.8)
    return image


def _label(image: np.ndarray, text: str, at: tuple[int, int], colour: tuple[int, int, int], scale: float = 0.5) -> None:
    (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    x, y = max(0, at[0]), max(0, at[1] - th - 6)
    cv2.rectangle(image, (x, y), (x + tw + 6, y + th + base + 4), DARK, -1)
    cv2.putText(image, text, (x + 3, y + th + 2), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, 1, cv2.LINE_AA)
