"""Random legal solo games, for the property tests and `companion bench carcassonne`.

A random turn takes a uniformly random placement, then a random free feature for the meeple, and
goes through the same planning and committing as a recorded move, without the record boundary.
"""

from __future__ import annotations

import random
import time

from engine.carcassonne.board import oriented
from engine.carcassonne.game import Carcassonne, Turn

BOARD_TILES = 71  # the placement benchmark's board: the start tile and 70 more


def random_turn(game: Carcassonne, rng: random.Random) -> None:
    letter = game.tile
    assert letter is not None, "the game is over"
    pos, rotation = rng.choice(game.board.placements(letter))
    plan = game.graph.plan(pos, oriented(letter, rotation))
    free = plan.free_parts()
    part = rng.choice(free) if free and game.supply[game.colour] else None
    game._play(Turn(plan, part, bool(free), game._pending(plan, part), [], []))


def playout(game: Carcassonne, rng: random.Random) -> int:
    """Play random turns to the end; returns how many tiles were laid."""
    turns = 0
    while game.end is None:
        random_turn(game, rng)
        turns += 1
    return turns


def full_board(seed: int) -> Carcassonne:
    """A random game stopped when BOARD_TILES tiles lie (or at its end, if that comes first)."""
    rng = random.Random(seed)
    game = Carcassonne({"seed": seed}, {"meeples": 20})
    while game.end is None and len(game.board.tiles) < BOARD_TILES:
        random_turn(game, rng)
    return game


def placement_calls(calls: int, seed: int) -> float:
    """Seconds per call of `Board.placements` on a 71-tile board, every letter in turn."""
    game = full_board(seed)
    letters = sorted({t for stack in game.initial_stacks for t in stack})
    start = time.perf_counter()
    for i in range(calls):
        game.board.placements(letters[i % len(letters)])
    return (time.perf_counter() - start) / calls


def full_games(games: int, seed: int) -> float:
    """Seconds per random game with meeples enough (20) that it nearly always lays every tile."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(games):
        playout(Carcassonne({"seed": seed + i}, {"meeples": 20}), rng)
    return (time.perf_counter() - start) / games


def bench_games(games: int, seed: int) -> int:
    """`companion bench carcassonne`: random solo games; also prints the placement figure."""
    rng = random.Random(seed)
    start = time.perf_counter()
    tiles = 0
    for i in range(games):
        tiles += playout(Carcassonne({"seed": seed * 1_000_003 + i}, {}), rng)
    per_game = (time.perf_counter() - start) / games
    per_full_game = full_games(max(10, games // 10), seed)
    per_call = placement_calls(max(1000, games * 10), seed)
    print(f"carcassonne: {per_game * 1e3:.2f} ms per random solo game, 4 meeples (target < 20 ms)")
    print(f"carcassonne: {per_full_game * 1e3:.2f} ms per random game laying all 71 tiles (20 meeples)")
    print(f"carcassonne: {per_call * 1e6:.1f} µs per legal-placements call on a 71-tile board (target < 1 ms)")
    return tiles
