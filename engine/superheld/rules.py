"""One entry point for every move: apply it to a copy, so a forbidden move never touches the real state."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.game import PLAYING, IllegalMove
from engine.superheld.battle import apply_deploy, apply_fight, apply_give
from engine.superheld.building import apply_capital, apply_place
from engine.superheld.coop import apply_monster
from engine.superheld.journey import apply_start, apply_turn
from engine.superheld.moves import Capital, Deploy, Fight, Give, MonsterTurn, Move, Place, Start, Turn
from engine.superheld.state import State

APPLY: dict[type, Callable[[State, Any], None]] = {
    Place: apply_place,
    Capital: apply_capital,
    Start: apply_start,
    Turn: apply_turn,
    MonsterTurn: apply_monster,
    Deploy: apply_deploy,
    Fight: apply_fight,
    Give: apply_give,
}


def simulate(state: State, move: Move) -> State:
    """The state after `move`; raises IllegalMove (leaving `state` as it was) when the rules forbid it."""
    if state.result != PLAYING:
        raise IllegalMove("game-over", f"the game is already {state.result}")
    after = state.copy()
    APPLY[type(move)](after, move)
    return after


def check(state: State, move: Move) -> IllegalMove | None:
    try:
        simulate(state, move)
    except IllegalMove as problem:
        return problem
    return None
