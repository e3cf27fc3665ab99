"""What every game engine offers: python-chess's push/pop and legal moves, OpenSpiel's history.

A game is its setup plus its list of moves. `push` checks a move first and refuses an illegal
one with an `IllegalMove` that names the rule, so a bad move never touches the state; `pop`
restores the snapshot taken before the last push, so undo is exact.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass
from typing import Any, ClassVar

PLAYING, WON, LOST, FINISHED = "playing", "won", "lost", "finished"


class RecordError(ValueError):
    """A record that cannot be read: bad JSON, unknown game, bad card, unparsable move."""

    def __init__(self, message: str, where: str = "") -> None:
        self.where = where
        super().__init__(f"{where}: {message}" if where else message)


class IllegalMove(Exception):  # noqa: N818 - python-chess names it so
    """A well-formed move that the rules forbid in the current state."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")


@dataclass(frozen=True, slots=True)
class Violation:
    move: int
    rule: str
    message: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class Game(ABC):
    """Base of every engine. Subclasses validate setup/options in `__init__` (raising RecordError)."""

    name: ClassVar[str]

    def __init__(self, setup: dict[str, Any], options: dict[str, Any]) -> None:
        self.setup = setup
        self.options = options
        self._stack: list[tuple[Any, Any]] = []

    # -- moves --------------------------------------------------------------------------------
    @abstractmethod
    def parse_move(self, raw: Any) -> Any:
        """Turn a record's move into the engine's move; raise ValueError naming what is wrong."""

    @abstractmethod
    def format_move(self, move: Any) -> Any:
        """The record form of a move (inverse of parse_move)."""

    @abstractmethod
    def legal_moves(self) -> list[Any]:
        """Every move the rules allow now (empty when the game is over)."""

    @abstractmethod
    def check(self, move: Any) -> IllegalMove | None:
        """Why `move` is illegal now, or None when it is legal."""

    @abstractmethod
    def _apply(self, move: Any) -> None:
        """Apply a move already known to be legal."""

    @abstractmethod
    def _snapshot(self) -> Any:
        """A copy of the mutable state, enough for `_restore`."""

    @abstractmethod
    def _restore(self, snapshot: Any) -> None: ...

    def push(self, move: Any) -> None:
        problem = self.check(move)
        if problem is not None:
            raise problem
        self._stack.append((move, self._snapshot()))
        self._apply(move)

    def pop(self) -> Any:
        if not self._stack:
            raise IndexError("no move to undo")
        move, snapshot = self._stack.pop()
        self._restore(snapshot)
        return move

    @property
    def move_stack(self) -> list[Any]:
        return [move for move, _ in self._stack]

    # -- outcome ------------------------------------------------------------------------------
    @property
    @abstractmethod
    def status(self) -> str:
        """`playing`, `won`, `lost` (solo) or `finished` (several players)."""

    @property
    @abstractmethod
    def score(self) -> int | float | None:
        """The final score, None while playing."""

    @abstractmethod
    def state(self) -> dict[str, Any]:
        """The game's own fields for the replay output, JSON-ready."""

    def warnings(self) -> list[str]:
        """Advice for the player that is no violation (overridden by games that have some)."""
        return []
