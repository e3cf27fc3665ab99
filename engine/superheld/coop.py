"""The co-op game's own turn: both heroes defeat a monster village together."""

from __future__ import annotations

from engine.game import IllegalMove
from engine.superheld.deck import code
from engine.superheld.journey import (
    buy,
    end_turn,
    enter,
    lose_if_cut_off,
    require_phase,
    step_problem,
    take,
    take_problem,
    trade,
)
from engine.superheld.moves import MonsterTurn
from engine.superheld.state import COOP, JOURNEY, State

MONSTER_REWARD = 5  # shared: the heroes split it as they choose
MONSTERS = 3


def apply_monster(s: State, move: MonsterTurn) -> None:
    require_phase(s, JOURNEY, "a monster turn")
    if s.variant != COOP:
        raise IllegalMove("not-coop", "monster turns belong to the two-hero co-op game")
    first, second = s.heroes
    here = first.at
    if second.at != here:
        raise IllegalMove("not-together", f"both heroes must stand on the monster village ({code(first.at)} and "
                                          f"{code(second.at)})")
    if here not in s.monsters:
        raise IllegalMove("no-monster", f"no monster stands on {code(here)}")
    if (problem := take_problem(s, here, None)) is not None:
        raise problem
    for to in move.go:
        if (problem := step_problem(s, here, to)) is not None:
            raise problem
    if min(move.coins) < 0 or sum(move.coins) != MONSTER_REWARD:
        raise IllegalMove("reward-split", f"the heroes share exactly {MONSTER_REWARD} coins, not "
                                          f"{' + '.join(map(str, move.coins))}")
    s.monsters.discard(here)
    take(s, here)
    for hero, to, coins in zip(s.heroes, move.go, move.coins, strict=True):
        enter(s, hero, to)
        hero.coins += coins
    if lose_if_cut_off(s, here):
        return
    order = (move.first, 1 - move.first)
    for i in order:
        if move.buy[i]:
            buy(s, s.heroes[i])
    for i in order:
        if move.trade[i]:
            trade(s, s.heroes[i], move.trade[i])
    end_turn(s, 1 - s.to_move if move.next is None else move.next)
