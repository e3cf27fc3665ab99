"""`companion bench GAME`: random legal games per second on one core (engines' playout speed)."""

from __future__ import annotations

import argparse
import importlib
import time
from collections.abc import Callable

from companion.cli import UsageError

# game -> "module:function" taking (games, seed) and returning the number of moves played.
BENCHMARKS: dict[str, str] = {
    "scoundrel": "engine.bench:scoundrel_games",
    "superheld": "engine.superheld.playout:superheld_games",
    "strijders": "engine.strijders.bench:strijders_games",
    "carcassonne": "engine.carcassonne.playout:bench_games",
}


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="play random legal games and print games per second")
    p.add_argument("game", help=f"one of: {', '.join(sorted(BENCHMARKS))}")
    p.add_argument("--games", type=int, default=20000, help="how many games to play (default 20000)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=run)


def load(game: str) -> Callable[[int, int], int]:
    target = BENCHMARKS.get(game)
    if target is None:
        raise UsageError(f"no benchmark for {game!r}; known: {', '.join(sorted(BENCHMARKS))}")
    module, _, func = target.partition(":")
    return getattr(importlib.import_module(module), func)


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    play = load(args.game)
    start = time.perf_counter()
    moves = play(args.games, args.seed)
    elapsed = time.perf_counter() - start
    print(f"{args.game}: {args.games} random games, {moves} moves in {elapsed:.3f} s on one core")
    print(f"{args.games / elapsed:,.0f} games/s, {moves / elapsed:,.0f} moves/s")
    return 0
