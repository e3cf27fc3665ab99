"""Layouts read off the detected cards: the Superheld map's adjacency graph and the Scoundrel zones.

Superheld: outlines go to table millimetres (vision.homography), the map is turned so the cards
stand square, and each card becomes an axis-aligned 63 x 88 rectangle for
`engine.superheld.map.adjacency` (edges touching within its slack, corners not counting).

Scoundrel zones, in image coordinates as the camera sees the table (documented contract):
- face-down cards are grouped into piles (outlines overlapping); the leftmost pile (smallest x) is
  the dungeon and, when there are two or more, the rightmost is the discard. A single pile is the
  dungeon when it lies left of the room's middle, else the discard.
- the weapon stack is the largest group of overlapping face-up cards that holds a diamond 2-10:
  that diamond is the weapon, the other cards are the monsters in stacking order (nearest to the
  weapon first). When no face-up cards overlap, a lone diamond lying more than half a card below
  the room row is the weapon with no monster.
- the room is every other face-up card, left to right.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from engine.superheld.map import Rect, adjacency
from vision.cards.geometry import CARD_H_MM, CARD_W_MM
from vision.cards.grid import map_grid, on_cells
from vision.detections import CardDetections
from vision.homography import to_table


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection area over the smaller outline's area."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area) / max(1e-6, min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32))))


def _groups(quads: np.ndarray, min_overlap: float = 0.05) -> list[list[int]]:
    """Connected groups of outlines that overlap each other."""
    n = len(quads)
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        for j in range(i + 1, n):
            if _overlap(quads[i], quads[j]) > min_overlap:
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _is_weapon(code: str) -> bool:
    return code.endswith("D") and code[:-1] not in ("A", "J", "Q", "K")


def _below_row(i: int, cards: list[int], centres: np.ndarray, card_h: float, piles: list[np.ndarray]) -> float:
    """How far card i lies below the line through the other cards' and the piles' centres (in card heights)."""
    others = np.array([centres[j] for j in cards if j != i] + piles, np.float64).reshape(-1, 2)
    if len(others) == 0:
        return 0.0
    if len(others) == 1 or np.ptp(others[:, 0]) < 1e-3:
        row_y = float(others[:, 1].mean())
    else:
        slope, offset = np.polyfit(others[:, 0], others[:, 1], 1)
        row_y = float(slope * centres[i][0] + offset)
    return (float(centres[i][1]) - row_y) / card_h


def scoundrel_zones(dets: CardDetections, image_shape: tuple[int, ...]) -> dict[str, Any]:
    """`room` (codes left to right), `weapon` (code or None), `weapon_monsters` (stacking order),
    `dungeon` / `discard` (face-down cards seen in that pile, 0 when none). See the module doc."""
    centres = dets.centres
    down = np.nonzero(dets.face_down)[0]
    up = np.nonzero(~dets.face_down)[0]
    card_h = float(np.median([np.linalg.norm(q[3] - q[0]) for q in dets.corners])) if len(dets) else 1.0
    weapon, monsters, stack = None, [], set()
    for group in sorted(_groups(dets.corners[up]), key=len, reverse=True):
        members = [int(up[g]) for g in group]
        bases = [i for i in members if _is_weapon(dets.codes[i])]
        if len(members) >= 2 and bases:
            base = bases[0]
            weapon = dets.codes[base]
            others = sorted((i for i in members if i != base),
                            key=lambda i: float(np.linalg.norm(centres[i] - centres[base])))
            monsters = [dets.codes[i] for i in others]
            stack = set(members)
            break
    room = [int(i) for i in up if int(i) not in stack]
    piles = sorted(_groups(dets.corners[down]), key=lambda g: float(np.mean([centres[down[i]][0] for i in g])))
    pile_centres = [np.mean([centres[down[i]] for i in g], axis=0) for g in piles]
    if weapon is None:
        drops = {i: _below_row(i, room, centres, card_h, pile_centres) for i in room if _is_weapon(dets.codes[i])}
        lone = max(drops, key=lambda i: drops[i]) if drops else None
        if lone is not None and drops[lone] > 0.5:
            weapon = dets.codes[lone]
            room.remove(lone)
    room.sort(key=lambda i: float(centres[i][0]))
    dungeon, discard = 0, 0
    if len(piles) >= 2:
        dungeon, discard = len(piles[0]), len(piles[-1])
    elif len(piles) == 1:
        pile_x = float(np.mean([centres[down[i]][0] for i in piles[0]]))
        room_mid = float(np.mean([centres[i][0] for i in room])) if room else image_shape[1] / 2
        dungeon, discard = (len(piles[0]), 0) if pile_x < room_mid else (0, len(piles[0]))
    return {"room": [dets.codes[i] for i in room], "weapon": weapon, "weapon_monsters": monsters,
            "dungeon": dungeon, "discard": discard}


def _square_up(mm: np.ndarray) -> np.ndarray:
    """Turn table-mm outlines so the cards' sides run along the axes (angle taken modulo 90 degrees)."""
    d = mm[:, 1] - mm[:, 0]
    ang = np.arctan2(d[:, 1], d[:, 0]) * 4  # period of 90 degrees
    mean = np.arctan2(np.sin(ang).mean(), np.cos(ang).mean()) / 4
    rot = np.array([[np.cos(-mean), -np.sin(-mean)], [np.sin(-mean), np.cos(-mean)]])
    return mm @ rot.T


def _rects(outlines_mm: np.ndarray) -> list[tuple[float, float, float, float]]:
    """Axis-aligned nominal card rectangles (x, y, w, h) for squared-up outlines."""
    out = []
    for q in outlines_mm:
        cx, cy = q.mean(axis=0)
        side = q[1] - q[0]
        portrait = abs(side[0]) >= abs(side[1])  # the short (top) side runs along x
        w, h = (CARD_W_MM, CARD_H_MM) if portrait else (CARD_H_MM, CARD_W_MM)
        out.append((float(cx - w / 2), float(cy - h / 2), w, h))
    return out


def _adjacency(rects: list[tuple[float, float, float, float]]) -> set[tuple[int, int]]:
    """The edge-adjacent pairs (i < j), by the engine's own rule: what the referee checks is what is drawn."""
    adj = adjacency({i: Rect(*r) for i, r in enumerate(rects)})
    return {(min(i, j), max(i, j)) for i, js in adj.items() for j in js}


def superheld_map(dets: CardDetections, homography: np.ndarray | None) -> dict[str, Any]:
    """The map as a graph: cards (code, centre in table mm, orientation) and edge-adjacent pairs."""
    if len(dets) == 0:
        return {"cards": [], "edges": []}
    grid = map_grid(dets.corners, dets.confidence)
    if grid is not None:  # fitted to every card's centre: truer across the map than one card's frame stretched
        mm = on_cells(to_table(np.linalg.inv(grid.homography), dets.corners))
    elif homography is not None:
        mm = to_table(homography, dets.corners)
    else:  # no perspective known: scale by the median card width
        width_px = float(np.median(np.linalg.norm(dets.corners[:, 1] - dets.corners[:, 0], axis=1)))
        mm = dets.corners.astype(np.float64) * (CARD_W_MM / max(width_px, 1e-6))
    squared = _square_up(mm)
    rects = _rects(squared)
    edges = sorted(_adjacency(rects))
    cards = [{"id": i, "code": dets.codes[i], "centre_mm": [round(r[0] + r[2] / 2, 1), round(r[1] + r[3] / 2, 1)],
              "orient": "portrait" if r[2] < r[3] else "landscape"} for i, r in enumerate(rects)]
    return {"cards": cards, "edges": [list(e) for e in edges]}
