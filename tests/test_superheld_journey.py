"""The journey's rules, each on a small hand-built map (the rule modules work on any map)."""

from __future__ import annotations

import pytest

from engine.game import PLAYING
from engine.superheld.deck import parse, value
from engine.superheld.foresight import warnings
from engine.superheld.layouts import practice_state
from engine.superheld.moves import Start, Turn, parse_move
from engine.superheld.rules import check, simulate
from engine.superheld.state import BATTLE, JOURNEY, OVER, State


def c(code: str) -> int:
    return parse(code)


def go(to: str | None, take: bool = False, buy: bool = False, trade: tuple[str, ...] = ()) -> Turn:
    return Turn(c(to) if to else None, take, buy, tuple(map(c, trade)))


def rule(s: State, move: object) -> str | None:
    problem = check(s, move)  # type: ignore[arg-type]
    return problem.rule if problem else None


def hand(s: State, ghosts: list[str] = (), warriors: list[str] = (), top: str | None = None) -> State:
    """Move deck-2 cards into the hero's hand (and a warrior to the top of the deck), keeping every card once."""
    hero = s.heroes[s.to_move]
    for code in ghosts:
        s.lower_deck.remove(c(code))
        hero.ghosts.append(c(code))
    for code in warriors:
        s.warrior_deck.remove(c(code))
        hero.warriors.append(c(code))
    if top:
        s.warrior_deck.remove(c(top))
        s.warrior_deck.append(c(top))
    return s


LINE = ["2S 3S 4S", "2H KH 3H"]


def test_the_hero_starts_on_a_village_of_value_2() -> None:
    s = practice_state(LINE, "KH")
    assert rule(s, Start((c("3S"),))) == "start-on-2"
    assert rule(s, Start((c("2S"), c("2H")))) == "hero-count"
    s = simulate(s, Start((c("2H"),)))
    assert s.phase == JOURNEY and s.heroes[0].at == c("2H") and s.heroes[0].coins == 0


def test_moves_go_along_edges_only() -> None:
    s = practice_state(LINE, "KH", ["2S"])
    s.heroes[0].coins = 5
    assert rule(s, go("KH")) == "not-adjacent"  # diagonal
    assert rule(s, go("4S")) == "not-adjacent"  # two cards away
    assert rule(s, go("9D")) == "not-on-map"
    assert rule(s, go("3S")) is None and rule(s, go("2H")) is None


def test_staying_or_passing_costs_1_in_a_village_and_2_in_a_city() -> None:
    s = practice_state(LINE, "KH", ["2S"])
    s.heroes[0].coins = 5
    assert simulate(s, go(None)).heroes[0].coins == 4
    assert simulate(s, go("3S")).heroes[0].coins == 4
    s.heroes[0].at = c("KH")
    assert simulate(s, go(None)).heroes[0].coins == 3  # the capital is a city too
    assert simulate(s, go("3S")).heroes[0].coins == 3


def test_a_cost_that_cannot_be_paid_loses() -> None:
    s = practice_state(LINE, "KH", ["2S"])
    after = simulate(s, go("3S"))
    assert (after.result, after.reason, after.phase) == ("lost", "cannot-pay", OVER)
    assert after.heroes[0].coins == 0


def test_taking_in_ascending_order_rewards_a_village_and_leaves_a_hole() -> None:
    s = practice_state(LINE, "KH", ["2S"])
    assert rule(s, go("2S", take=True)) == "not-adjacent"
    assert rule(s, go(None, take=True)) == "take-needs-leaving"
    s = simulate(s, go("3S", take=True))
    assert s.heroes[0].coins == 1 and s.skill[0] == 2 and c("2S") not in s.present
    assert rule(s, go("2S")) == "hole"
    s2 = s.copy()
    s2.heroes[0].at = c("4S")
    assert rule(s2, go("3H", take=True)) == "skill-order"  # 4S needs 3S first


def test_taking_a_city_earns_nothing_and_costs_nothing() -> None:
    s = practice_state(["JS 2S KH"], "KH", ["JS"])
    s.skill[0] = 10
    s = simulate(s, go("2S", take=True))
    assert s.heroes[0].coins == 0 and s.result == PLAYING and s.skill[0] == 11


def test_the_capital_is_never_taken() -> None:
    s = practice_state(["2S KS"], "KS", ["KS"])
    s.skill[0] = 12
    assert rule(s, go("2S", take=True)) == "capital"


def test_entering_a_face_down_forest_card_turns_it_up() -> None:
    s = practice_state(["2S 5H 6H", ".. KH .."], "KH", ["2S"])
    s.hidden = {c("5H"), c("6H")}
    s = simulate(s, go("5H", take=True))
    assert s.hidden == {c("6H")}


def test_buying_one_lower_ghost_a_turn_for_a_coin_even_with_the_reward() -> None:
    s = practice_state(LINE, "KH", ["2S"])
    top = s.lower_deck[-1]
    s = simulate(s, go("3S", take=True, buy=True))
    assert s.heroes[0].ghosts == [top] and s.heroes[0].coins == 0 and len(s.lower_deck) == 27
    assert simulate(s, go(None, buy=True)).result == "lost"  # staying costs 1 that the hero does not have
    s.heroes[0].coins = 1
    assert rule(s, go("4S", take=False, buy=True)) == "cannot-afford"  # 1 - 1 for leaving leaves nothing to buy
    with pytest.raises(ValueError):
        parse_move({"go": "4S", "buy": 2})
    s.lower_deck.clear()
    s.heroes[0].coins = 3
    assert rule(s, go(None, buy=True)) == "no-lower-ghosts"


def test_trade_the_rules_example_king_on_a_9_village_needs_23() -> None:
    s = practice_state(["2S 9H KC"], "KC", ["9H"])
    s.heroes[0].coins = 3
    hand(s, ghosts=["7S", "7H", "7D", "AS", "AH", "2S"], top="KS")
    assert rule(s, go(None, trade=("7S", "7H", "7D", "AS"))) == "trade-too-low"  # 22
    problem = check(s, go(None, trade=("7S", "7H", "7D", "AS")))
    assert problem is not None and "22" in problem.message and "13 + 9" in problem.message
    after = simulate(s, go(None, trade=("7S", "7H", "7D", "AS", "AH")))  # 23
    hero = after.heroes[0]
    assert hero.warriors == [c("KS")] and hero.ghosts == [c("2S")] and hero.coins == 2
    assert sorted(after.ghosts_out) == sorted(map(c, ["7S", "7H", "7D", "AS", "AH"]))
    assert c("KS") not in after.warrior_deck and len(after.warrior_deck) == 23


def test_a_traded_in_warrior_goes_under_the_deck() -> None:
    s = practice_state(["2S 2H KC"], "KC", ["2S"])
    s.heroes[0].coins = 1
    hand(s, ghosts=["3S", "4S"], warriors=["8H", "9H"], top="QD")
    assert rule(s, go(None, trade=("8H", "9H", "3S"))) == "one-warrior"
    assert rule(s, go(None, trade=("9H",))) == "trade-needs-lower-ghost"
    assert rule(s, go(None, trade=("5S",))) == "not-held"
    assert rule(s, go(None, trade=("8H", "3S"))) == "trade-too-low"  # 11 is not more than 12 + 2
    after = simulate(s, go(None, trade=("9H", "3S", "4S")))  # 16 > 14
    assert after.warrior_deck[0] == c("9H") and after.heroes[0].warriors == [c("8H"), c("QD")]
    after.warrior_deck.clear()
    after.heroes[0].ghosts = [c("5S")]
    after.heroes[0].coins = 2
    assert rule(after, go(None, trade=("5S",))) == "no-warriors-left"


def test_the_trade_counts_the_card_the_hero_moved_to() -> None:
    s = practice_state(["2S 3S KC"], "KC", ["2S"])
    hand(s, ghosts=["7S", "4S"], top="8S")  # 11: beats 8 + 2, not 8 + 3
    assert rule(s, go("3S", take=True, trade=("7S", "4S"))) == "trade-too-low"


def test_cutting_off_a_henchman_or_the_capital_loses_at_that_move() -> None:
    s = practice_state(["2S 3S 4S", ".. KH .."], "KH", ["3S"])
    s.skill[0] = 2
    after = simulate(s, go("KH", take=True))
    assert after.result == "lost" and after.reason == "cut-off" and "4S" in after.message
    s = practice_state(["KH 2S 3S"], "KH", ["2S"])
    after = simulate(s, go("3S", take=True))
    assert after.reason == "cut-off" and "KH (the capital)" in after.message


def test_foresight_names_what_taking_the_card_would_cut_off() -> None:
    s = practice_state(["2S 3S 4S", ".. KH .."], "KH", ["3S"])
    s.skill[0] = 2
    s.present.discard(c("2S"))
    assert any(w.startswith("taking 3S would cut off 4S from the capital KH") for w in warnings(s))
    s = practice_state(["KH 2S 3S"], "KH", ["2S"])  # the peninsula's way back
    assert "taking 2S and moving to 3S would cut off the way back to the capital" in warnings(s)
    s = practice_state(["2S 3S 4S", "KH 5D 2H"], "KH", ["2H"])  # a ring: nothing is ever cut off
    assert warnings(s) == []


def test_foresight_flags_a_henchman_that_can_no_longer_be_defeated_in_order() -> None:
    s = practice_state(["KH 2S 3S 4S"], "KH", ["2S"])  # 3S guards 4S's only way to the capital
    s.skill[0] = 2
    s.present.discard(c("2S"))
    s.heroes[0].at = c("KH")
    assert any("4S can no longer be defeated in order: 3S must be taken first" in w for w in warnings(s))
    s.hidden = {c("4S")}  # a face-down card is never named
    assert not any("4S" in w for w in warnings(s))


def test_more_than_25_coins_is_warned_about() -> None:
    s = practice_state(LINE, "KH", ["2S"])
    s.heroes[0].coins = 25
    assert not warnings(s)
    s.heroes[0].coins = 26
    assert warnings(s) == ["26 coins in play: the game has only 25"]


def test_the_journey_ends_on_the_capital_once_every_henchman_is_taken() -> None:
    s = practice_state(["2S KS"], "KS", ["2S"])
    hand(s, warriors=["9C"])
    after = simulate(s, go("KS", take=True))
    assert after.phase == BATTLE and after.result == PLAYING and after.heroes[0].coins == 1
    s.heroes[0].warriors.clear()
    assert simulate(s, go("KS", take=True)).reason == "no-allies"


def test_an_illegal_move_leaves_the_state_untouched() -> None:
    s = practice_state(LINE, "KH", ["2S"])
    before = s.copy()
    assert rule(s, go("3S", take=True, trade=("7S",))) == "not-held"
    assert s == before and value(s.heroes[0].at) == 2
