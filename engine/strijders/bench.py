"""Random legal advanced Strijders games for `companion bench strijders`, on a built-in synthetic catalog.

The engine reads no files, so the benchmark catalog is made here: one card per effect below, with
scores, rarities and types spread over the catalog's range.
"""

from __future__ import annotations

import random
from typing import Any

from engine.strijders.catalog import RARITY_POINTS, TYPES
from engine.strijders.game import Strijders

EFFECTS: tuple[str, ...] = (
    "none", "self +2", "opponent -2", "set self 6", "copy opponent", "swap", "draw self 1",
    "discard opponent 1", "look opponent 3", "mimic", "self +1; opponent -1", "manual",
)


def bench_catalog() -> dict[str, Any]:
    rarities, types = list(RARITY_POINTS), list(TYPES)
    cards = [{"id": f"k{i}", "name": f"Strijder {i}", "score": 1 + i % 10, "rarity": rarities[i % len(rarities)],
              "type": types[i % len(types)], "effect": effect} for i, effect in enumerate(EFFECTS * 2)]
    return {"cards": cards}


def strijders_games(games: int, seed: int) -> int:
    """Play `games` advanced games with uniformly random legal moves; return how many moves were played."""
    catalog = bench_catalog()
    rng = random.Random(seed)
    moves = 0
    for i in range(games):
        game = Strijders({"catalog": catalog, "seed": seed * 1_000_003 + i}, {"variant": "advanced"})
        legal, apply = game.legal_moves, game._apply
        while options := legal():
            apply(options[int(rng.random() * len(options))])
            moves += 1
    return moves
