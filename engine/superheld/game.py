"""`Superheld`: the engine the registry names; it glues the rule modules to the Game interface."""

from __future__ import annotations

from typing import Any

from engine.game import PLAYING, Game, IllegalMove
from engine.superheld import foresight, legal, moves, rules
from engine.superheld.battle import final_score
from engine.superheld.read_setup import read_state
from engine.superheld.state import State
from engine.superheld.view import state_json


class Superheld(Game):
    name = "superheld"

    def __init__(self, setup: dict[str, Any], options: dict[str, Any]) -> None:
        super().__init__(setup, options)
        self.s: State = read_state(setup, options)
        # the state a successful `check` computed, reused by the `_apply` that usually follows it
        self._checked: tuple[State, moves.Move, State] | None = None

    def parse_move(self, raw: Any) -> moves.Move:
        return moves.parse_move(raw)

    def format_move(self, move: moves.Move) -> dict[str, Any]:
        return moves.format_move(move, len(self.s.heroes))

    def legal_moves(self) -> list[moves.Move]:
        return legal.legal_moves(self.s) if self.s.result == PLAYING else []

    def check(self, move: moves.Move) -> IllegalMove | None:
        try:
            after = rules.simulate(self.s, move)
        except IllegalMove as problem:
            return problem
        self._checked = (self.s, move, after)
        return None

    def _apply(self, move: moves.Move) -> None:
        checked = self._checked
        if checked is not None and checked[0] is self.s and checked[1] == move:
            self.s = checked[2]
        else:
            self.s = rules.simulate(self.s, move)
        self._checked = None

    def _snapshot(self) -> State:
        return self.s  # states are never changed in place: every move makes a new one

    def _restore(self, snapshot: State) -> None:
        self.s = snapshot
        self._checked = None

    @property
    def status(self) -> str:
        return self.s.result

    @property
    def score(self) -> int | None:
        return final_score(self.s)

    def state(self) -> dict[str, Any]:
        return state_json(self.s)

    def warnings(self) -> list[str]:
        return foresight.warnings(self.s)
