"""Reads a Strijders catalog file named in a record's setup, since the engine never reads files.

`companion replay` calls `resolve_catalog(record, base)` before `Match.replay`: a `setup.catalog`
that is a path (`"catalog.json"`, `"cards.csv"`) is replaced by the file's content, a JSON object
or `{"csv": text}`. A relative path is taken from the record's own folder.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.game import RecordError
from engine.record import Record

WHERE = "setup.catalog"


def resolve_catalog(record: Record, base: Path) -> Record:
    """The record with its catalog path replaced by the file's content (other records unchanged)."""
    name = record.setup.get("catalog")
    if record.game != "strijders" or not isinstance(name, str):
        return record
    data = load_catalog_file(base / name)
    return Record(record.game, record.options, {**record.setup, "catalog": data}, record.moves)


def load_catalog_file(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read catalog {str(path)!r}: {exc.strerror or exc}", WHERE) from None
    except UnicodeDecodeError:
        raise RecordError(f"catalog {str(path)!r} is not UTF-8 text", WHERE) from None
    if path.suffix.lower() == ".csv":
        return {"csv": text}
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"catalog {str(path)!r} is not valid JSON ({exc})", WHERE) from None


def record_base(file_name: str) -> Path:
    """The folder a record's relative catalog path starts from ('-', standard input: the current one)."""
    return Path.cwd() if file_name == "-" else Path(file_name).resolve().parent
