"""Card layouts as the games lay them, in table millimetres (bottom card first).

- Superheld: a map of touching portrait cards on a grid (any edge-connected shape), 5s and 6s face down.
- Scoundrel: dungeon pile left, room row, weapon with monsters fanned down over it, discard pile right.
- Loose: scattered cards, neat piles (only the top card shows) and hand fans (index corners only).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from engine.cards import full_deck
from vision.synth.cards import CARD_H_MM, CARD_W_MM, JOKER
from vision.synth.scene import Placement

DECK: tuple[str, ...] = tuple(c.code for c in full_deck())
SCOUNDREL_DECK: tuple[str, ...] = tuple(c for c in DECK if not (c[-1] in "HD" and c[:-1] in ("J", "Q", "K", "A")))
Layout = tuple[list[Placement], dict]


def _shape(rng: np.random.Generator, n: int) -> list[tuple[int, int]]:
    """An edge-connected set of `n` grid cells grown at random from (0, 0)."""
    cells = [(0, 0)]
    taken = {(0, 0)}
    while len(cells) < n:
        cx, cy = cells[int(rng.integers(len(cells)))]
        dx, dy = ((1, 0), (-1, 0), (0, 1), (0, -1))[int(rng.integers(4))]
        cell = (cx + dx, cy + dy)
        if cell not in taken and abs(cell[0]) <= 5 and abs(cell[1]) <= 4:
            taken.add(cell)
            cells.append(cell)
    return cells


def superheld_map(rng: np.random.Generator, n: int | None = None, style: int = 0, compact: bool = False) -> Layout:
    """A Superheld map: `n` touching cards (48 by default), the 5s and 6s face down as the forest."""
    n = n if n is not None else int(rng.integers(12, 57))
    if compact:
        cols = int(np.ceil(np.sqrt(n * 1.3)))
        cells = [(i % cols, i // cols) for i in range(n)]
    else:
        cells = _shape(rng, n)
    gap = rng.uniform(0.0, 1.5)
    codes = list(rng.permutation(DECK if n <= len(DECK) else DECK + DECK))[:n]  # big maps take two decks
    design = int(rng.integers(2))
    placements = []
    for (cx, cy), code in zip(cells, codes, strict=False):
        jitter = rng.normal(0, 0.6, 2)
        centre = (cx * (CARD_W_MM + gap) + jitter[0], cy * (CARD_H_MM + gap) + jitter[1])
        angle = float(rng.normal(0, 1.0)) + (180.0 if rng.random() < 0.5 else 0.0)
        face_down = code[:-1] in ("5", "6")
        placements.append(Placement(None if face_down else code, centre, angle, style, design, "map"))
    edges = sorted({(i, j) for i, a in enumerate(cells) for j, b in enumerate(cells)
                    if i < j and abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1})
    return placements, {"game": "superheld", "cells": cells, "edges": edges}


def _pile(rng: np.random.Generator, centre: tuple[float, float], count: int, design: int, zone: str,
          style: int) -> list[Placement]:
    return [Placement(None, (centre[0] + rng.normal(0, 1.0), centre[1] + rng.normal(0, 1.0)),
                      float(rng.normal(0, 2.5)), style, design, zone) for _ in range(count)]


def scoundrel_table(rng: np.random.Generator, style: int = 0) -> Layout:
    """Dungeon pile, room row of up to 4, weapon (diamond) with fanned monsters, discard pile."""
    deck = list(rng.permutation(SCOUNDREL_DECK))
    design = int(rng.integers(2))
    step = CARD_W_MM + rng.uniform(8, 25)
    placements: list[Placement] = []
    has_dungeon = rng.random() < 0.9
    if has_dungeon:
        placements += _pile(rng, (0.0, 0.0), int(rng.integers(1, 6)), design, "dungeon", style)
    room = [deck.pop() for _ in range(int(rng.integers(0, 5)))]
    for k, code in enumerate(room):
        placements.append(Placement(code, ((k + 1) * step + rng.normal(0, 2), rng.normal(0, 2)),
                                    float(rng.normal(0, 3)), style, design, "room"))
    weapons = [c for c in deck if c[-1] == "D" and c[:-1] not in ("A", "J", "Q", "K")]
    weapon = weapons[0] if weapons and rng.random() < 0.8 else None
    monsters: list[str] = []
    if weapon is not None:
        deck.remove(weapon)
        wx, wy = step * rng.uniform(1.0, 2.5), CARD_H_MM + rng.uniform(15, 35)
        angle = float(rng.normal(0, 3))
        placements.append(Placement(weapon, (wx, wy), angle, style, design, "weapon"))
        pool = [c for c in deck if c[-1] in "SC"]
        monsters = pool[:int(rng.integers(0, 5))]
        offset = rng.uniform(20, 27)
        for k, code in enumerate(monsters):
            a = np.radians(angle)
            dy, dx = offset * (k + 1), rng.uniform(0, 3) * (k + 1)
            centre = (wx + dx * np.cos(a) - dy * np.sin(a), wy + dx * np.sin(a) + dy * np.cos(a))
            placements.append(Placement(code, centre, angle + float(rng.normal(0, 2)), style, design,
                                        "weapon_monsters"))
    has_discard = rng.random() < 0.7
    if has_discard:
        placements += _pile(rng, ((len(room) + 1 + rng.uniform(0.3, 1.0)) * step, rng.normal(0, 3)),
                            int(rng.integers(1, 5)), design, "discard", style)
    zones = {"room": room, "weapon": weapon, "weapon_monsters": monsters,
             "dungeon": has_dungeon, "discard": has_discard}
    return placements, {"game": "scoundrel", "zones": zones}


def _fan(rng: np.random.Generator, centre: tuple[float, float], codes: list[str], style: int) -> list[Placement]:
    """Cards rotated about a pivot below them, as held or spread, each index corner showing."""
    base = rng.uniform(0, 360)
    step = rng.uniform(8, 16) * (1 if rng.random() < 0.5 else -1)
    radius = rng.uniform(50, 90)
    out = []
    for k, code in enumerate(codes):
        ang = base + step * (k - len(codes) / 2)
        a = np.radians(ang)
        c = (centre[0] + radius * np.sin(a), centre[1] - radius * np.cos(a))
        out.append(Placement(code, c, float(ang), style, 0, "fan"))
    if step < 0:  # keep the index corners of lower cards uncovered: lay from the other side first
        out.reverse()
    return out


def loose_cards(rng: np.random.Generator, style: int = 0) -> Layout:
    """Scattered cards, a neat pile or two, a fan; jokers and backs mixed in."""
    deck = list(rng.permutation(DECK))
    placements: list[Placement] = []
    groups = int(rng.integers(2, 6))
    for g in range(groups):
        centre = (float(g % 3) * 120 + rng.normal(0, 15), float(g // 3) * 150 + rng.normal(0, 15))
        kind = rng.random()
        if kind < 0.4 and len(deck) > 8:
            placements += _fan(rng, centre, [deck.pop() for _ in range(int(rng.integers(2, 7)))], style)
        elif kind < 0.6:
            under = [Placement(deck.pop(), (centre[0] + rng.normal(0, 1.2), centre[1] + rng.normal(0, 1.2)),
                               float(rng.uniform(0, 360)), style, 0, "pile") for _ in range(int(rng.integers(1, 3)))]
            placements += under
            top = under[-1]
            placements.append(Placement(deck.pop(), (top.centre[0] + rng.normal(0, 1.5),
                                                     top.centre[1] + rng.normal(0, 1.5)),
                                        top.angle + float(rng.normal(0, 4)), style, 0, "pile"))
        elif kind < 0.75:
            placements += _pile(rng, centre, int(rng.integers(1, 4)), int(rng.integers(4)), "pile", style)
        else:
            code = JOKER if rng.random() < 0.15 else deck.pop()
            placements.append(Placement(code, centre, float(rng.uniform(0, 360)), style, 0, "loose"))
    return placements, {"game": "loose"}


LAYOUTS: dict[str, Callable[..., Layout]] = {
    "superheld": superheld_map,
    "scoundrel": scoundrel_table,
    "loose": loose_cards,
}
