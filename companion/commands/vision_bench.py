"""`companion vision-bench`: per-stage and total times of the card recogniser on the standard 56-card scene."""

from __future__ import annotations

import argparse
import json

from companion.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("vision-bench", help="time the card recogniser on a 1280x720 scene with 56 cards")
    p.add_argument("--runs", type=int, default=10, help="timed runs per stage (median is printed)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.runs < 1:
        raise UsageError("--runs must be at least 1")
    from vision.bench import run_benchmark

    try:
        result = run_benchmark(args.runs)
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(json.dumps(result))
        return 0
    w, h = result["image"]
    print(f"{w}x{h} scene, {result['cards_in_scene']} cards, {result['cards_found']} found; "
          f"median of {result['runs']} runs")
    for stage, ms in result["ms"].items():
        note = " (lone cards only: skipped in this map)" if stage == "classical_outlines" and result["map"] else ""
        print(f"  {stage:<20} {ms:8.1f} ms{note}")
    return 0
