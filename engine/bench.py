"""Random legal games for the benchmark command; each returns how many moves it played."""

from __future__ import annotations

import random

from engine.scoundrel import Scoundrel, playout


def scoundrel_games(games: int, seed: int) -> int:
    rng = random.Random(seed)
    moves = 0
    for i in range(games):
        game = Scoundrel({"seed": seed * 1_000_003 + i}, {})
        moves += playout(game, rng)
    return moves
