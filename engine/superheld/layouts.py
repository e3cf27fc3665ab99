"""Ready-made maps in grid form: winnable rows for examples and tests, random legal maps, practice grids.

A layout is a list of `(code, col, row)` in placement order, the shape of a record's `setup.map`.
"""

from __future__ import annotations

import random

from engine.cards import SUITS
from engine.superheld.deck import (
    FOREST_CARDS,
    LOWER_GHOSTS,
    MAP_CARDS,
    WARRIORS,
    code,
    is_forest_card,
    parse,
    shuffled,
    suit,
    value,
)
from engine.superheld.map import adjacency, grid_rect
from engine.superheld.state import COOP, JOURNEY, SOLO, START, Hero, State

Layout = list[tuple[str, int, int]]
_BY_VALUE = sorted(MAP_CARDS, key=lambda c: (value(c), suit(c)))


def _forest_first(cells: dict[tuple[int, int], int]) -> Layout:
    """Placement order for a map given by cell: the forest first, then every card touching an earlier one."""
    order: list[tuple[int, int]] = []
    placed: set[tuple[int, int]] = set()
    while len(order) < len(cells):
        forest_due = any(is_forest_card(c) for cell, c in cells.items() if cell not in placed)
        cell = min(cell for cell, c in cells.items() if cell not in placed and (is_forest_card(c) or not forest_due)
                   and (not placed or any(n in placed for n in _neighbours(cell))))
        placed.add(cell)
        order.append(cell)
    return [(code(cells[cell]), *cell) for cell in order]


def _neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    col, row = cell
    return [(col - 1, row), (col + 1, row), (col, row - 1), (col, row + 1)]


def row_layout() -> Layout:
    """All 48 cards in one row, 2S 2H 2D 2C 3S ... KC: taken left to right it is a whole journey (capital KC)."""
    return _forest_first({(col, 0): c for col, c in enumerate(_BY_VALUE)})


def strip_layout() -> Layout:
    """Two rows for two heroes: spades and hearts on top, diamonds and clubs below (capital KC, bottom right)."""
    top = [c for c in _BY_VALUE if SUITS[suit(c)] in "SH"]
    bottom = [c for c in _BY_VALUE if SUITS[suit(c)] in "DC"]
    cells = {(col, 0): c for col, c in enumerate(top)} | {(col, 1): c for col, c in enumerate(bottom)}
    return _forest_first(cells)


def random_layout(rng: random.Random) -> Layout:
    """A legal map as a player might lay it: the forest grown first, then each card touching a random earlier one."""
    cells: dict[tuple[int, int], int] = {}
    for cards in (sorted(FOREST_CARDS), sorted(MAP_CARDS - FOREST_CARDS)):
        cards = cards[:]
        rng.shuffle(cards)
        for c in cards:
            if not cells:
                cells[(0, 0)] = c
                continue
            spots = sorted(_open_spots(cells, forest_only=is_forest_card(c)))
            cells[spots[int(rng.random() * len(spots))]] = c
    return [(code(c), *cell) for cell, c in cells.items()]  # dicts keep the order the cards were laid


def _open_spots(cells: dict[tuple[int, int], int], forest_only: bool) -> set[tuple[int, int]]:
    near = [cell for cell, c in cells.items() if is_forest_card(c) or not forest_only]
    return {n for cell in near for n in _neighbours(cell) if n not in cells}


def practice_state(rows: list[str], capital: str, heroes_at: list[str] | None = None, seed: int = 0) -> State:
    """A journey on a small map drawn as text rows (`"2S 3S .."`, `..` an empty cell); face up, no 48-card rule.

    For tests and practice: the rules modules work on any map, only a record insists on all 48 cards.
    """
    cells = {(col, row): parse(text) for row, line in enumerate(rows) for col, text in enumerate(line.split())
             if text != ".."}
    rects = {c: grid_rect(*cell) for cell, c in cells.items()}
    rng = random.Random(seed)
    heroes = [Hero(at=parse(h)) for h in heroes_at or []] or [Hero()]
    return State(
        variant=SOLO if len(heroes) == 1 else COOP, seed=seed, rects=rects, order=tuple(rects),
        adj={c: frozenset(n) for c, n in adjacency(rects).items()}, capital=parse(capital),
        phase=JOURNEY if heroes_at else START, present=set(rects), heroes=heroes,
        lower_deck=shuffled(LOWER_GHOSTS, rng)[::-1], warrior_deck=shuffled(WARRIORS, rng)[::-1],
    )
