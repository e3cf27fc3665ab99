"""A game being refereed: the record's moves applied one by one, illegal ones kept as violations.

Both `companion replay` and the live companion go through this class, so a record replays to
exactly the state the table saw.
"""

from __future__ import annotations

from typing import Any

from engine.game import PLAYING, Game, IllegalMove, RecordError, Violation
from engine.record import Record
from engine.registry import game_class


class Match:
    def __init__(self, record: Record) -> None:
        cls = game_class(record.game)
        self.record = Record(record.game, dict(record.options), dict(record.setup), [])
        self.game: Game = cls(record.setup, record.options)
        self.violations: list[Violation] = []
        # one entry per record move: True when it was applied to the game
        self._applied: list[bool] = []

    @classmethod
    def replay(cls, record: Record) -> Match:
        """Parse every move first (a malformed record fails before any output), then play them."""
        match = cls(record)
        parsed = [match.parse(raw, i) for i, raw in enumerate(record.moves)]
        for raw, move in zip(record.moves, parsed, strict=True):
            match._play_parsed(raw, move)
        return match

    def parse(self, raw: Any, index: int) -> Any:
        try:
            return self.game.parse_move(raw)
        except (ValueError, TypeError, KeyError) as exc:
            raise RecordError(f"cannot parse {raw!r}: {exc}", f"moves[{index}]") from None

    def play(self, raw: Any) -> Violation | None:
        """Referee one move in record form; a violation is recorded, never applied."""
        return self._play_parsed(raw, self.parse(raw, len(self.record.moves)))

    def _play_parsed(self, raw: Any, move: Any) -> Violation | None:
        index = len(self.record.moves)
        self.record.moves.append(raw)
        problem: IllegalMove | None
        if self.game.status != PLAYING:
            problem = IllegalMove("game-over", f"the game is already {self.game.status}")
        else:
            problem = self.game.check(move)
        if problem is None:
            self.game.push(move)
            self._applied.append(True)
            return None
        violation = Violation(index, problem.rule, problem.message)
        self.violations.append(violation)
        self._applied.append(False)
        return violation

    def undo(self) -> Any:
        """Take back the last record move, legal or not; returns its record form."""
        if not self.record.moves:
            raise IndexError("no move to undo")
        raw = self.record.moves.pop()
        if self._applied.pop():
            self.game.pop()
        else:
            self.violations.pop()
        return raw

    def legal_moves(self) -> list[Any]:
        return [self.game.format_move(m) for m in self.game.legal_moves()] if self.game.status == PLAYING else []

    def to_json(self) -> dict[str, Any]:
        game = self.game
        out: dict[str, Any] = {
            "game": self.record.game,
            "status": game.status,
            "score": game.score,
            "violations": [v.to_json() for v in self.violations],
        }
        out.update(game.state())
        out.setdefault("warnings", game.warnings())
        return out
