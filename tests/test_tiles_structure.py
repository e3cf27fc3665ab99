"""The tile geometry, renderer and structure reader agree with the engine's catalog."""

from __future__ import annotations

import numpy as np
import pytest

from engine.carcassonne.tiles import TILES, distinct_rotations
from vision.tiles.board import add_meeples, fits, random_board
from vision.tiles.catalog import hypotheses, same_part
from vision.tiles.geometry import feature_edge, meeple_spots, rotate_points
from vision.tiles.matcher import EDGE_KINDS, edge_loglik, expectations, match_board
from vision.tiles.meeples import feature_at
from vision.tiles.reader import PATCH, blue_mask, field_mask, read_tile
from vision.tiles.render import render_tile
from vision.tiles.styles import HELD_OUT_STYLES, STYLES, TRAIN_STYLES


def test_hypotheses_are_the_distinct_rotations_of_every_letter() -> None:
    hyps = hypotheses()
    assert len(hyps) == sum(len(distinct_rotations(letter)) for letter in TILES)
    assert ("U", 180) not in hyps and ("U", 90) in hyps and ("C", 90) not in hyps


@pytest.mark.parametrize("letter,rotation", hypotheses())
def test_geometry_reads_back_as_the_catalog_edges(letter: str, rotation: int) -> None:
    """The shapes drawn from the catalog's parts, read by the reader, give the catalog's edges."""
    kinds = tuple(EDGE_KINDS[k] for k in edge_loglik(expectations()[(letter, rotation)]).argmax(axis=1))
    assert kinds == TILES[letter].edges(rotation)


def test_rotating_points_clockwise_moves_north_to_east() -> None:
    assert np.allclose(rotate_points(np.array([[0.5, 0.0]]), 90), [[1.0, 0.5]])
    assert np.allclose(rotate_points(np.array([[0.5, 0.0]]), 270), [[0.0, 0.5]])


@pytest.mark.parametrize("style", TRAIN_STYLES + HELD_OUT_STYLES)
def test_clean_renders_are_read_right(style: str) -> None:
    rng = np.random.default_rng(7)
    wrong = []
    for letter, rotation in hypotheses():
        art = render_tile(letter, rotation, STYLES[style], PATCH, rng)
        assert art.shape == (PATCH, PATCH, 3) and art.dtype == np.uint8
        features = read_tile(~field_mask(art), blue_mask(art), np.ones((PATCH, PATCH), bool))
        got = match_board({(0, 0): features})[(0, 0)]
        if (got.letter, got.rotation) != (letter, rotation):
            wrong.append((letter, rotation, got.letter, got.rotation))
    assert len(wrong) <= 2, wrong


@pytest.mark.parametrize("letter", sorted(TILES))
def test_meeple_spots_name_their_own_feature(letter: str) -> None:
    for rotation in distinct_rotations(letter):
        for kind, index, point in meeple_spots(letter):
            u, v = rotate_points(np.array([point]), rotation)[0]
            expected = "monastery" if kind == "monastery" else feature_edge(letter, rotation, kind, index)
            assert feature_at(letter, rotation, u, v) == expected


def test_feature_edge_names_a_part_by_its_first_edge_as_it_lies() -> None:
    # M: one city over N and W; turned 90 it covers N and E, so it is named N
    assert feature_edge("M", 90, "city", 0) == "N"
    assert feature_edge("M", 180, "city", 0) == "E"
    assert same_part("M", 180, "E", "S") and not same_part("I", 0, "N", "W")


def test_random_boards_are_legal_and_meeples_sit_on_tiles() -> None:
    for seed in range(20):
        rng = np.random.default_rng(seed)
        board = random_board(72, rng)
        assert board.tiles[(0, 0)] == ("D", 0) and 60 <= len(board.tiles) <= 72
        for cell, (letter, rotation) in board.tiles.items():
            others = dict(board.tiles)
            del others[cell]
            assert fits(others, cell, letter, rotation) or len(board.tiles) == 1
        add_meeples(board, ("red", "blue"), 10, rng)
        assert len({m.cell for m in board.meeples}) == len(board.meeples) <= 10
        assert all(m.cell in board.tiles and 0 <= m.point[0] <= 1 and 0 <= m.point[1] <= 1 for m in board.meeples)
