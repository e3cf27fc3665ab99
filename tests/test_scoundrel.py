"""Each Scoundrel rule of the digest, on hand-built dungeons."""

from typing import Any

import pytest

from engine import Match, RecordError
from engine.record import Record
from engine.scoundrel import DECK, Scoundrel, card_code


def play(dungeon: list[str], moves: list[str], **options: str) -> dict[str, Any]:
    return Match.replay(Record("scoundrel", options, {"dungeon": dungeon}, moves)).to_json()


def rules(out: dict[str, Any]) -> list[str]:
    return [v["rule"] for v in out["violations"]]


def test_deck_is_44_cards_without_red_faces_and_aces() -> None:
    codes = {card_code(c) for c in DECK}
    assert len(codes) == 44
    assert not codes & {"JH", "QH", "KH", "AH", "JD", "QD", "KD", "AD"}
    assert {"AS", "AC", "KS", "10D", "2H"} <= codes


def test_first_room_is_four_cards_from_the_top() -> None:
    out = play(["2S", "3S", "4S", "5S", "6S"], [])
    assert out["room"] == ["2S", "3S", "4S", "5S"]
    assert out["dungeon_left"] == 1 and out["life"] == 20 and out["can_run"]


def test_fight_barehanded_takes_full_damage() -> None:
    out = play(["KS", "2H", "3H", "4H", "5S"], ["fight KS bare"])
    assert out["life"] == 7 and out["discard"] == 1


def test_weapon_reduces_damage_and_stacks_the_monster() -> None:
    out = play(["5D", "JS", "3C", "2H", "9S"], ["equip 5D", "fight JS weapon"])
    assert out["life"] == 14
    assert out["weapon"] == "5D" and out["weapon_monsters"] == ["JS"]


def test_weapon_stronger_than_monster_takes_no_damage() -> None:
    out = play(["5D", "3S", "2C", "2H", "9S"], ["equip 5D", "fight 3S weapon"])
    assert out["life"] == 20


def test_blunted_weapon_allows_equal_by_default() -> None:
    dungeon = ["5D", "6S", "6C", "2H", "9S"]
    out = play(dungeon, ["equip 5D", "fight 6S weapon", "fight 6C weapon"])
    assert rules(out) == [] and out["weapon_monsters"] == ["6S", "6C"]


def test_blunted_weapon_strict_option_needs_strictly_lower() -> None:
    dungeon = ["5D", "6S", "6C", "2H", "9S"]
    out = play(dungeon, ["equip 5D", "fight 6S weapon", "fight 6C weapon"], weapon_rule="strict")
    assert rules(out) == ["weapon-blunted"]
    assert out["weapon_monsters"] == ["6S"] and out["room"] == ["6C", "2H"]


def test_blunted_weapon_refuses_higher_monster_but_bare_hands_allowed() -> None:
    dungeon = ["5D", "6S", "QC", "2H", "9S"]
    out = play(dungeon, ["equip 5D", "fight 6S weapon", "fight QC weapon", "fight QC bare"])
    assert rules(out) == ["weapon-blunted"]
    assert out["violations"][0]["move"] == 2
    assert out["life"] == 20 - 1 - 12


def test_fight_with_weapon_needs_a_weapon() -> None:
    out = play(["5S", "2H", "3H", "4H"], ["fight 5S weapon"])
    assert rules(out) == ["no-weapon"] and out["life"] == 20


def test_new_weapon_discards_old_weapon_and_its_monsters() -> None:
    dungeon = ["5D", "4S", "8D", "2H", "9S", "9C", "3S", "2S"]
    out = play(dungeon, ["equip 5D", "fight 4S weapon", "equip 8D"])
    assert out["weapon"] == "8D" and out["weapon_monsters"] == [] and out["discard"] == 2


def test_potion_heals_capped_at_twenty() -> None:
    out = play(["8S", "9H", "2C", "3C", "4S"], ["fight 8S bare", "drink 9H"])
    assert out["life"] == 20 and out["potion_used_this_turn"]


def test_second_potion_in_a_turn_has_no_effect() -> None:
    out = play(["KS", "5H", "6H", "3C", "4S"], ["fight KS bare", "drink 5H", "drink 6H"])
    assert rules(out) == [] and out["life"] == 12 and out["discard"] == 3


def test_potion_heals_again_in_the_next_room() -> None:
    dungeon = ["KS", "5H", "2C", "6H", "QS", "3H", "4C", "5C"]
    out = play(dungeon, ["fight KS bare", "drink 5H", "fight 2C bare", "drink 6H"])
    assert out["life"] == 7 + 5 - 2 + 6 and out["room"] == ["QS", "3H", "4C"]


def test_after_three_cards_the_fourth_stays_and_room_refills() -> None:
    dungeon = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    out = play(dungeon, ["fight 2S bare", "fight 4S bare", "fight 5S bare"])
    assert out["room"] == ["3S", "6S", "7S", "8S"] and out["dungeon_left"] == 1


def test_run_puts_room_under_dungeon_in_room_order() -> None:
    dungeon = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    match = Match.replay(Record("scoundrel", {}, {"dungeon": dungeon}, ["run"]))
    assert match.to_json()["room"] == ["6S", "7S", "8S", "9S"]
    game = match.game
    assert isinstance(game, Scoundrel)
    assert [card_code(c) for c in reversed(game.dungeon)] == ["2S", "3S", "4S", "5S"]


def test_run_with_carried_card_puts_it_under_first() -> None:
    dungeon = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"]
    moves = ["fight 2S bare", "fight 3S bare", "fight 4S bare", "run"]
    match = Match.replay(Record("scoundrel", {}, {"dungeon": dungeon}, moves))
    game = match.game
    assert isinstance(game, Scoundrel)
    assert [card_code(c) for c in reversed(game.dungeon)] == ["KS", "5S", "6S", "7S", "8S"]
    assert match.to_json()["room"] == ["9S", "10S", "JS", "QS"]


def test_cannot_run_twice_in_a_row_but_later_again() -> None:
    dungeon = ["JS", "QS", "KS", "AS", "2S", "3S", "4S", "5S", "6C", "7C", "8C", "9C"]
    out = play(dungeon, ["run", "run", "fight 2S bare", "fight 3S bare", "fight 4S bare", "run"])
    assert rules(out) == ["run-twice"]
    assert out["violations"][0]["move"] == 1
    assert out["room"] == ["9C", "JS", "QS", "KS"] and out["life"] == 11


def test_cannot_run_after_facing_a_card() -> None:
    out = play(["2S", "3S", "4S", "5S", "6S"], ["fight 2S bare", "run"])
    assert rules(out) == ["run-after-facing"] and not out["can_run"]


def test_cannot_run_when_dungeon_is_empty() -> None:
    out = play(["2S", "3S", "4S", "5S"], ["run"])
    assert rules(out) == ["run-empty-dungeon"]


def test_last_room_must_be_faced_entirely() -> None:
    out = play(["2S", "3S", "4S"], ["fight 2S bare", "fight 3S bare", "fight 4S bare"])
    assert out["status"] == "won" and out["score"] == 11


def test_last_room_of_one_carried_card_is_a_new_turn() -> None:
    out = play(["KS", "5H", "2C", "6H"], ["fight KS bare", "drink 5H", "fight 2C bare", "drink 6H"])
    assert out["status"] == "won" and out["life"] == 7 + 5 - 2 + 6


def test_card_not_in_room_and_wrong_action() -> None:
    out = play(["2S", "3H", "4D", "5S", "6S"], ["fight 6S bare", "drink 2S", "equip 3H", "fight 4D bare"])
    assert rules(out) == ["not-in-room", "wrong-action", "wrong-action", "wrong-action"]
    assert out["room"] == ["2S", "3H", "4D", "5S"] and out["life"] == 20


def test_death_scores_life_minus_remaining_monsters() -> None:
    dungeon = ["AS", "AC", "KS", "2H", "9C", "3D"]
    out = play(dungeon, ["fight AS bare", "fight AC bare"])
    assert out["status"] == "lost" and out["life"] == -8
    assert out["score"] == -8 - 13 - 9


def test_life_is_not_clamped_below_zero_and_moves_after_death_are_violations() -> None:
    out = play(["AS", "AC", "2S", "3S", "4S"], ["fight AS bare", "fight AC bare", "fight 2S bare"])
    assert rules(out) == ["game-over"] and out["life"] == -8


def test_win_scores_life() -> None:
    out = play(["5S", "3C"], ["fight 5S bare", "fight 3C bare"])
    assert out["status"] == "won" and out["score"] == 12


def test_win_at_full_life_with_last_potion_adds_its_value() -> None:
    out = play(["2S", "7H"], ["fight 2S bare", "drink 7H"])
    assert out["status"] == "won" and out["life"] == 20 and out["score"] == 27


def test_win_with_last_potion_below_full_life_scores_life() -> None:
    out = play(["9S", "7H"], ["fight 9S bare", "drink 7H"])
    assert out["life"] == 18 and out["score"] == 18


def test_score_is_null_while_playing() -> None:
    out = play(["2S", "3S", "4S", "5S", "6S"], ["fight 2S bare"])
    assert out["status"] == "playing" and out["score"] is None


def test_seed_deals_a_full_shuffled_dungeon_reproducibly() -> None:
    a = Match.replay(Record("scoundrel", {}, {"seed": 42}, [])).to_json()
    b = Match.replay(Record("scoundrel", {}, {"seed": 42}, [])).to_json()
    c = Match.replay(Record("scoundrel", {}, {"seed": 43}, [])).to_json()
    assert a == b and a["dungeon_left"] == 40 and a["room"] != c["room"]


@pytest.mark.parametrize(
    ("setup", "options", "where"),
    [
        ({"dungeon": ["2S", "JH"]}, {}, "setup.dungeon[1]"),
        ({"dungeon": ["2S", "2S"]}, {}, ""),
        ({"dungeon": ["2S", "XX"]}, {}, ""),
        ({"seed": "x"}, {}, "setup.seed"),
        ({}, {}, "setup"),
        ({"seed": 1, "dungeon": []}, {}, "setup"),
        ({"seed": 1}, {"weapon_rule": "loose"}, "options.weapon_rule"),
        ({"seed": 1}, {"colour": 1}, "options"),
    ],
)
def test_bad_setup_is_a_record_error(setup: dict[str, Any], options: dict[str, Any], where: str) -> None:
    with pytest.raises(RecordError) as info:
        Match.replay(Record("scoundrel", options, setup, []))
    if where:
        assert info.value.where == where
    assert str(info.value)


@pytest.mark.parametrize(("move", "index"), [("fight QS", 1), ("drink JH", 1), ("flee", 1), (7, 1)])
def test_unparsable_move_is_a_record_error(move: object, index: int) -> None:
    with pytest.raises(RecordError) as info:
        Match.replay(Record("scoundrel", {}, {"seed": 1}, ["run", move]))
    assert info.value.where == f"moves[{index}]"


def test_undo_restores_exact_state_including_violations() -> None:
    match = Match(Record("scoundrel", {}, {"seed": 7}, []))
    before = match.to_json()
    for raw in match.legal_moves()[:1] + ["run"]:
        match.play(raw)
    assert match.to_json() != before
    match.undo()
    match.undo()
    assert match.to_json() == before
    with pytest.raises(IndexError):
        match.undo()


def test_legal_moves_are_exactly_those_check_accepts() -> None:
    game = Scoundrel({"seed": 5}, {})
    legal = {game.format_move(m) for m in game.legal_moves()}
    candidates = ["run"] + [f"{verb} {card_code(c)}" for c in DECK for verb in ("equip", "drink")]
    candidates += [f"fight {card_code(c)} {mode}" for c in DECK for mode in ("bare", "weapon")]
    accepted = {m for m in candidates if game.check(game.parse_move(m)) is None}
    assert accepted == legal and "run" in legal
