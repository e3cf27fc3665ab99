"""`companion tiles-bench`: how fast a 72-tile Carcassonne board at 1280x720 is read (median ms)."""

from __future__ import annotations

import argparse
import json

from companion.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tiles-bench", help="time the Carcassonne board reader on a 72-tile board at 1280x720")
    p.add_argument("--runs", type=int, default=20, help="pictures to read (default 20)")
    p.add_argument("--tiles", type=int, default=72, help="tiles on the board (default 72)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.runs < 1:
        raise UsageError("--runs must be at least 1")
    if not 1 <= args.tiles <= 72:
        raise UsageError("--tiles must be between 1 and 72")
    from vision.tiles.bench import bench

    result = bench(runs=args.runs, tiles=args.tiles, seed=args.seed)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{result['runs']} pictures of {result['image'][0]}x{result['image'][1]}, boards of "
          f"{result['tiles_on_board']} tiles: median {result['median_ms']} ms, p90 {result['p90_ms']} ms, "
          f"min {result['min_ms']} ms; CPU median {result['median_cpu_ms']} ms")
    return 0
