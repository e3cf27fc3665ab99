"""Classic Strijders: decks of 20, hands of 5, simultaneous reveal, ties, piles, draw back, the end, scoring."""

from __future__ import annotations

from typing import Any

import pytest

from engine.game import FINISHED, PLAYING, IllegalMove, RecordError
from engine.strijders.game import Lay, Strijders

CARDS = [
    {"id": "low", "name": "Low", "score": 2, "rarity": "yellow", "type": "normal"},
    {"id": "mid", "name": "Mid", "score": 5, "rarity": "green", "type": "normal",
     "text": "Je tegenstander krijgt -9.", "effect": "opponent -9"},
    {"id": "high", "name": "High", "score": 8, "rarity": "red", "type": "normal"},
    {"id": "hero", "name": "Hero", "score": 5, "rarity": "hero", "type": "superheld"},
    {"id": "blue", "name": "Blue", "score": 5, "rarity": "blue", "type": "vip"},
]


def game(a: list[str], b: list[str], **options: Any) -> Strijders:
    return Strijders({"catalog": {"cards": CARDS}, "decks": {"a": a, "b": b}}, {"deck_size": len(a)} | options)


def test_the_first_hands_are_the_top_five_and_the_rest_wait_in_the_deck() -> None:
    g = game(["low"] * 3 + ["mid", "high"] + ["high"] * 15, ["high"] * 20)
    state = g.state()
    assert state["hands"]["a"] == ["low", "low", "low", "mid", "high"]
    assert state["decks_left"] == {"a": 15, "b": 15}
    assert state["round"] == 1 and state["pending"] == "lay" and g.status == PLAYING and g.score is None


def test_higher_score_wins_both_cards_onto_two_piles() -> None:
    g = game(["high", "low"], ["low", "high"])
    g.push(Lay("high", "low"))
    state = g.state()
    assert state["winners_piles"] == {"a": ["high"], "b": []}
    assert state["points_piles"] == {"a": ["low"], "b": []}
    assert state["last_round"] == {"round": 1, "cards": {"a": "high", "b": "low"}, "scores": {"a": 8, "b": 2},
                                   "winner": "a"}
    assert state["round"] == 2


def test_a_tie_puts_each_card_on_the_opponents_points_pile() -> None:
    g = game(["mid", "low"], ["hero", "low"])
    g.push(Lay("mid", "hero"))
    assert g.state()["points_piles"] == {"a": ["hero"], "b": ["mid"]}
    assert g.state()["winners_piles"] == {"a": [], "b": []}
    assert g.state()["last_round"]["winner"] == "tie"


def test_classic_ignores_effects() -> None:
    g = game(["mid"], ["high"])
    g.push(Lay("mid", "high"))
    assert g.state()["last_round"]["scores"] == {"a": 5, "b": 8}
    assert g.state()["winners_piles"]["b"] == ["high"]


def test_hands_are_drawn_back_to_five_after_each_round() -> None:
    g = game(["low"] * 20, ["high"] * 20)
    for n in range(15):
        assert len(g.table.hands[0]) == 5 and len(g.table.decks[0]) == 15 - n
        g.push(Lay("low", "high"))
    assert len(g.table.hands[0]) == 5 and not g.table.decks[0]
    for n in range(4, -1, -1):
        g.push(Lay("low", "high"))
        assert len(g.table.hands[0]) == n


def test_full_game_of_twenty_rounds_and_plain_scoring() -> None:
    g = game(["high"] * 10 + ["low"] * 10, ["mid"] * 20)
    while g.status == PLAYING:
        g.push(Lay(g.table.hand_ids(0)[0], "mid"))
    assert g.status == FINISHED and g.state()["round"] == 20 and g.state()["pending"] is None
    assert g.score == {"a": 10, "b": 10} and g.state()["winner"] == "tie"
    assert len(g.cards_accounted()) == 40


def test_rarity_scoring() -> None:
    g = game(["high", "high", "low"], ["hero", "blue", "high"], scoring="rarity")
    g.push(Lay("high", "hero"))  # a takes hero (5)
    g.push(Lay("high", "blue"))  # a takes blue (3)
    g.push(Lay("low", "high"))  # b takes low (yellow 1)
    assert g.score == {"a": 8, "b": 1}
    assert g.state()["points"] == {"a": 8, "b": 1} and g.state()["winner"] == "a"
    plain = game(["high", "high", "low"], ["hero", "blue", "high"])
    for move in g.move_stack:
        plain.push(move)
    assert plain.score == {"a": 2, "b": 1}


def test_a_card_not_in_hand_is_a_violation_that_changes_nothing() -> None:
    g = game(["low"] * 6, ["high"] * 6)
    before = g.state()
    problem = g.check(Lay("high", "high"))
    assert isinstance(problem, IllegalMove) and problem.rule == "not-in-hand"
    assert "player a has no 'high' in hand (low, low, low, low, low)" in problem.message
    with pytest.raises(IllegalMove):
        g.push(Lay("low", "low"))
    assert g.state() == before


def test_only_a_lay_is_expected_in_classic() -> None:
    g = game(["low"], ["high"])
    assert g.check(g.parse_move({"rps": "a"})).rule == "lay-pending"
    assert g.check(g.parse_move({"manual": {"a": 1, "b": 2}})).rule == "lay-pending"
    g.push(Lay("low", "high"))
    assert g.check(Lay("low", "high")).rule == "game-over" and g.legal_moves() == []


def test_legal_moves_are_every_pair_of_distinct_cards_in_hand() -> None:
    g = game(["low", "low", "mid", "high", "low"], ["hero", "mid", "mid", "high", "high"])
    assert sorted(g.legal_moves()) == sorted(Lay(a, b) for a in ("low", "mid", "high") for b in ("hero", "mid", "high"))


def test_a_seed_shuffles_listed_decks_and_deals_unlisted_ones() -> None:
    decks = {"a": ["low"] * 10 + ["high"] * 10, "b": ["mid"] * 20}
    one = Strijders({"catalog": CARDS, "decks": decks, "seed": 4}, {})
    two = Strijders({"catalog": CARDS, "decks": decks, "seed": 4}, {})
    plain = Strijders({"catalog": CARDS, "decks": decks}, {})
    assert one.state()["hands"] == two.state()["hands"] and plain.state()["hands"]["a"] == ["low"] * 5
    hands = [Strijders({"catalog": CARDS, "decks": decks, "seed": s}, {}).state()["hands"]["a"] for s in range(10)]
    assert len({tuple(h) for h in hands}) > 1
    dealt = Strijders({"catalog": CARDS, "seed": 9}, {})
    assert len(dealt.cards_accounted()) == 40 and dealt.state()["decks_left"] == {"a": 15, "b": 15}


@pytest.mark.parametrize(("setup", "options", "where"), [
    ({"decks": {"a": [], "b": []}}, {}, "setup.catalog"),
    ({"catalog": CARDS}, {}, "setup"),
    ({"catalog": CARDS, "seed": "x"}, {}, "setup.seed"),
    ({"catalog": CARDS, "seed": 1, "table": 2}, {}, "setup"),
    ({"catalog": CARDS, "decks": {"a": ["low"] * 20}}, {}, "setup.decks"),
    ({"catalog": CARDS, "decks": {"a": ["low"] * 20, "b": ["low"] * 19}}, {}, "setup.decks.b"),
    ({"catalog": CARDS, "decks": {"a": ["hero"] * 2, "b": ["low"] * 2}}, {"deck_size": 2}, "setup.decks.a[1]"),
    ({"catalog": CARDS, "seed": 1}, {"variant": "expert"}, "options.variant"),
    ({"catalog": CARDS, "seed": 1}, {"scoring": "gold"}, "options.scoring"),
    ({"catalog": CARDS, "seed": 1}, {"deck_size": 0}, "options.deck_size"),
    ({"catalog": CARDS, "seed": 1}, {"hand_size": 4}, "options"),
])
def test_bad_setup_or_options_say_where(setup: dict[str, Any], options: dict[str, Any], where: str) -> None:
    with pytest.raises(RecordError) as info:
        Strijders(setup, options)
    assert info.value.where == where
