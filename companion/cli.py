"""The `companion` command line. Sub-commands live in `companion.commands`, one module each."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from typing import Any

import companion.commands as commands_pkg


class UsageError(Exception):
    """Bad input named for the user: printed on stderr, exit status 2, nothing on stdout."""


# Python packages some commands need beyond the runtime (pyproject.toml's extras), by the module name an import of
# them fails with: the benchmarks and evaluations draw synthetic scenes (Pillow) from data-set configs (PyYAML),
# training needs torch. A runtime install (`pip install -e .`) gets a message naming the extra, not a traceback.
EXTRAS = {
    "yaml": ("pyyaml", "test"),
    "PIL": ("pillow", "test"),
    "onnx": ("onnx", "test"),
    "cairosvg": ("cairosvg", "train"),
    "torch": ("torch", "train"),
    "torchvision": ("torchvision", "train"),
    "ultralytics": ("ultralytics", "train"),
}


CAMERA_AS_IS: dict[str, Any] = {"jpeg": None, "noise": 0.0, "scale": 1.0, "light": 1.0}  # no worse camera


def add_camera_arguments(p: argparse.ArgumentParser, what: str = "picture") -> None:
    """--jpeg, --noise, --scale and --light: what a worse camera does to each `what` read (`vision.degrade`); their
    defaults are CAMERA_AS_IS."""
    p.add_argument("--jpeg", type=int, default=CAMERA_AS_IS["jpeg"], metavar="Q",
                   help=f"read each {what} saved again as a JPEG of this quality, 10-100 (a webcam's MJPEG stream)")
    p.add_argument("--noise", type=float, default=CAMERA_AS_IS["noise"], metavar="SD",
                   help=f"read each {what} with sensor noise of this many grey levels, 0-50 (a dim room)")
    p.add_argument("--scale", type=float, default=CAMERA_AS_IS["scale"],
                   help=f"read each {what} resized by this factor, 0.25-2 (a camera further off or nearer)")
    p.add_argument("--light", type=float, default=CAMERA_AS_IS["light"],
                   help=f"read each {what} with its light multiplied by this factor, 0.3-2 (a dimmer room)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Table Companion: referees the card game on your table."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands_pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{commands_pkg.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except UsageError as exc:
        print(f"companion {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as exc:
        package, extra = EXTRAS.get((exc.name or "").partition(".")[0], (None, None))
        if package is None:
            raise
        print(f"companion {args.command}: error: this command needs the Python package {package}, which the "
              f"'{extra}' extra installs: pip install -e '.[{extra}]'", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
