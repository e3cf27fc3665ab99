"""A game's live state as the fold of its stored events: the same code runs live and on `--resume`."""

from __future__ import annotations

from typing import Any

from companion.live_game import LiveGame
from companion.store import Event


class TableState:
    """Everything the companion knows of one game: the match, what lies in the room, what awaits the player."""

    def __init__(self) -> None:
        self.game_id: int | None = None
        self.live: LiveGame | None = None
        self.confirmed: frozenset[str] = frozenset()
        self.pending: dict[str, Any] | None = None  # a misread or ambiguity the player must settle
        self.violation_view: dict[str, Any] | None = None  # the table as the violation left it
        self.last_pos: int | None = None
        self.play_area: list[list[float]] | None = None  # four corners, as fractions of the image
        self.auto_calibration: dict[str, Any] | None = None  # the homography measured from the cards (calibration)

    @classmethod
    def from_events(cls, events: list[Event]) -> TableState:
        state = cls()
        for event in events:
            state.apply(event)
        return state

    def apply(self, event: Event) -> None:
        handler = _HANDLERS.get(event.kind)
        if handler is not None:
            handler(self, event.data)
        self.game_id = event.game_id if event.game_id is not None else self.game_id
        if event.pos is not None:
            self.last_pos = event.pos


def _new_game(state: TableState, data: dict[str, Any]) -> None:
    state.live = LiveGame(data["game"], data["options"], data["setup"])
    state.confirmed, state.pending, state.violation_view = frozenset(), None, None


def _reveal(state: TableState, data: dict[str, Any]) -> None:
    assert state.live is not None
    state.live.reveal([(data["card"], data["slot"])])


def _move(state: TableState, data: dict[str, Any]) -> None:
    assert state.live is not None
    state.live.play(data["move"])


def _undo(state: TableState, data: dict[str, Any]) -> None:
    assert state.live is not None
    state.live.undo()


def _table(state: TableState, data: dict[str, Any]) -> None:
    state.confirmed = frozenset(data["room"])
    state.violation_view = data.get("violation_view")


def _pending(state: TableState, data: dict[str, Any]) -> None:
    state.pending = data


def _calibration(state: TableState, data: dict[str, Any]) -> None:
    """Source "auto": a homography from the cards; otherwise the player's play area (None clears it)."""
    if data.get("source") == "auto":
        state.auto_calibration = data
    else:
        state.play_area = data.get("corners")


def _resolve(state: TableState, data: dict[str, Any]) -> None:
    state.pending = None


# event kind -> how it changes the state; kinds not listed (correction, note, source) are only logged.
_HANDLERS = {
    "new_game": _new_game,
    "reveal": _reveal,
    "move": _move,
    "undo": _undo,
    "table": _table,
    "pending": _pending,
    "resolve": _resolve,
    "calibration": _calibration,
}
