"""The final battle: the 21-rule, deployment limits, captures, draws, reshuffles, win and loss."""

from __future__ import annotations

from itertools import product

import pytest

from engine.superheld.battle import ALLY_WINS, TIE, WIZARD_WINS, duel, final_score, start_battle
from engine.superheld.deck import parse
from engine.superheld.legal import legal_moves
from engine.superheld.moves import Deploy, Fight, Give
from engine.superheld.rules import check, simulate
from engine.superheld.state import BATTLE, COOP, SOLO, Hero, State

# The rules text's table, word for word: who each warrior beats and loses to.
TABLE = {
    "K": ("9 10 J Q", "8"),
    "Q": ("8 10 J", "9 K"),
    "J": ("8 9", "10 Q K"),
    "10": ("8 9 J", "Q K"),
    "9": ("8 Q", "10 J K"),
    "8": ("K", "9 10 J Q"),
}


@pytest.mark.parametrize(("mine", "theirs"), list(product(TABLE, repeat=2)))
def test_21_rule_matches_the_rules_table_for_all_36_pairs(mine: str, theirs: str) -> None:
    beats, loses = (set(words.split()) for words in TABLE[mine])
    expected = TIE if mine == theirs else ALLY_WINS if theirs in beats else WIZARD_WINS
    assert theirs == mine or (theirs in beats) != (theirs in loses)  # the table lists every pair once
    assert duel(parse(mine + "S"), parse(theirs + "H")) == expected


def c(code: str) -> int:
    return parse(code)


def battle(allies: list[list[str]], wizard: list[str], fought: list[str] = (), coins: list[int] = ()) -> State:
    """A battle state; `wizard` lists the wizard's deck top card first."""
    heroes = [Hero(at=c("KC"), coins=(coins or [0, 0])[i], warriors=[c(a) for a in hand])
              for i, hand in enumerate(allies)]
    s = State(variant=SOLO if len(allies) == 1 else COOP, heroes=heroes, capital=c("KC"), present={c("KC")},
              warrior_deck=[c(w) for w in reversed(wizard)], wizard_fought=[c(f) for f in fought])
    start_battle(s)
    return s


def deploy(*allies: list[str]) -> Deploy:
    return Deploy(tuple(tuple(map(c, a)) for a in allies))


def rule(s: State, move: object) -> str | None:
    problem = check(s, move)  # type: ignore[arg-type]
    return problem.rule if problem else None


def test_deploy_at_most_4_and_never_more_than_the_wizards_face_down_warriors() -> None:
    s = battle([["8S", "9S", "10S", "JS", "QS"]], ["KH", "QH", "JH"], fought=["8H"])
    assert rule(s, deploy(["8S", "9S", "10S", "JS", "QS"])) == "too-many-allies"
    assert rule(s, deploy(["8S", "9S", "10S", "JS"])) == "more-than-wizard"  # 3 face down, the fought pile aside
    assert rule(s, deploy([])) == "deploy-none"
    assert rule(s, deploy(["KS"])) == "not-held"
    assert rule(s, Fight(c("8S"))) == "no-round"
    s = simulate(s, deploy(["8S", "9S", "10S"]))
    assert rule(s, deploy(["JS"])) == "round-in-progress"
    assert rule(s, Fight(c("JS"))) == "not-deployed"


def test_a_won_fight_captures_the_wizards_warrior_for_the_next_round() -> None:
    s = simulate(battle([["8S", "9S"]], ["KH", "QH", "JH"]), deploy(["8S", "9S"]))
    s = simulate(s, Fight(c("8S")))  # 8 beats K (21)
    assert s.heroes[0].warriors == [c("8S"), c("9S"), c("KH")] and s.deployed == [[c("9S")]]
    assert rule(s, Fight(c("KH"))) == "not-deployed"  # captured, not in position this round
    s = simulate(s, Fight(c("9S")))  # 9 beats Q (21)
    assert s.deployed == [[]] and s.spent == [[]]  # round over: everyone is available again
    assert rule(s, deploy(["KH"])) is None


def test_a_lost_fight_sends_both_to_the_fought_pile_and_a_draw_spends_both() -> None:
    s = simulate(battle([["9S", "10S"]], ["JH", "10H", "8H"]), deploy(["9S", "10S"]))
    s = simulate(s, Fight(c("9S")))  # J beats 9
    assert s.heroes[0].warriors == [c("10S")] and s.wizard_fought == [c("JH"), c("9S")]
    s = simulate(s, Fight(c("10S")))  # 10 against 10: no change
    assert s.heroes[0].warriors == [c("10S")] and s.wizard_fought == [c("JH"), c("9S"), c("10H")]
    assert s.warrior_deck == [c("8H")]


def test_the_fought_pile_is_reshuffled_into_a_new_deck_when_the_deck_runs_out() -> None:
    s = simulate(battle([["QS", "KS"]], ["JH", "QH"], fought=["9D"]), deploy(["QS", "KS"]))
    s = simulate(simulate(s, Fight(c("QS"))), Fight(c("KS")))  # Q beats J; K beats Q
    assert s.phase == BATTLE and s.reshuffles == 1 and s.warrior_deck == [c("9D")] and not s.wizard_fought
    again = simulate(battle([["QS", "KS"]], ["JH", "QH"], fought=["9D", "8D", "10D"]), deploy(["QS", "KS"]))
    again = simulate(simulate(again, Fight(c("QS"))), Fight(c("KS")))
    same = simulate(battle([["QS", "KS"]], ["JH", "QH"], fought=["9D", "8D", "10D"]), deploy(["QS", "KS"]))
    same = simulate(simulate(same, Fight(c("QS"))), Fight(c("KS")))
    assert again.warrior_deck == same.warrior_deck and sorted(again.warrior_deck) == sorted(map(c, ["9D", "8D", "10D"]))


def test_win_when_the_wizard_has_no_warriors_left_and_score_the_coins() -> None:
    s = simulate(battle([["8S"]], ["KH"], coins=[7]), deploy(["8S"]))
    assert final_score(s) is None
    s = simulate(s, Fight(c("8S")))
    assert s.result == "won" and final_score(s) == 7
    assert final_score(battle([["8S"], ["9S"]], [], coins=[7, 5])) == 12  # co-op: both heroes' coins


def test_lose_when_the_hero_has_no_allies_left() -> None:
    s = simulate(battle([["9S"]], ["KH", "QH"]), deploy(["9S"]))
    s = simulate(s, Fight(c("9S")))
    assert (s.result, s.reason, final_score(s)) == ("lost", "no-allies", 0)


def test_a_named_wizard_card_is_the_one_turned_up() -> None:
    s = simulate(battle([["8S"]], ["QH", "KH"]), deploy(["8S"]))
    assert rule(s, Fight(c("8S"), c("9D"))) == "not-in-wizard-deck"
    s = simulate(s, Fight(c("8S"), c("KH")))
    assert s.heroes[0].warriors == [c("8S"), c("KH")] and s.warrior_deck == [c("QH")]


def test_coop_battle_2_plus_2_captures_join_the_winning_allys_hero_and_gifts() -> None:
    s = battle([["8S", "9S", "10S"], ["JS"]], ["KH", "QH", "8H", "9H"], coins=[3, 4])
    assert rule(s, deploy(["8S", "9S", "10S"], ["JS"])) == "too-many-allies"
    assert rule(s, deploy(["8S"])) == "hero-count"
    s = simulate(s, deploy(["8S", "9S"], ["JS"]))
    s = simulate(s, Fight(c("JS")))  # J against K: lost
    assert s.heroes[1].warriors == []
    s = simulate(s, Fight(c("9S")))  # 9 beats Q
    assert s.heroes[0].warriors == [c("8S"), c("9S"), c("10S"), c("QH")]
    s = simulate(s, Fight(c("8S")))  # 8 against 8
    assert rule(s, Give((c("10S"),), 0)) == "receiver-has-allies"
    assert rule(s, Give(tuple(map(c, ["8S", "9S", "10S"])), 1)) == "give-limit"
    s = simulate(s, Give((c("10S"), c("QH")), 1))
    assert s.heroes[1].warriors == [c("10S"), c("QH")]
    assert Give((c("8S"),), 1) not in legal_moves(s)


def test_legal_battle_moves_are_all_accepted() -> None:
    s = battle([["8S", "9S", "10S", "JS", "QS"]], ["KH", "QH", "JH", "8H", "9H"])
    moves = legal_moves(s)
    assert len(moves) == 5 + 10 + 10 + 5  # every deployment of 1 to 4 of the 5 allies
    assert all(check(s, m) is None for m in moves)
