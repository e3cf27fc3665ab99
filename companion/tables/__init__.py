"""What the camera sees of each game's table, per game; games without one are played by hand on the dashboard."""

from __future__ import annotations

import importlib
from typing import Any

from engine.cards import CardError, parse_card
from vision.cards.labels import UNREAD  # a card the recogniser saw but could not name

__all__ = ["UNREAD", "TABLES", "read_code", "table_model"]


# game name -> "module:class" of its table model; data, not branches.
TABLES: dict[str, str] = {
    "scoundrel": "companion.tables.scoundrel:ScoundrelTable",
    "superheld": "companion.tables.superheld:SuperheldTable",
    "carcassonne": "companion.tables.carcassonne:CarcassonneTable",
    "strijders": "companion.tables.strijders:StrijdersTable",
}


def table_model(game: str, setup: dict[str, Any]) -> Any | None:
    """The table model for a new game, or None when the camera cannot referee this game yet."""
    target = TABLES.get(game)
    if target is None:
        return None
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)(setup)


def read_code(value: Any, where: str) -> str:
    """An observation's card as its code ('?' for an unread one); ValueError names where a bad code stands."""
    if value is None or value == UNREAD:
        return UNREAD
    try:
        return parse_card(value).code
    except CardError as exc:
        raise ValueError(f"{where}: {exc}") from None
