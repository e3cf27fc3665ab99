"""Which engine plays which game name. Engines load lazily so one game's import never slows another."""

from __future__ import annotations

import importlib

from engine.game import Game, RecordError

# game name -> "module:class"; data, not branches.
GAMES: dict[str, str] = {
    "scoundrel": "engine.scoundrel:Scoundrel",
    "superheld": "engine.superheld.game:Superheld",
    "carcassonne": "engine.carcassonne.game:Carcassonne",
    "strijders": "engine.strijders.game:Strijders",
}


def game_class(name: str) -> type[Game]:
    target = GAMES.get(name)
    if target is None:
        raise RecordError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}", "game")
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise RecordError(f"the {name!r} engine is not built yet", "game") from None
        raise
    return getattr(module, class_name)


def available_games() -> list[str]:
    """Names whose engine module imports (what the dashboard offers for a new game)."""
    names = []
    for name in GAMES:
        try:
            game_class(name)
        except RecordError:
            continue
        names.append(name)
    return names
