"""The effect-step language: reading, writing back, expanding, and what each step does."""

from __future__ import annotations

import pytest

from engine.strijders.catalog import CardSpec
from engine.strijders.effects import ALL, Step, expand, format_effect, parse_effect, run_step, touches_opponent_card
from engine.strijders.table import Table


def test_every_step_form_reads_and_writes_back() -> None:
    text = ("self +2; opponent -3; set self 7; copy opponent; copy self; swap; draw self 1; discard opponent 2; "
            "look opponent 3; look self all; shuffle self; mimic; manual")
    steps = parse_effect(text)
    assert steps[:3] == (Step("add", "self", 2), Step("add", "opponent", -3), Step("set", "self", 7))
    assert steps[9] == Step("look", "self", ALL)
    assert format_effect(steps) == text
    assert parse_effect(["add self 2", "swap"]) == (Step("add", "self", 2), Step("swap"))
    assert parse_effect("none") == () and format_effect(()) == "none"


@pytest.mark.parametrize(("text", "words"), [
    ("fly self 2", "unknown step 'fly'"),
    ("draw self", "expected 'draw WHO COUNT'"),
    ("draw me 1", "neither 'self' nor 'opponent'"),
    ("draw self 0", "at least 1"),
    ("set self x", "not a whole number"),
    ("swap now", "expected 'swap'"),
    ("", "empty"),
])
def test_bad_steps_say_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        parse_effect(text)
    with pytest.raises(ValueError, match="step text"):
        parse_effect(5)


def test_mimic_takes_the_opponents_steps_but_never_a_superhelds() -> None:
    own = parse_effect("self +1; mimic")
    theirs = parse_effect("opponent -2; mimic")
    assert expand(own, theirs, opponent_superheld=False) == (Step("add", "self", 1), Step("add", "opponent", -2))
    assert expand(own, theirs, opponent_superheld=True) == (Step("add", "self", 1),)


def test_a_deck_looked_at_is_shuffled_after_the_effect() -> None:
    steps = expand(parse_effect("look opponent 3; draw self 1; look opponent all; look self 1"), (), False)
    assert steps == (Step("look", "opponent", 3), Step("draw", "self", 1), Step("look", "opponent", ALL),
                     Step("look", "self", 1), Step("shuffle", "opponent"), Step("shuffle", "self"))


def test_which_steps_touch_the_opponents_card() -> None:
    touching = ["opponent -1", "set opponent 0", "copy opponent", "copy self", "swap"]
    harmless = ["self +1", "set self 3", "draw opponent 1", "discard opponent 1", "look opponent 2"]
    assert all(touches_opponent_card(s) for s in parse_effect("; ".join(touching)))
    assert not any(touches_opponent_card(s) for s in parse_effect("; ".join(harmless)))


def table_with(deck_size: int = 8) -> Table:
    card = CardSpec("c", "C", 1, "yellow", "normal")
    table = Table([[card] * deck_size, [card] * deck_size], seed=3)
    table.refill(0)
    table.refill(1)
    table.scores = [4, 9]
    return table


@pytest.mark.parametrize(("text", "owner", "scores"), [
    ("self +2", 0, [6, 9]),
    ("opponent -3", 1, [1, 9]),
    ("set opponent 0", 0, [4, 0]),
    ("copy opponent", 0, [9, 9]),
    ("copy self", 0, [4, 4]),
    ("swap", 1, [9, 4]),
])
def test_score_steps(text: str, owner: int, scores: list[int]) -> None:
    table = table_with()
    for step in parse_effect(text):
        run_step(table, step, owner)
    assert table.scores == scores


def test_draw_and_discard_take_what_the_deck_has() -> None:
    table = table_with(deck_size=8)  # 5 in hand, 3 in each deck
    run_step(table, Step("draw", "self", 2), 0)
    assert len(table.hands[0]) == 7 and len(table.decks[0]) == 1
    run_step(table, Step("discard", "opponent", 5), 0)
    assert len(table.discards[1]) == 3 and not table.decks[1]
    top = table.decks[0][-1]
    run_step(table, Step("draw", "self", 4), 0)
    assert table.hands[0][-1] == top and len(table.hands[0]) == 8


def test_shuffle_keeps_the_cards_and_is_seeded() -> None:
    first, second = table_with(deck_size=20), table_with(deck_size=20)
    before = first.decks[1][:]
    for table in (first, second):
        run_step(table, Step("shuffle", "self"), 1)
    assert sorted(first.decks[1]) == sorted(before) and first.decks[1] != before
    assert first.decks[1] == second.decks[1] and first.shuffles == 1
