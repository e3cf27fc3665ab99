"""`companion replay FILE`: a record through its engine, the resulting state as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion.cli import UsageError
from companion.strijders_catalog import record_base, resolve_catalog
from engine import Match, RecordError, load_record


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay a game record and print the resulting state as JSON")
    p.add_argument("file", help="the record (JSON); '-' reads standard input")
    p.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")
    p.set_defaults(run=run)


def read_input(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {name}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{name} is not UTF-8 text") from None


def run(args: argparse.Namespace) -> int:
    text = read_input(args.file)
    try:
        match = Match.replay(resolve_catalog(load_record(text), record_base(args.file)))
    except RecordError as exc:
        raise UsageError(f"{args.file}: {exc}") from None
    print(json.dumps(match.to_json(), ensure_ascii=False, indent=args.indent))
    return 0
