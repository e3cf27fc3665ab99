"""What the companion says aloud and writes in the event log; the phrases are data."""

from __future__ import annotations

from typing import Any

from companion.store import Event

# rule id -> the short spoken form ("violation: that weapon is blunted").
RULE_PHRASES: dict[str, str] = {
    "weapon-blunted": "that weapon is blunted",
    "no-weapon": "there is no weapon to fight with",
    "run-after-facing": "you cannot run after facing a card",
    "run-twice": "you cannot run from two rooms in a row",
    "run-empty-dungeon": "the dungeon is empty, face the last room",
    "not-in-room": "that card is not in the room",
    "wrong-action": "that card cannot be used that way",
    "game-over": "the game is over",
}

# game -> state fields read out after every move ("life 14").
SPOKEN_FIELDS: dict[str, tuple[str, ...]] = {
    "scoundrel": ("life",),
    "superheld": ("coins",),
    "carcassonne": ("scores",),
    "strijders": ("points",),
}


def violation_phrase(rule: str, message: str) -> str:
    return f"violation: {RULE_PHRASES.get(rule, message)}"


def after_move(game: str, state: dict[str, Any], raw: Any, violation: dict[str, Any] | None) -> str:
    if violation is not None:
        return violation_phrase(violation["rule"], violation["message"])
    parts = [str(raw)]
    parts += [f"{name} {_spoken(state[name])}" for name in SPOKEN_FIELDS.get(game, ()) if name in state]
    if state.get("status") in ("won", "lost", "finished"):
        parts.append(f"game {state['status']}, score {state.get('score')}")
    return ", ".join(parts)


def _spoken(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if isinstance(value, list):
        return " ".join(map(str, value))
    return str(value)


def log_line(event: Event, violation: dict[str, Any] | None = None) -> str | None:
    """One line of the dashboard's event log; None for bookkeeping events nobody needs to read."""
    d = event.data
    texts = {
        "new_game": lambda: f"new game: {d.get('game')}",
        "reveal": lambda: f"seen {d.get('card')}",
        "move": lambda: f"{d.get('move')} ({d.get('origin')})"
        + (f" — {violation_phrase(violation['rule'], violation['message'])}" if violation else ""),
        "undo": lambda: f"undo: {d.get('move')}",
        "pending": lambda: f"{'probable misread' if d.get('kind') == 'misread' else 'ambiguous'}: {d.get('message')}",
        "resolve": lambda: f"settled ({d.get('how')})",
        "correction": lambda: f"corrected {d.get('zone')}[{d.get('index')}] to {d.get('code')}",
        "source": lambda: f"camera {d.get('state')}" + (f": {d['message']}" if d.get("message") else ""),
        "note": lambda: str(d.get("text")),
        "calibration": lambda: (f"calibrated from {d.get('cards')} card(s)" if d.get("source") == "auto"
                                else "play area set" if d.get("corners") else "play area cleared"),
    }
    make = texts.get(event.kind)
    return make() if make else None
