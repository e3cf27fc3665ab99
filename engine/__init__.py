"""The rules of the games, pure Python: states, legal moves, apply/undo, violations, scores."""

from engine.game import Game, IllegalMove, RecordError, Violation
from engine.match import Match
from engine.record import Record, load_record

__all__ = ["Game", "IllegalMove", "Match", "Record", "RecordError", "Violation", "load_record"]
