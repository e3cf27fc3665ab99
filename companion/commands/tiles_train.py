"""`companion tiles-train`: trains the meeple verifier (models/tiles-meeples.onnx) on synthetic boards."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion.cli import UsageError

DEFAULT_OUT = Path(__file__).resolve().parents[2] / "models" / "tiles-meeples.onnx"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tiles-train", help="train the Carcassonne meeple verifier on synthetic boards (CPU, minutes)")
    p.add_argument("--boards", type=int, default=1200, help="training boards (default 1200)")
    p.add_argument("--check", type=int, default=60, help="boards kept apart to check the net (default 60)")
    p.add_argument("--seed", type=int, default=5000, help="first training seed (check boards start at 9000)")
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.boards < 1 or args.check < 1 or args.epochs < 1:
        raise UsageError("--boards, --check and --epochs must be at least 1")
    if args.seed + args.boards > 9000 or args.seed < 1000:
        raise UsageError("training seeds must lie in 1000..8999 (tuning and evaluation seeds stay unseen)")
    from vision.tiles.train_verifier import run as train

    result = train(range(args.seed, args.seed + args.boards), range(9000, 9000 + args.check), args.out, args.epochs)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"trained on {result['train_candidates']} candidates ({result['train_meeples']} meeples) in "
          f"{result['collect_s']} s + {result['train_s']} s; check boards: {result['check_meeples']} meeples, "
          f"{result['check_missed']} missed, {result['check_false']} false of {result['check_candidates']} candidates")
    print(f"wrote {args.out}")
    return 0
