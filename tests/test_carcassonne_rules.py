"""Every placement, meeple and scoring rule on small hand-built boards.

The start tile D lies at (0, 0): city N, road W-E, field S. Colours play 1, 2, 3 and start on
1, 2, 3 points, so colour 1 is lowest until it scores.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.carcassonne.game import Carcassonne
from engine.carcassonne.scoring import Unit, best_orders, feature_points, majority
from engine.game import IllegalMove, RecordError
from engine.match import Match
from engine.record import Record


def mv(tile: str, x: int, y: int, rot: int, meeple: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"tile": tile, "x": x, "y": y, "rot": rot, "meeple": meeple, **extra}


def replay(stacks: list[list[str]], moves: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return Match.replay(Record("carcassonne", options, {"stacks": stacks}, moves)).to_json()


def rules_of(out: dict[str, Any]) -> list[str]:
    return [v["rule"] for v in out["violations"]]


# -- placement ------------------------------------------------------------------------------------
def test_placement_rules() -> None:
    out = replay(
        [["A", "A"], ["E"], ["V"]],
        [
            mv("E", 0, -1, 0),  # wrong tile: colour 1 drew A
            mv("A", 0, 0, 0, "S"),  # occupied
            mv("A", 3, 3, 0, "S"),  # touches nothing
            mv("A", -1, 0, 0, "S"),  # A at 0° has a field on E against D's road
            mv("A", -1, 0, 270, "E"),  # legal: road joins D's road
        ],
    )
    assert rules_of(out) == ["wrong-tile", "occupied", "not-adjacent", "edges-mismatch"]
    assert out["board"][1] == {"x": -1, "y": 0, "tile": "A", "rot": 270}
    assert out["colour"] == 2 and out["tile"] == "E"


def test_legal_moves_list_every_fitting_placement_once() -> None:
    game = Carcassonne({"stacks": [["U"], [], []]}, {})
    moves = game.legal_moves()
    places = {(m.x, m.y, m.rot) for m in moves}
    # U (straight road) continues D's road W or E, or lies across the field S / north of the city never
    assert places == {(-1, 0, 90), (1, 0, 90), (0, 1, 90)}
    assert all(game.check(m) is None for m in moves)


# -- meeples --------------------------------------------------------------------------------------
def test_meeple_rules() -> None:
    out = replay(
        [["A", "N"], ["N"], ["V"]],
        [
            mv("A", -1, 0, 270, "E"),  # colour 1 on the road
            mv("N", 0, -1, 180, None),  # a free city: the meeple is obligatory
            mv("N", 0, -1, 180, "N"),  # N edge is a field
            mv("N", 0, -1, 180, "monastery"),  # no monastery on N
            mv("N", 0, -1, 180, "E"),  # the city (S+E) joins D's city: free
            mv("V", 1, 0, 90, "W"),  # the road already holds colour 1's meeple
            mv("V", 1, 0, 90, None),  # nothing free: no meeple owed
        ],
    )
    assert rules_of(out) == ["meeple-owed", "no-feature", "no-feature", "feature-taken"]
    assert out["meeples"] == [{"colour": 1, "x": -1, "y": 0, "spot": "E"}, {"colour": 2, "x": 0, "y": -1, "spot": "E"}]
    assert out["meeples_left"] == [3, 3, 4]


def test_a_meeple_owed_with_none_left_ends_the_game_after_scoring() -> None:
    out = replay(
        [["A", "A"], ["B"], ["B"]],
        [
            mv("A", -1, 0, 270, "E"),
            mv("B", -1, 1, 0, "monastery"),
            mv("B", -2, 0, 0, "monastery"),
            mv("A", 1, 0, 90, "monastery"),  # colour 1 has no meeple left
            mv("A", 1, 0, 90, None),  # owed but none left: closes colour 1's road, then the end
        ],
        meeples=1,
    )
    assert rules_of(out) == ["no-meeple-left"]
    assert out["end"] == "no-meeple" and out["status"] == "finished"
    road = out["scorings"][0]
    assert road == {
        "turn": 4,
        "kind": "road",
        "at": [1, 0, "W"],
        "tiles": 3,
        "shields": 0,
        "meeples": [1],
        "points": 3,
        "majority": [1],
        "to": [1],
    }
    # end: colours 2 and 3 still have a monastery meeple; 2 is lowest (2) -> 4, then 3 (3) -> 5
    finals = [(s["kind"], s["meeples"], s["to"]) for s in out["scorings"][1:]]
    assert finals == [("final", [2], [2]), ("final", [3], [3])]
    assert out["scores"] == [4, 4, 5] and out["result"] == 4 == out["score"]
    assert out["meeples_left"] == [1, 0, 0]


# -- scoring --------------------------------------------------------------------------------------
def test_road_and_city_points() -> None:
    assert feature_points("road", 3, 0) == 3
    assert feature_points("city", 2, 0) == 4  # the rules' "a 2-tile city scores 4"
    assert feature_points("city", 3, 1) == 8
    assert feature_points("monastery", 9, 0) == 9


def test_two_tile_city_scores_4_for_the_lowest_colour() -> None:
    out = replay([["E"], [], []], [mv("E", 0, -1, 180, "S")])
    assert out["scores"] == [5, 2, 3]
    assert out["scorings"][0]["kind"] == "city" and out["scorings"][0]["to"] == [1]
    assert out["meeples_left"] == [4, 4, 4]  # the meeple came back
    assert out["end"] == "tiles-out" and "all-tiles" in [g["goal"] for g in out["goals"]]


@pytest.mark.parametrize(("letter", "points"), [("N", 6), ("M", 8)])
def test_city_with_and_without_shield(letter: str, points: int) -> None:
    # D + a city S+E at (0,-1) + L at (1,-1) closing it with its W city edge: 3 tiles (+ M's shield)
    out = replay(
        [["A", "L"], [letter], ["V"]],
        [
            mv("A", -1, 0, 270, "monastery"),
            mv(letter, 0, -1, 180, "S"),
            mv("V", 1, 0, 90, "W"),  # the road is free (colour 1 chose the monastery)
            mv("L", 1, -1, 270, "N"),
        ],
    )
    assert rules_of(out) == []
    city = next(s for s in out["scorings"] if s["kind"] == "city")
    assert city["tiles"] == 3 and city["shields"] == (letter == "M") and city["points"] == points
    assert city["meeples"] == [2] and city["to"] == []  # colour 1 (1 point) is lowest


def test_lowest_rule_blocks_points_but_returns_the_meeple() -> None:
    out = replay(
        [["A"], ["A"], ["B"]],  # B keeps the game going
        [mv("A", 1, 0, 90, "monastery"), mv("A", -1, 0, 270, "E")],
    )
    road = out["scorings"][0]
    assert road["meeples"] == [2] and road["points"] == 3 and road["to"] == []
    assert out["scores"] == [1, 2, 3] and out["meeples_left"][1] == 4


def test_tied_majority_scores_both_colours_when_one_is_lowest() -> None:
    out = replay(
        [["A", "V"], ["W"], ["V"]],
        [
            mv("A", -1, 0, 270, "E"),  # colour 1 on the road from the monastery
            mv("W", 0, 1, 0, "E"),  # colour 2 on a separate road E of the junction
            mv("V", 1, 0, 0, None),  # joins colour 1's road and turns S: nothing free
            mv("V", 1, 1, 90, None),  # joins both roads: 5 tiles, closed at monastery and junction
        ],
    )
    assert rules_of(out) == []
    road = out["scorings"][-1]
    assert road["tiles"] == 5 and road["meeples"] == [1, 2] and road["majority"] == [1, 2] and road["to"] == [1, 2]
    assert out["scores"][:2] == [6, 7]


def test_majority() -> None:
    assert majority([0, 0, 1]) == (0,)
    assert majority([2, 0, 1]) == (0, 1, 2)
    assert majority([]) == ()


def test_monastery_scores_9_and_final_meeples_score_2_while_lowest() -> None:
    out = replay(
        [["B", "B", "B"], ["A", "B", "B"], ["A", "B"]],
        [
            mv("B", 0, 1, 0, "monastery"),
            mv("A", -1, 0, 270, "monastery"),
            mv("A", 1, 0, 90, "monastery"),  # closes the road A-D-A: nobody on it, nothing scored
            mv("B", -1, 1, 0, "monastery"),
            mv("B", 1, 1, 0, "monastery"),
            mv("B", -1, 2, 0, "monastery"),
            mv("B", 0, 2, 0, "monastery"),
            mv("B", 1, 2, 0, "monastery"),  # the 8th neighbour of colour 1's monastery
        ],
    )
    assert rules_of(out) == []
    monastery = out["scorings"][0]
    assert (monastery["kind"], monastery["at"], monastery["points"], monastery["to"]) == (
        "monastery",
        [0, 1, "monastery"],
        9,
        [1],
    )
    # end: colour 1 (10) has 2 meeples left on the board, 2 (2) has 3, 3 (3) has 2; only the lowest scores
    assert out["scores"] == [10, 8, 7] and out["result"] == 7
    finals = out["scorings"][1:]
    assert len(finals) == 7 and sum(bool(s["to"]) for s in finals) == 5
    assert out["end"] == "tiles-out"


def test_road_loop_counts_each_tile_once() -> None:
    out = replay(
        [["V", "V"], ["V"], ["V"]],
        [mv("V", 0, 1, 270, "E"), mv("V", 1, 1, 0, None), mv("V", 0, 2, 180, None), mv("V", 1, 2, 90, None)],
    )
    assert rules_of(out) == []
    assert [(s["kind"], s["tiles"], s["points"], s["to"]) for s in out["scorings"]] == [("road", 4, 4, [1])]


# -- several completions --------------------------------------------------------------------------
ORDER_SETUP = [["A", "L"], ["N", "B"], ["V"]]  # B keeps the game going
ORDER_MOVES = [
    mv("A", -1, 0, 270, "E"),  # colour 1 on the road (closed W at the monastery)
    mv("N", 0, -1, 180, "S"),  # colour 2 on the city, open to the E
    mv("V", 1, 0, 90, None),  # the road turns N; nothing free
]
CLOSING = mv("L", 1, -1, 270, "N")  # closes the road (4 tiles, colour 1) and the city (3 tiles, colour 2)


def test_the_default_order_is_the_best_one() -> None:
    out = replay(ORDER_SETUP, [*ORDER_MOVES, CLOSING])
    assert [(s["kind"], s["points"], s["to"]) for s in out["scorings"]] == [("road", 4, [1]), ("city", 6, [2])]
    assert out["scores"] == [5, 8, 3] and out["warnings"] == []


def test_a_chosen_order_is_followed_and_a_worse_one_is_warned() -> None:
    out = replay(ORDER_SETUP, [*ORDER_MOVES, {**CLOSING, "order": [[0, -1, "S"]]}])  # the city first
    assert [(s["kind"], s["to"]) for s in out["scorings"]] == [("city", []), ("road", [1])]
    assert out["scores"] == [5, 2, 3]
    assert len(out["warnings"]) == 1 and "best order" in out["warnings"][0]


def test_the_engine_names_the_best_order_and_refuses_a_bad_one() -> None:
    game = Carcassonne({"stacks": ORDER_SETUP}, {})
    for move in ORDER_MOVES:
        game.push(game.parse_move(move))
    closing = game.parse_move(CLOSING)
    assert game.best_order(closing) == [[1, -1, "S"], [1, -1, "W"]]
    bad = game.check(closing._replace(order=((5, 5, "N"),)))
    assert isinstance(bad, IllegalMove) and bad.rule == "bad-order"
    twice = game.check(closing._replace(order=((1, -1, "W"), (0, 0, "N"))))  # the city named twice
    assert isinstance(twice, IllegalMove) and twice.rule == "bad-order"


def test_best_order_follows_the_rules_example() -> None:
    # yellow road 3, green city 4, red road 4; yellow lowest: yellow, then red, then green all score
    yellow, green, red = 0, 1, 2
    first = [Unit(4, (green,)), Unit(4, (red,)), Unit(3, (yellow,))]
    order, _ = best_orders([5, 8, 7], first, None)
    assert order == [2, 1, 0]
    scores = [5, 8, 7]
    for i in order:
        if min(scores) in [scores[c] for c in first[i].colours]:
            for c in first[i].colours:
                scores[c] += first[i].points
    assert scores == [8, 12, 11]


def test_final_order_search_handles_many_meeples() -> None:
    finals = [Unit(2, (c,)) for c in (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2)]
    _, order = best_orders([10, 11, 12], [], finals)
    scores = [10, 11, 12]
    for i in order:
        c = finals[i].colours[0]
        if scores[c] == min(scores):
            scores[c] += 2
    assert min(scores) == 18  # everyone's four meeples pay: 18, 19, 20


# -- records --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("setup", "options", "moves", "where"),
    [
        ({"stacks": [["A"], ["B"]]}, {}, [], "setup.stacks"),
        ({"stacks": [["A"], ["Z"], []]}, {}, [], "setup.stacks[1][0]"),
        ({"seed": 1, "stacks": []}, {}, [], "setup"),
        ({"seed": "x"}, {}, [], "setup.seed"),
        ({"seed": 1}, {"colours": 5}, [], "options.colours"),
        ({"seed": 1}, {"meeples": 0}, [], "options.meeples"),
        ({"seed": 1}, {"abbot": True}, [], "options"),
        ({"seed": 1}, {}, [mv("A", 0, 1, 0), "A 0 1"], "moves[1]"),
        ({"seed": 1}, {}, [mv("A", 0, 1, 45)], "moves[0]"),
        ({"seed": 1}, {}, [mv("Q", 0, 1, 0, "middle")], "moves[0]"),
        ({"seed": 1}, {}, [{**mv("Q", 0, 1, 0), "order": [[0, 1]]}], "moves[0]"),
        ({"seed": 1}, {}, [{"tile": "A", "x": 0, "y": 1}], "moves[0]"),
    ],
)
def test_malformed_records_say_where(setup: Any, options: Any, moves: Any, where: str) -> None:
    with pytest.raises(RecordError) as info:
        Match.replay(Record("carcassonne", options, setup, moves))
    assert info.value.where == where


def test_seeded_stacks_and_fourth_colour() -> None:
    three = Carcassonne({"seed": 7}, {})
    assert [len(s) for s in three.initial_stacks] == [24, 24, 23] and three.scores == [1, 2, 3]
    four = Carcassonne({"seed": 7}, {"colours": 4, "meeples": 5})
    assert [len(s) for s in four.initial_stacks] == [18, 18, 18, 17] and four.scores == [1, 2, 3, 4]
    assert four.supply == [5, 5, 5, 5]
    assert Carcassonne({"seed": 7}, {}).initial_stacks == three.initial_stacks


def test_a_tile_that_fits_nowhere_is_discarded() -> None:
    out = replay([["E", "U"], ["V"], ["C"]], [mv("E", 0, -1, 180, "S"), mv("V", 1, 0, 0, "W")])
    # C (all city) has nowhere to go once D's city is closed: colour 3's turn passes to colour 1
    assert out["discarded"] == [{"tile": "C", "colour": 3}]
    assert out["colour"] == 1 and out["tile"] == "U"
    assert out["stacks_left"] == [1, 0, 0]


def test_undo_restores_the_exact_state() -> None:
    game = Carcassonne({"stacks": ORDER_SETUP}, {})
    before = []
    for raw in [*ORDER_MOVES, CLOSING]:
        before.append(game.state())
        game.push(game.parse_move(raw))
    for state in reversed(before):
        game.pop()
        assert game.state() == state


MONASTERY_GAME = (
    [["B", "B", "B"], ["A", "B", "B"], ["A", "B"]],
    [
        mv("B", 0, 1, 0, "monastery"),
        mv("A", -1, 0, 270, "monastery"),
        mv("A", 1, 0, 90, "monastery"),
        mv("B", -1, 1, 0, "monastery"),
        mv("B", 1, 1, 0, "monastery"),
        mv("B", -1, 2, 0, "monastery"),
        mv("B", 0, 2, 0, "monastery"),
    ],
)


def test_an_order_can_name_the_final_meeple_scorings() -> None:
    stacks, moves = MONASTERY_GAME
    # colour 3's meeple at (-1, 2) first, while colour 2 is lowest: it pays nothing
    last = mv("B", 1, 2, 0, "monastery", order=[[-1, 2, "monastery"]])
    out = replay(stacks, [*moves, last])
    finals = out["scorings"][1:]
    assert finals[0]["at"] == [-1, 2, "monastery"] and finals[0]["to"] == []
    assert out["result"] == 5 and len(out["warnings"]) == 1


def test_naming_a_meeple_in_the_order_is_refused_when_the_game_goes_on() -> None:
    stacks, moves = MONASTERY_GAME
    out = replay(stacks, [*moves[:3], {**moves[3], "order": [[0, 1, "monastery"]]}])
    assert rules_of(out) == ["bad-order"]
