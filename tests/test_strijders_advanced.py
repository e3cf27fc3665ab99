"""Advanced Strijders: effect order, rock-paper-scissors, raadslid, VIP, karma, shuffles, manual steps, the end."""

from __future__ import annotations

from typing import Any

from engine.game import FINISHED, PLAYING
from engine.strijders.game import Lay, Manual, Rps, Strijders


def card(card_id: str, score: int, effect: str | None = None, kind: str = "normal", text: str = "") -> dict[str, Any]:
    row: dict[str, Any] = {"id": card_id, "name": card_id, "score": score, "rarity": "yellow", "type": kind}
    if effect is not None:
        row["effect"] = effect
    if text:
        row["text"] = text
    return row


CARDS = [
    card("zero", 0), card("plain3", 3), card("plain4", 4), card("plain6", 6),
    card("plus5", 2, "self +5"), card("copier", 4, "copy opponent"), card("add3", 4, "self +3"),
    card("council", 6, "opponent -3", "raadslid"), card("council2", 5, "self +4; opponent -2", "raadslid"),
    card("fan", 3, "self +2", "vip"), card("ghost", 1, "opponent -1", "karma"),
    card("magic", 4, text="Roll a die; on a 6 your score becomes 10."),
    card("drawer", 3, "draw self 2"), card("miller", 5, "discard opponent 3"), card("seer", 4, "look opponent all"),
    card("mimic", 3, "mimic"), card("hero", 7, "self +1", "superheld"),
]
FILLER = "plain3"


def game(a: list[str], b: list[str], size: int = 8, **options: Any) -> Strijders:
    """Decks of `size`, the named cards on top, then filler."""
    decks = {"a": a + [FILLER] * (size - len(a)), "b": b + [FILLER] * (size - len(b))}
    options = {"variant": "advanced", "deck_size": size} | options
    return Strijders({"catalog": {"cards": CARDS}, "decks": decks}, options)


def last(g: Strijders) -> tuple[dict[str, int], str]:
    result = g.state()["last_round"]
    return result["scores"], result["winner"]


def test_the_lower_score_resolves_first() -> None:
    for a, b in (("plus5", "copier"), ("copier", "plus5")):
        g = game([a], [b])
        g.push(Lay(a, b))
        # plus5 (2) goes first: 7, then copier copies 7: a tie (the other order would leave 7 against 2)
        assert last(g) == ({"a": 7, "b": 7}, "tie")


def test_scores_are_compared_again_after_the_effects() -> None:
    g = game(["plus5"], ["plain4"])
    g.push(Lay("plus5", "plain4"))
    assert last(g) == ({"a": 7, "b": 4}, "a")
    assert g.state()["winners_piles"]["a"] == ["plus5"] and g.state()["points_piles"]["a"] == ["plain4"]


def test_a_tie_with_effects_on_both_sides_waits_for_rock_paper_scissors() -> None:
    g = game(["copier"], ["add3"])
    g.push(Lay("copier", "add3"))
    state = g.state()
    assert state["pending"] == "rps" and state["field"] == {"cards": {"a": "copier", "b": "add3"},
                                                             "scores": {"a": 4, "b": 4}, "first": None}
    assert g.legal_moves() == [Rps(0), Rps(1)]
    assert g.check(Lay(FILLER, FILLER)).rule == "rps-pending"
    assert g.check(Manual(1, 1)).rule == "rps-pending"
    g.push(Rps(0))  # a copies 4 first, then b adds 3
    assert last(g) == ({"a": 4, "b": 7}, "b")
    g.pop()
    g.push(g.parse_move({"rps": {"a": "rock", "b": "paper"}}))  # paper wins: b adds 3, then a copies 7
    assert last(g) == ({"a": 7, "b": 7}, "tie")


def test_a_drawn_throw_must_be_thrown_again() -> None:
    g = game(["copier"], ["add3"])
    g.push(Lay("copier", "add3"))
    move = g.parse_move({"rps": {"a": "scissors", "b": "scissors"}})
    problem = g.check(move)
    assert problem is not None and problem.rule == "rps-draw" and "scissors" in problem.message
    assert g.format_move(move) == {"rps": {"a": "scissors", "b": "scissors"}}


def test_no_rock_paper_scissors_when_only_one_side_has_effects() -> None:
    g = game(["plain4"], ["add3"])
    g.push(Lay("plain4", "add3"))
    assert g.state()["pending"] == "lay" and last(g) == ({"a": 4, "b": 7}, "b")


def test_a_raadslid_resolves_first_even_with_the_higher_score() -> None:
    g = game(["council"], ["copier"])
    g.push(Lay("council", "copier"))
    # council first: copier 4-3 = 1, then copier copies 6. Lower-first would give council 6-... = 3 vs 6.
    assert last(g) == ({"a": 6, "b": 6}, "tie")


def test_raadslid_effects_do_not_touch_another_raadslid() -> None:
    g = game(["council"], ["council2"])
    g.push(Lay("council", "council2"))
    # both raadslid: lower (council2) first; both 'opponent -N' steps do nothing, 'self +4' still works
    assert last(g) == ({"a": 6, "b": 9}, "b")
    g = game(["council"], ["plain4"])
    g.push(Lay("council", "plain4"))
    assert last(g) == ({"a": 6, "b": 1}, "a")


def test_a_vip_acts_from_its_owners_winners_pile() -> None:
    g = game(["fan", "plain3"], ["plain4", "plain4"])
    g.push(Lay("fan", "plain4"))  # fan 3+2 = 5 beats 4 and goes to a's winners pile
    assert g.state()["winners_piles"]["a"] == ["fan"]
    g.push(Lay("plain3", "plain4"))  # the fan in the public pile: 3+2 = 5
    assert last(g) == ({"a": 5, "b": 4}, "a")


def test_a_vip_lost_to_the_opponent_does_nothing() -> None:
    g = game(["fan", "plain3"], ["plain6", "plain4"])
    g.push(Lay("fan", "plain6"))
    assert g.state()["points_piles"]["b"] == ["fan"]
    g.push(Lay("plain3", "plain4"))
    assert last(g) == ({"a": 3, "b": 4}, "b")


def test_a_karma_acts_for_its_owner_from_the_opponents_points_pile() -> None:
    g = game(["ghost", "plain3"], ["plain4", "plain3"])
    g.push(Lay("ghost", "plain4"))  # 1 vs 4-1: b wins the ghost onto b's points pile
    assert g.state()["points_piles"]["b"] == ["ghost"]
    g.push(Lay("plain3", "plain3"))  # a's ghost on b's points pile: b gets -1
    assert last(g) == ({"a": 3, "b": 2}, "a")


def test_a_karma_in_its_owners_winners_pile_does_nothing() -> None:
    g = game(["ghost", "plain3"], ["zero", "plain3"])
    g.push(Lay("ghost", "zero"))
    assert g.state()["winners_piles"]["a"] == ["ghost"]
    g.push(Lay("plain3", "plain3"))
    assert last(g) == ({"a": 3, "b": 3}, "tie")


def test_a_manual_effect_waits_for_the_players_scores() -> None:
    g = game(["magic"], ["plain3"])
    g.push(Lay("magic", "plain3"))
    state = g.state()
    assert state["pending"] == "manual" and state["field"]["scores"] == {"a": 4, "b": 3}
    assert state["field"]["first"] == "b"
    assert g.legal_moves() == [Manual(4, 3)]
    assert g.check(Lay(FILLER, FILLER)).rule == "manual-pending"
    assert g.check(Rps(0)).rule == "manual-pending"
    g.push(g.parse_move({"manual": {"a": 1, "b": 3}}))  # the die said no, and the players made it 1
    assert last(g) == ({"a": 1, "b": 3}, "b") and g.state()["pending"] == "lay"
    g.pop()
    g.push(Manual(10, 3))
    assert last(g) == ({"a": 10, "b": 3}, "a")


def test_draw_steps_grow_the_hand_beyond_five() -> None:
    g = game(["drawer"], ["plain4"], size=10)
    g.push(Lay("drawer", "plain4"))
    assert len(g.table.hands[0]) == 6 and g.state()["decks_left"] == {"a": 3, "b": 4}


def test_discarded_cards_run_a_deck_out_and_cards_left_in_hand_count_minus_one() -> None:
    g = game(["miller"], ["plain4"], size=8)
    g.push(Lay("miller", "plain4"))  # b's 3 deck cards are discarded
    assert g.state()["discards"]["b"] == [FILLER] * 3 and g.state()["decks_left"]["b"] == 0
    while g.status == PLAYING:
        g.push(Lay(g.table.hand_ids(0)[0], g.table.hand_ids(1)[0]))
    assert g.status == FINISHED and g.table.hands[1] == [] and len(g.table.hands[0]) == 3
    points = g.state()["points"]
    assert g.score == {"a": points["a"] - 3, "b": points["b"]}
    assert len(g.cards_accounted()) == 16


def test_a_deck_seen_by_an_effect_is_shuffled_afterwards() -> None:
    b_deck = ["plain3", "plain4", "plain6", "zero", "fan", "ghost", "magic", "drawer", "miller", "mimic"] * 2
    seen = Strijders({"catalog": CARDS, "decks": {"a": ["seer"] + ["plain3"] * 19, "b": b_deck}},
                     {"variant": "advanced"})
    unseen = Strijders({"catalog": CARDS, "decks": {"a": ["plain4"] + ["plain3"] * 19, "b": b_deck}},
                       {"variant": "advanced"})
    seen.push(Lay("seer", "plain3"))
    unseen.push(Lay("plain4", "plain3"))
    held = [sorted(g.table.decks[1] + g.table.hands[1]) for g in (seen, unseen)]
    assert held[0] == held[1]
    assert seen.table.decks[1] != unseen.table.decks[1] and seen.table.shuffles == 1
    assert unseen.table.decks[0] == seen.table.decks[0]


def test_mimic_runs_the_opponents_effect_but_not_a_superhelds() -> None:
    g = game(["mimic"], ["plus5"])
    g.push(Lay("mimic", "plus5"))  # plus5 first: 7; mimic then runs 'self +5' for a: 8
    assert last(g) == ({"a": 8, "b": 7}, "a")
    g = game(["mimic"], ["hero"])
    g.push(Lay("mimic", "hero"))
    assert last(g) == ({"a": 3, "b": 8}, "b")


def test_undo_through_rock_paper_scissors_and_manual_steps_is_exact() -> None:
    g = game(["copier", "magic"], ["add3", "plain3"])
    start = g.state()
    moves = [Lay("copier", "add3"), Rps(1), Lay("magic", "plain3"), Manual(2, 2)]
    states = []
    for move in moves:
        states.append(g.state())
        g.push(move)
    for before in reversed(states):
        g.pop()
        assert g.state() == before
    assert g.state() == start
