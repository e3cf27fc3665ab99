"""The two-hero co-op: alternating turns, monster turns, own coins and ghosts."""

from __future__ import annotations

from engine.superheld.deck import parse
from engine.superheld.layouts import practice_state
from engine.superheld.legal import legal_moves
from engine.superheld.moves import MonsterTurn, Start, Turn
from engine.superheld.rules import check, simulate
from engine.superheld.state import COOP, State


def c(code: str) -> int:
    return parse(code)


def rule(s: State, move: object) -> str | None:
    problem = check(s, move)  # type: ignore[arg-type]
    return problem.rule if problem else None


MAP = ["2S 2D 3S", "2H 2C KH"]


def coop(heroes_at: list[str] = ("2S", "2C"), coins: tuple[int, int] = (0, 3)) -> State:
    s = practice_state(MAP, "KH", list(heroes_at))
    s.monsters = {c("2D")}
    for hero, n in zip(s.heroes, coins, strict=True):
        hero.coins = n
    assert s.variant == COOP
    return s


def together() -> State:
    s = simulate(coop(), Turn(c("2D"), take=True))  # hero 1 takes 2S and walks onto the monster village
    return simulate(s, Turn(c("2D"), hero=1))  # hero 2 joins, paying 1


def test_both_heroes_start_on_a_2_and_turns_alternate() -> None:
    s = practice_state(MAP, "KH")
    s.variant = COOP
    s.heroes.append(type(s.heroes[0])())
    s = simulate(s, Start((c("2S"), c("2H"))))
    assert [h.at for h in s.heroes] == [c("2S"), c("2H")] and s.to_move == 0
    s = coop()
    assert rule(s, Turn(c("2H"), hero=1)) == "not-your-turn"
    s = simulate(s, Turn(c("2D"), take=True, hero=0))
    assert s.to_move == 1 and s.heroes[0].coins == 1 and s.heroes[1].coins == 3


def test_each_hero_pays_from_own_coins() -> None:
    s = simulate(coop(coins=(0, 0)), Turn(c("2D"), take=True))
    after = simulate(s, Turn(None))  # hero 2 stays with no coin
    assert after.reason == "cannot-pay" and after.heroes[0].coins == 1


def test_a_monster_village_needs_both_heroes() -> None:
    s = together()
    assert rule(s, Turn(c("3S"), take=True)) == "monster-needs-both"
    s2 = coop()
    assert rule(s2, MonsterTurn((c("3S"), c("2C")), (2, 3))) == "not-together"


def test_a_hero_cannot_take_the_card_the_other_hero_stands_on() -> None:
    s = coop(heroes_at=("2C", "2C"))
    s.skill[3] = 1
    assert rule(s, Turn(c("2H"), take=True)) == "other-hero-there"


def test_the_monster_turn_shares_5_coins_moves_both_and_takes_the_card() -> None:
    s = together()
    assert s.to_move == 0
    bad = MonsterTurn((c("3S"), c("2C")), (3, 3))
    assert rule(s, bad) == "reward-split"
    assert rule(s, MonsterTurn((c("2S"), c("2C")), (2, 3))) == "hole"
    top, second = s.lower_deck[-1], s.lower_deck[-2]
    after = simulate(s, MonsterTurn((c("3S"), c("2C")), (2, 3), buy=(True, True), first=1, next=0))
    one, two = after.heroes
    assert c("2D") not in after.present and not after.monsters and after.skill[2] == 2
    assert (one.at, one.coins, one.ghosts) == (c("3S"), 1 + 2 - 1, [second])
    assert (two.at, two.coins, two.ghosts) == (c("2C"), 2 + 3 - 1, [top])  # hero 2 bought first
    assert after.to_move == 0
    assert simulate(s, MonsterTurn((c("3S"), c("3S")), (5, 0))).to_move == 1  # default: the other hero next


def test_monster_turn_trades_in_the_chosen_order_against_each_heros_own_card() -> None:
    s = together()
    for hero, cards in zip(s.heroes, (["7S", "7H"], ["7D", "7C"]), strict=True):
        for card in map(c, cards):
            s.lower_deck.remove(card)
            hero.ghosts.append(card)
    first_top, second_top = c("8S"), c("9S")
    for card in (second_top, first_top):
        s.warrior_deck.remove(card)
        s.warrior_deck.append(card)
    after = simulate(s, MonsterTurn((c("3S"), c("2C")), (0, 5), trade=((c("7S"), c("7H")), (c("7D"), c("7C"))),
                                    first=1))
    assert after.heroes[1].warriors == [first_top] and after.heroes[0].warriors == [second_top]


def test_monster_turns_belong_to_the_coop_game() -> None:
    s = practice_state(MAP, "KH", ["2D"])
    assert rule(s, MonsterTurn((c("3S"), c("2C")), (2, 3))) == "not-coop"


def test_cutting_the_other_hero_off_loses() -> None:
    s = practice_state(["2C 2S 2D KH"], "KH", ["2S", "2C"])
    s.heroes[0].coins = s.heroes[1].coins = 3
    after = simulate(s, Turn(c("2D"), take=True))
    assert after.reason == "cut-off" and "2C" in after.message


def test_legal_coop_moves_include_the_monster_turn_and_all_pass_check() -> None:
    s = together()
    moves = legal_moves(s)
    assert any(isinstance(m, MonsterTurn) for m in moves)
    assert all(check(s, m) is None for m in moves)
