"""Map geometry (adjacency of measured rectangles) and the refereed map building."""

from __future__ import annotations

import random

import pytest

from engine.game import RecordError
from engine.superheld.building import apply_place
from engine.superheld.deck import parse
from engine.superheld.layouts import random_layout, row_layout, strip_layout
from engine.superheld.map import Rect, adjacency, card_rect, components, grid_rect, reachable, touching
from engine.superheld.moves import Capital, Place
from engine.superheld.read_setup import read_state
from engine.superheld.rules import check, simulate
from engine.superheld.state import BUILD, START, State

P = card_rect(0, 0)  # portrait 63 x 88 at the origin


def test_edge_to_edge_cards_touch_on_long_and_short_sides() -> None:
    assert touching(P, card_rect(63, 0))  # long side
    assert touching(P, card_rect(0, 88))  # short side
    assert touching(P, card_rect(63, 20, "landscape"))  # landscape beside portrait


def test_gap_up_to_6_mm_and_small_overlaps_still_touch() -> None:
    assert touching(P, card_rect(69, 0))
    assert not touching(P, card_rect(69.5, 0))
    assert touching(P, card_rect(58, 0))  # laid 5 mm over the edge
    assert not touching(P, card_rect(0, 96))


def test_shared_edge_must_be_at_least_10_mm() -> None:
    assert touching(P, card_rect(63, 78))  # 10 mm of the long edge shared
    assert not touching(P, card_rect(63, 79))
    assert touching(P, card_rect(53, 88))  # 10 mm of the short edge shared
    assert not touching(P, card_rect(54, 88))


def test_corner_contact_is_not_adjacency() -> None:
    assert not touching(P, card_rect(63, 88))
    assert not touching(P, card_rect(65, 90))


def test_adjacency_is_keyed_by_code_for_measured_outlines() -> None:
    cards = {"9H": Rect(0, 0, 62.5, 88.4), "2S": Rect(64.1, 3, 62.8, 87.9), "KC": Rect(130, 95, 63, 88)}
    assert adjacency(cards) == {"9H": {"2S"}, "2S": {"9H"}, "KC": set()}


def test_adjacency_swept_along_x_is_every_touching_pair() -> None:
    """The sweep compares each card only with the cards starting near it along x: on random tables of cards
    laid loosely, overlapping, either way round and of odd sizes, it finds exactly the pairs `touching` finds."""
    rng = random.Random(7)
    for _ in range(400):
        n = rng.randint(0, 24)
        if rng.random() < 0.5:
            cards = {k: card_rect((k % 6) * 63 + rng.uniform(-8, 8), (k // 6) * 88 + rng.uniform(-8, 8),
                                  rng.choice(["portrait", "landscape"])) for k in range(n)}
        else:
            cards = {k: Rect(rng.uniform(0, 250), rng.uniform(0, 250), rng.uniform(5, 100), rng.uniform(5, 100))
                     for k in range(n)}
        pairs = {k: {j for j in cards if j != k and touching(cards[k], cards[j])} for k in cards}
        assert adjacency(cards) == pairs


def test_grid_form_is_four_neighbourhood() -> None:
    rects = {(c, r): grid_rect(c, r) for c in range(3) for r in range(3)}
    adj = adjacency(rects)
    assert adj[(1, 1)] == {(0, 1), (2, 1), (1, 0), (1, 2)}
    assert adj[(0, 0)] == {(1, 0), (0, 1)}


def test_reachability_skips_holes() -> None:
    adj = {1: {2}, 2: {1, 3}, 3: {2}}
    assert reachable(adj, {1, 2, 3}, 1) == {1, 2, 3}
    assert reachable(adj, {1, 3}, 1) == {1}
    assert sorted(map(sorted, components(adj, {1, 3}))) == [[1], [3]]


# -- building, move by move ----------------------------------------------------------------

def place(s: State, code: str, col: int, row: int) -> State:
    return simulate(s, Place(parse(code), grid_rect(col, row), (col, row)))


def rule_of(s: State, move: Place | Capital) -> str | None:
    problem = check(s, move)
    return problem.rule if problem else None


def test_forest_comes_first_and_each_card_touches_an_earlier_one() -> None:
    s = State()
    assert rule_of(s, Place(parse("9H"), grid_rect(0, 0))) == "forest-first"
    s = place(s, "5S", 0, 0)
    assert rule_of(s, Place(parse("6H"), grid_rect(1, 1))) == "not-touching"  # corner only
    s = place(s, "6H", 1, 0)
    assert s.hidden == {parse("5S"), parse("6H")}
    assert s.adj[parse("5S")] == {parse("6H")}


def test_placed_cards_never_move_and_aces_stay_off_the_map() -> None:
    s = place(State(), "5S", 0, 0)
    assert rule_of(s, Place(parse("5S"), grid_rect(0, 1))) == "card-moved"
    assert rule_of(s, Place(parse("5S"), grid_rect(0, 0))) == "already-placed"
    assert rule_of(s, Place(parse("AS"), grid_rect(0, 1))) == "ace-not-on-map"
    assert rule_of(s, Place(parse("5H"), card_rect(30, 40))) == "overlap"


def full_map() -> State:
    s = State()
    for code, col, row in row_layout():
        s = place(s, code, col, row)
    return s


def test_capital_needs_all_48_cards_and_a_king() -> None:
    s = State()
    for code, col, row in row_layout()[:47]:
        s = place(s, code, col, row)
    assert rule_of(s, Capital(parse("KS"))) == "map-incomplete"
    s = place(s, *row_layout()[47])
    assert rule_of(s, Capital(parse("QS"))) == "capital-not-king"
    s = simulate(s, Capital(parse("KS")))
    assert (s.phase, s.capital) == (START, parse("KS"))
    assert rule_of(s, Place(parse("9H"), grid_rect(0, 5))) == "map-complete"
    assert rule_of(s, Capital(parse("KH"))) == "capital-chosen"


def test_ready_made_layouts_are_legal_maps() -> None:
    for layout in (row_layout(), strip_layout(), *(random_layout(random.Random(i)) for i in range(20))):
        s = State()
        for code, col, row in layout:
            apply_place(s, Place(parse(code), grid_rect(col, row), (col, row)))
        assert len(s.rects) == 48 and s.phase == BUILD
        assert len(components(s.adj, s.present)) == 1


# -- building in a record's setup ----------------------------------------------------------

def setup_with(layout: list, **extra: object) -> dict[str, object]:
    return {"map": [list(e) for e in layout], **extra}


def test_setup_map_violations_are_record_errors_that_say_where() -> None:
    layout = row_layout()
    bad = layout[:3] + [(layout[3][0], 40, 7)] + layout[4:]
    with pytest.raises(RecordError) as err:
        read_state(setup_with(bad), {})
    assert err.value.where == "setup.map[3]" and "not-touching" in str(err.value)
    with pytest.raises(RecordError) as err:
        read_state(setup_with(layout[:47], capital="KS"), {})
    assert err.value.where == "setup.capital" and "47 of its 48" in str(err.value)
    with pytest.raises(RecordError) as err:
        read_state(setup_with([["5S", "a", 0]]), {})
    assert err.value.where == "setup.map[0]"


def test_setup_map_in_mm_and_partial_maps_continue_by_moves() -> None:
    mm = [{"card": "5S", "x": 0, "y": 0}, {"card": "5H", "x": 66, "y": 30, "orient": "landscape"}]
    s = read_state({"map": mm}, {})
    assert s.adj[parse("5S")] == {parse("5H")} and s.phase == BUILD
    s = read_state(setup_with(row_layout(), capital="KC"), {})
    assert s.phase == START and s.capital == parse("KC")


def test_building_by_moves_gives_the_setup_map_and_listed_placements_are_legal() -> None:
    from engine.superheld.game import Superheld

    game = Superheld({}, {})
    for code, col, row in row_layout():
        listed = game.legal_moves()
        assert listed and all(game.check(m) is None for m in listed[::53])
        game.push(game.parse_move({"place": code, "col": col, "row": row}))
    assert {m.card for m in game.legal_moves()} == {parse(k) for k in ("KS", "KH", "KD", "KC")}
    game.push(game.parse_move({"capital": "KC"}))
    assert game.s.adj == read_state(setup_with(row_layout(), capital="KC"), {}).adj
    assert game.state()["phase"] == "start" and game.state()["forest_hidden"] == 8
