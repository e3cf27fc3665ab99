"""One game at the table: the engine's Match, and the table model where the camera can referee the game."""

from __future__ import annotations

from typing import Any

from companion.tables import table_model
from engine.game import RecordError, Violation
from engine.match import Match
from engine.record import Record


class LiveGame:
    """A Match whose setup may still be learnt from the table (a hidden dungeon order)."""

    def __init__(self, game: str, options: dict[str, Any], setup: dict[str, Any]) -> None:
        if not isinstance(options, dict):
            raise RecordError("must be a JSON object", "options")
        if not isinstance(setup, dict):
            raise RecordError("must be a JSON object", "setup")
        self.name = game
        self.options = dict(options)
        self.setup = dict(setup)
        self.table = table_model(game, setup)
        self.match = Match(Record(game, dict(options), self._record_setup(), []))

    def _record_setup(self) -> dict[str, Any]:
        return self.table.record_setup() if self.table is not None else dict(self.setup)

    def play(self, raw: Any) -> Violation | None:
        return self.match.play(raw)

    def undo(self) -> Any:
        return self.match.undo()

    def reveal(self, pairs: list[tuple[str, str]]) -> None:
        """Cards seen for the first time take their places; the game is replayed on the new order."""
        if not pairs:
            return
        assert self.table is not None
        for card, slot in pairs:
            self.table.reveal(card, slot)
        self.match = Match.replay(self.record())

    def record(self) -> Record:
        rec = self.match.record
        return Record(rec.game, dict(rec.options), self._record_setup(), list(rec.moves))

    def to_json(self) -> dict[str, Any]:
        return self.match.to_json()
