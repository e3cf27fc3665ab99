"""What the live view draws over the camera image: cards outlined and named, the play area, trouble in red."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

GREEN, RED, AMBER, WHITE, DARK = (80, 200, 60), (40, 40, 230), (0, 190, 250), (255, 255, 255), (30, 30, 30)
GATE_TEXT = {"moving": "image moving", "hand": "hand over the table", "settling": "settling", "still": ""}


def draw(image: np.ndarray, cards: list[dict[str, Any]], trouble: set[str], gate: str,
         source: dict[str, Any], play_area: list[list[float]] | None) -> np.ndarray:
    """A copy of `image` with the overlays; `trouble` names the cards of a violation or misread."""
    out = image.copy()
    h, w = out.shape[:2]
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
    banner = GATE_TEXT.get(gate, "")
    if source.get("state") not in (None, "live", "none"):
        banner = f"camera {source.get('state')}"
    if banner:
        _label(out, banner, (8, 8), RED if source.get("state") == "lost" else AMBER, scale=0.6)
    return out


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
