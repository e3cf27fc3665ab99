"""Random legal games, for the property tests and `companion bench superheld`.

The player is random but not suicidal: it prefers taking a henchman to wandering and skips a
move that would lose at once when another one exists, so journeys last long enough to matter.
"""

from __future__ import annotations

import random

from engine.game import PLAYING
from engine.superheld.deck import parse
from engine.superheld.layouts import Layout, random_layout, row_layout
from engine.superheld.legal import legal_moves
from engine.superheld.moves import Move, Start, Turn
from engine.superheld.read_setup import read_state
from engine.superheld.rules import simulate
from engine.superheld.state import JOURNEY, State

TAKE_PREFERENCE = 0.9
TRIES = 6
MAX_MOVES = 3000  # a battle of ties can go round and round; random games stop here


def setup_for(layout: Layout, capital: str, seed: int) -> dict[str, object]:
    return {"map": [list(entry) for entry in layout], "capital": capital, "seed": seed}


def winnable_start(seed: int) -> State:
    """The row map (see `layouts.row_layout`) with the hero on 2S: taking every card in turn wins the journey."""
    return simulate(read_state(random_setup(seed, winnable=True), {}), Start((parse("2S"),)))


def random_setup(seed: int, winnable: bool = False) -> dict[str, object]:
    """A full record setup: the winnable row (capital KC) or a random map with a random king as capital."""
    rng = random.Random(seed)
    if winnable:
        return setup_for(row_layout(), "KC", seed)
    return setup_for(random_layout(rng), rng.choice(["KS", "KH", "KD", "KC"]), seed)


def choose(s: State, rng: random.Random, take_preference: float = TAKE_PREFERENCE) -> Move | None:
    moves = legal_moves(s)
    if not moves:
        return None
    if s.phase == JOURNEY:
        takes = [m for m in moves if isinstance(m, Turn) and m.take]
        pool = takes if takes and rng.random() < take_preference else moves
        for _ in range(TRIES):
            move = pool[int(rng.random() * len(pool))]
            if simulate(s, move).result == PLAYING or len(moves) == 1:
                return move
    return moves[int(rng.random() * len(moves))]


def play(s: State, rng: random.Random, limit: int = MAX_MOVES,
         take_preference: float = TAKE_PREFERENCE) -> tuple[State, list[Move]]:
    """Random legal moves from `s` until the game ends (or `limit` moves); returns the last state and the moves."""
    played: list[Move] = []
    while s.result == PLAYING and len(played) < limit:
        move = choose(s, rng, take_preference)
        if move is None:
            break
        s = simulate(s, move)
        played.append(move)
    return s, played


def superheld_games(games: int, seed: int) -> int:
    """The benchmark: `games` random games (half on random maps, half on the winnable row); moves played."""
    rng = random.Random(seed)
    total = 0
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        if i % 2:
            total += 1 + len(play(winnable_start(game_seed), rng, take_preference=1.0)[1])
        else:
            total += len(play(read_state(random_setup(game_seed), {}), rng)[1])
    return total
