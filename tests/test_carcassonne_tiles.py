"""The tile catalog against the rules' table: counts, shields, parts, and the rotation convention."""

from __future__ import annotations

import pytest

from engine.carcassonne.tiles import (
    DIRECTIONS,
    ROTATIONS,
    TILE_COUNT,
    TILES,
    canonical_rotation,
    distinct_rotations,
    full_bag,
    rotate_edge,
    shuffled_tiles,
    tile,
    unrotate_edge,
)


def test_totals_match_the_rules_table() -> None:
    assert TILE_COUNT == 72 == len(full_bag())
    assert len(shuffled_tiles()) == 71
    assert sum(t.count * t.shields for t in TILES.values()) == 10
    assert sum(t.count for t in TILES.values() if t.monastery) == 6
    assert sorted(TILES) == [chr(c) for c in range(ord("A"), ord("X") + 1)]
    assert {letter: TILES[letter].count for letter in "ABCDEUVWX"} == dict(A=2, B=4, C=1, D=4, E=5, U=8, V=9, W=4, X=1)


@pytest.mark.parametrize("letter", sorted(TILES))
def test_parts_cover_exactly_the_road_and_city_edges(letter: str) -> None:
    t = TILES[letter]
    for rotation in ROTATIONS:
        edges = dict(zip(DIRECTIONS, t.edges(rotation), strict=True))
        road_edges = [e for part in t.road_parts(rotation) for e in part]
        city_edges = [e for part in t.city_parts(rotation) for e in part.edges]
        assert sorted(road_edges) == sorted(d for d, k in edges.items() if k == "R")
        assert sorted(city_edges) == sorted(d for d, k in edges.items() if k == "C")


def test_rotation_is_clockwise_from_the_canonical_tile() -> None:
    d = TILES["D"]  # city N, road W-E, field S
    assert d.edges(0) == ("C", "R", "F", "R")
    assert d.edges(90) == ("R", "C", "R", "F")  # the city now faces E
    assert d.edges(180) == ("F", "R", "C", "R")
    assert d.edges(270) == ("R", "F", "R", "C")
    assert rotate_edge("N", 90) == "E" and rotate_edge("W", 90) == "N"
    assert all(unrotate_edge(rotate_edge(e, r), r) == e for e in DIRECTIONS for r in ROTATIONS)
    assert TILES["V"].road_parts(90) == (frozenset({"W", "N"}),)
    assert TILES["M"].city_parts(180)[0].edges == frozenset({"S", "E"}) and TILES["M"].city_parts(180)[0].shield


def test_symmetric_rotations_are_equal() -> None:
    assert {letter for letter in TILES if len(distinct_rotations(letter)) == 1} == set("BCX")
    assert {letter for letter in TILES if len(distinct_rotations(letter)) == 2} == set("FGHU")
    assert canonical_rotation("U", 180) == 0 and canonical_rotation("U", 270) == 90
    assert canonical_rotation("X", 270) == 0 and canonical_rotation("A", 270) == 270


def test_tile_lookup_names_bad_letters() -> None:
    assert tile("e") is TILES["E"]
    with pytest.raises(KeyError, match="Z"):
        tile("Z")
    with pytest.raises(ValueError):
        TILES["E"].edges(45)
