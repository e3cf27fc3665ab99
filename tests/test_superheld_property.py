"""Random legal games from seeds: the invariants hold after every move, and undo is exact."""

from __future__ import annotations

import random

import pytest

from engine.superheld.deck import ALL_CARDS, MAP_CARDS, parse, suit, value
from engine.superheld.game import Superheld
from engine.superheld.legal import legal_moves
from engine.superheld.moves import Start
from engine.superheld.playout import choose, play, random_setup, winnable_start
from engine.superheld.read_setup import read_state
from engine.superheld.rules import check, simulate
from engine.superheld.state import State


def assert_invariants(s: State) -> None:
    deck2 = s.lower_deck + s.warrior_deck + s.ghosts_out + s.wizard_fought
    for hero in s.heroes:
        deck2 += hero.ghosts + hero.warriors
        assert hero.coins >= 0
    assert sorted(deck2) == list(ALL_CARDS), "every card of deck 2 is somewhere, once"
    taken = MAP_CARDS - s.present
    assert len(taken) == sum(s.skill) - 4
    for card in taken:  # skill piles ascend: what was taken of a suit is exactly 2 .. its top
        assert value(card) <= s.skill[suit(card)]
    for card in s.present:
        assert value(card) > s.skill[suit(card)]
    assert s.hidden <= s.present
    for hero, deployed, spent in zip(s.heroes, s.deployed or [[]] * len(s.heroes), s.spent or [[]] * len(s.heroes),
                                     strict=True):
        assert set(deployed) | set(spent) <= set(hero.warriors)


@pytest.mark.parametrize("seed", range(40))
def test_random_journeys_keep_the_invariants(seed: int) -> None:
    s = read_state(random_setup(seed), {})
    rng = random.Random(seed)
    for _ in range(400):
        assert_invariants(s)
        move = choose(s, rng)
        if move is None:
            break
        s = simulate(s, move)
    assert_invariants(s)
    assert s.result in ("lost", "won") or s.phase == "battle"


@pytest.mark.parametrize("seed", range(12))
def test_whole_games_on_the_winnable_row_reach_the_battle_and_end(seed: int) -> None:
    s, moves = play(winnable_start(seed), random.Random(seed), limit=600, take_preference=1.0)
    assert_invariants(s)
    assert s.rounds >= 1 and s.result in ("won", "lost")
    assert sum(s.skill) - 4 == 47


def test_every_listed_legal_move_passes_check() -> None:
    rng = random.Random(7)
    for seed in range(6):
        s = winnable_start(seed)
        for _ in range(30):
            moves = legal_moves(s)
            if not moves:
                break
            for move in rng.sample(moves, min(8, len(moves))):
                assert check(s, move) is None, move
            s = simulate(s, choose(s, rng, 1.0))


def test_push_and_pop_restore_every_state_exactly() -> None:
    game = Superheld(random_setup(3, winnable=True), {})
    rng = random.Random(3)
    states = [game.s]
    game.push(Start((parse("2S"),)))
    states.append(game.s)
    for _ in range(60):
        move = choose(game.s, rng, 1.0)
        if move is None:
            break
        game.push(move)
        states.append(game.s)
    snapshots = [s.copy() for s in states]
    while game.move_stack:
        assert game.s == snapshots[len(game.move_stack)]
        game.pop()
    assert game.s == snapshots[0]
