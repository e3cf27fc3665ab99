"""Where the hero may go: the Superheld map as the dashboard draws it, and the cards to mark on the camera image.

The engine's legal moves say where the hero to move may start, step or stay; the cells are the
engine's map rectangles (table mm). On the camera image a cell is the read card of the same code.
Map cards the camera did not read (a face-down forest card, a covered one) are placed by fitting the
engine's map onto the read cards in table mm (the auto calibration's homography) and projecting
them back; without read cards the dashboard's map diagram still shows every reachable cell.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from companion.live_game import LiveGame
from engine.game import WON
from engine.superheld.deck import code, is_village
from engine.superheld.moves import MonsterTurn, Move, Start, Turn
from engine.superheld.state import State
from engine.superheld.view import state_json
from vision.homography import to_table

FIT_SLACK = 0.6  # a read card this many card widths from where the fitted map puts it is another card
SCALE_RANGE = (0.8, 1.3)  # engine mm -> table mm: the map as laid may have gaps, never another card size


def board(live: LiveGame) -> dict[str, Any] | None:
    """The game's board for the dashboard, or None for games without one."""
    make = BOARDS.get(live.name)
    return make(live) if make is not None else None


def reach(s: State, moves: list[Move]) -> dict[int, set[str]]:
    """Map card -> how the hero to move may use it now: "start", "go", "stay" or "take" (leave and defeat it)."""
    out: dict[int, set[str]] = {}
    here = s.hero.at
    for move in moves:
        match move:
            case Start(cards):
                for c in cards:
                    out.setdefault(c, set()).add("start")
            case Turn(go, take):
                out.setdefault(here if go is None else go, set()).add("stay" if go is None else "go")
                if take:
                    out.setdefault(here, set()).add("take")
            case MonsterTurn(go):
                out.setdefault(go[s.to_move], set()).add("go")
    return out


def superheld_board(s: State, moves: list[Move]) -> dict[str, Any]:
    """The map diagram's cells with what the hero may do on each, and the panel's figures and goals."""
    ways = reach(s, moves)
    view = state_json(s)
    cells = []
    for c in s.order:
        r = s.rects[c]
        cells.append({"code": code(c), "x": r.x, "y": r.y, "w": r.w, "h": r.h, "taken": c not in s.present,
                      "hidden": c in s.hidden, "capital": c == s.capital, "village": is_village(c),
                      "heroes": [i + 1 for i, h in enumerate(s.heroes) if h.at == c], "reach": sorted(ways.get(c, ()))})
    henchmen = max(0, len(s.rects) - 1)
    on_capital = s.capital >= 0 and any(h.at == s.capital for h in s.heroes)
    defeated = view["defeated"]
    goals = [
        {"goal": "henchmen defeated", "value": f"{defeated}/{henchmen}", "met": 0 < henchmen == defeated},
        {"goal": "hero on the capital", "value": view["capital"] or "-", "met": on_capital},
        {"goal": "final battle won", "value": f"round {s.rounds}" if s.rounds else "-", "met": s.result == WON},
    ]
    return {
        "game": "superheld",
        "phase": s.phase,
        "to_move": s.to_move + 1,
        "cells": cells,
        "reachable": sorted(code(c) for c, w in ways.items() if w & {"go", "start"}),
        "stay": any("stay" in w for w in ways.values()),
        "take": next((code(c) for c, w in ways.items() if "take" in w), None),
        "heroes": [{"hero": i + 1, "at": view["hero_at"][i], "coins": h.coins, "ghosts": view["lower_ghosts"][i],
                    "warriors": view["warriors"][i]} for i, h in enumerate(s.heroes)],
        "skill": view["skill"],
        "top_warrior": view["top_warrior"],
        "forest_hidden": view["forest_hidden"],
        "goals": goals,
    }


def _superheld(live: LiveGame) -> dict[str, Any]:
    game = live.match.game
    return superheld_board(game.s, game.legal_moves())  # type: ignore[attr-defined]


# game -> its board for the dashboard; data, not branches.
BOARDS: dict[str, Callable[[LiveGame], dict[str, Any]]] = {"superheld": _superheld}


# -- the camera image --------------------------------------------------------------------------------
def camera_marks(board_view: dict[str, Any] | None, cards: list[dict[str, Any]],
                 homography: np.ndarray | None) -> list[dict[str, Any]]:
    """Outlines (image px) of the cells to mark: where the hero may go and where it stands.

    Each mark is {code, corners, kind ("reach" or "hero"), seen}: `seen` False for a cell placed by
    the fitted map because the camera did not read that card.
    """
    if not board_view or board_view.get("game") != "superheld":
        return []
    cells = {c["code"]: c for c in board_view["cells"] if not c["taken"]}
    wanted = [c for c in cells.values() if c["reach"] or c["heroes"]]
    if not wanted:
        return []
    read: dict[str, list[np.ndarray]] = {}
    for card in cards:
        corners = np.asarray(card.get("corners", []), np.float64)
        if corners.shape == (4, 2) and card.get("code") in cells:
            read.setdefault(str(card["code"]), []).append(corners)
    place = _map_fit(cells, read, homography)
    marks = []
    for cell in wanted:
        found = _read_corners(cell, read.get(cell["code"], []), place)
        corners = found if found is not None else (place(_rect(cell)) if place is not None else None)
        if corners is None:
            continue
        marks.append({"code": cell["code"], "corners": np.round(corners, 1).tolist(),
                      "kind": "hero" if cell["heroes"] else "reach", "seen": found is not None,
                      "label": "start" if "start" in cell["reach"] else "go"})
    return marks


def card_at(cells: dict[str, dict[str, Any]], read: dict[str, list[np.ndarray]], point: np.ndarray) -> str | None:
    """The map cell whose card lies under image `point`: the engine's map fitted onto the read cards (image px), and
    the cell placed nearest, within FIT_SLACK of a card's width; None when the map cannot be fitted or none is near."""
    place = _map_fit(cells, {c: q for c, q in read.items() if c in cells}, None)
    if place is None:
        return None
    placed = {c: place(_rect(cell)) for c, cell in cells.items()}
    best = min(placed, key=lambda c: float(np.linalg.norm(placed[c].mean(axis=0) - point)))
    size = float(np.linalg.norm(placed[best][1] - placed[best][0]))
    return best if np.linalg.norm(placed[best].mean(axis=0) - point) <= FIT_SLACK * size else None


def _rect(cell: dict[str, Any]) -> np.ndarray:
    x, y, w, h = cell["x"], cell["y"], cell["w"], cell["h"]
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)


def _map_fit(cells: dict[str, dict[str, Any]], read: dict[str, list[np.ndarray]],
             homography: np.ndarray | None) -> Callable[[np.ndarray], np.ndarray] | None:
    """Engine mm -> image px, from the cards read once each: a similarity in table mm, or in px without a homography."""
    pairs = [(_rect(cells[c]).mean(axis=0), quads[0].mean(axis=0)) for c, quads in read.items() if len(quads) == 1]
    if len(pairs) < 2:
        return None
    src = np.array([p[0] for p in pairs], np.float64)
    dst = np.array([p[1] for p in pairs], np.float64)
    inv = None
    if homography is not None:
        try:
            inv = np.linalg.inv(homography)
        except np.linalg.LinAlgError:
            homography = None
    if homography is not None:
        dst = to_table(homography, dst)
    width = 63.0 if homography is not None else float(np.median([np.linalg.norm(q[0][1] - q[0][0])
                                                                  for q in read.values()]))
    m, inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=FIT_SLACK * width)
    if m is None or inliers is None or int(inliers.sum()) < 2:
        return None
    scale = float(np.hypot(m[0, 0], m[1, 0]))
    if homography is not None and not SCALE_RANGE[0] <= scale <= SCALE_RANGE[1]:
        return None

    def place(mm: np.ndarray) -> np.ndarray:
        table = mm @ m[:, :2].T + m[:, 2]
        return to_table(inv, table) if inv is not None else table

    return place


def _read_corners(cell: dict[str, Any], quads: list[np.ndarray],
                  place: Callable[[np.ndarray], np.ndarray] | None) -> np.ndarray | None:
    """The read outline of this cell's card: the only one of its code, or the one where the fitted map puts it."""
    if not quads:
        return None
    if place is None:
        return quads[0] if len(quads) == 1 else None
    expected = place(_rect(cell))
    size = float(np.linalg.norm(expected[1] - expected[0]))
    best = min(quads, key=lambda q: float(np.linalg.norm(q.mean(axis=0) - expected.mean(axis=0))))
    return best if np.linalg.norm(best.mean(axis=0) - expected.mean(axis=0)) <= FIT_SLACK * size else None
