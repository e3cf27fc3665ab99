"""`companion tiles-eval [CONFIG.yaml]`: the Carcassonne board reader's accuracy on held-out synthetic boards."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion.cli import UsageError, add_camera_arguments

DEFAULT_CONFIG = Path(__file__).resolve().parents[2] / "datasets" / "tiles" / "heldout.yaml"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tiles-eval", help="measure tile letter+rotation and meeple accuracy on synthetic boards")
    p.add_argument("config", nargs="?", type=Path, default=DEFAULT_CONFIG,
                   help="an evaluation set (datasets/tiles/*.yaml; default: heldout.yaml)")
    p.add_argument("--boards", type=int, default=None, help="override the number of boards")
    add_camera_arguments(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def load_config(path: Path, boards: int | None):  # -> EvalConfig (imported lazily: OpenCV is slow to load)
    import yaml

    from vision.tiles.evaluate import EvalConfig

    try:
        config = EvalConfig.from_yaml(path, **({"boards": boards} if boards is not None else {}))
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        raise UsageError(f"{path} is not valid YAML: {exc}") from None
    except ValueError as exc:  # from_yaml names the file
        raise UsageError(str(exc)) from None
    if boards is not None and boards < 1:
        raise UsageError("--boards must be at least 1")
    return config


def degradation(args: argparse.Namespace):  # -> Degradation (imported lazily, as load_config's)
    from vision.tiles.evaluate import Degradation

    try:
        return Degradation(jpeg=args.jpeg, noise=args.noise, scale=args.scale, light=args.light)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    from vision.tiles.evaluate import evaluate

    how = degradation(args)
    result = evaluate(load_config(args.config, args.boards), how)
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
        return 0
    print(f"{result['set']}: {result['boards']} boards, {result['tiles']} tiles, {result['meeples']} meeples")
    if "degradation" in result:
        print("pictures degraded: " + ", ".join(f"{k} {v}" for k, v in result["degradation"].items()))
    print(f"tiles: letter+rotation {result['tile_accuracy']:.2%}, missed {result['tiles_missed']}, "
          f"extra {result['tiles_extra']}, hidden by hands {result['tiles_hidden_by_hands']}")
    print(f"meeples: colour+feature {result['meeple_accuracy']:.2%}, missed {result['meeples_missed']}, "
          f"extra {result['meeples_extra']}")
    print(f"per style: {', '.join(f'{k} {v:.2%}' for k, v in result['by_style'].items())}")
    print(f"median {result['median_ms']} ms per picture; top confusions: {', '.join(result['top_confusions'])}")
    return 0
