"""Random legal solo games from many seeds: invariants, a flood-fill reference for the feature graph,
legal_moves against check, replay and undo."""

from __future__ import annotations

import random
from collections import deque
from typing import Any

import pytest

from engine.carcassonne.board import DELTA, MONASTERY, NEIGHBOURS8, opposite, oriented
from engine.carcassonne.game import Carcassonne, Move
from engine.carcassonne.playout import playout, random_turn
from engine.carcassonne.tiles import ROTATIONS, canonical_rotation
from engine.match import Match
from engine.record import Record


def reference_features(game: Carcassonne) -> dict[tuple[int, int], dict[str, Any]]:
    """Each (pos, part) -> its feature, found by flood fill over the laid tiles (no union-find)."""
    tiles = game.board.tiles
    on = {(m.pos, m.part): mid for mid, m in game.meeples.items()}
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for start in ((pos, i) for pos, t in tiles.items() for i in range(len(t.parts))):
        if start in out:
            continue
        comp, queue = {start}, deque([start])
        while queue:
            pos, i = queue.popleft()
            for side in tiles[pos].parts[i].sides:
                other = pos + DELTA[side]
                if other in tiles:
                    nxt = (other, tiles[other].edge_part[opposite(side)])
                    if nxt not in comp:
                        comp.add(nxt)
                        queue.append(nxt)
        feature = {
            "tiles": len({pos for pos, _ in comp}),
            "open": sum(pos + DELTA[s] not in tiles for pos, i in comp for s in tiles[pos].parts[i].sides),
            "shields": sum(tiles[pos].parts[i].shield for pos, i in comp),
            "meeples": {on[c] for c in comp if c in on},
        }
        for c in comp:
            out[c] = feature
    return out


def assert_graph_matches_reference(game: Carcassonne) -> None:
    graph = game.graph
    for (pos, i), feature in reference_features(game).items():
        root = graph.find(graph.part_nodes[pos][i])
        got = {
            "tiles": len(graph.tiles[root]),
            "open": graph.open[root],
            "shields": graph.shields[root],
            "meeples": set(graph.meeples[root]),
        }
        assert got == feature
        assert not (feature["open"] == 0 and feature["meeples"]), "a complete feature kept its meeples"
    for mid, m in game.meeples.items():
        tile = game.board.tiles[m.pos]
        if m.part == len(tile.parts):
            around = sum(m.pos + off in game.board.tiles for off in NEIGHBOURS8)
            assert around == graph.monastery_neighbours[m.pos] < 8
            assert graph.meeples[graph.part_nodes[m.pos][-1]] == (mid,)


def assert_invariants(game: Carcassonne, previous: list[int]) -> None:
    assert all(now >= before for now, before in zip(game.scores, previous, strict=True)), "a score fell"
    on_board = [sum(m.colour == c for m in game.meeples.values()) for c in range(game.rules.colours)]
    assert [s + b for s, b in zip(game.supply, on_board, strict=True)] == [game.rules.meeples] * game.rules.colours
    assert len(game.board.tiles) + len(game.discarded) + sum(map(len, game.stacks)) == 72
    if game.end is None:
        assert game.board.can_place(game.tile or "")


@pytest.mark.parametrize("meeples", [4, 20])
def test_random_games_keep_the_invariants(meeples: int) -> None:
    ends: set[str] = set()
    for seed in range(40 if meeples == 4 else 12):
        rng = random.Random(seed)
        game = Carcassonne({"seed": seed}, {"meeples": meeples})
        turn = 0
        while game.end is None:
            before = list(game.scores)
            random_turn(game, rng)
            turn += 1
            assert_invariants(game, before)
            if turn % 9 == 0:
                assert_graph_matches_reference(game)
        assert_graph_matches_reference(game)
        assert game.score == min(game.scores) and game.status == "finished"
        ends.add(game.end)
        for scoring in game.scorings:
            assert set(scoring["to"]) <= set(scoring["majority"]) <= set(scoring["meeples"])
    assert ends <= {"no-meeple", "tiles-out"}
    if meeples == 20:
        assert "tiles-out" in ends


def normal(move: Move) -> tuple[Any, ...]:
    """A move with equal rotations and the edges of one part made the same."""
    tile = oriented(move.tile, move.rot)
    part = None if move.meeple is None else tile.part_at(move.meeple)
    if part is None or part < 0:
        sides: Any = part  # no meeple, or a spot with no feature
    else:
        sides = MONASTERY if part == len(tile.parts) else tile.parts[part].sides
    return move.x, move.y, canonical_rotation(move.tile, move.rot), sides


def test_legal_moves_are_exactly_the_moves_check_accepts() -> None:
    spots = [None, "N", "E", "S", "W", MONASTERY]
    for seed in range(3):
        rng = random.Random(seed)
        game = Carcassonne({"seed": seed}, {"meeples": 6})
        while game.end is None:
            legal = game.legal_moves()
            assert legal
            wanted = {normal(m) for m in legal}
            assert len(wanted) == len(legal)
            near = [(m.x, m.y) for m in legal] + [(rng.randint(-3, 3), rng.randint(-3, 3)) for _ in range(5)]
            for _ in range(40):
                x, y = rng.choice(near)
                probe = Move(game.tile or "", x, y, rng.choice(ROTATIONS), rng.choice(spots))
                state = game.state()
                assert (game.check(probe) is None) == (normal(probe) in wanted)
                assert game.state() == state
            game.push(rng.choice(legal))


def test_replay_and_undo_of_a_random_game() -> None:
    rng = random.Random(5)
    game = Carcassonne({"seed": 5}, {"meeples": 7})
    states = []
    while game.end is None:
        states.append(game.state())
        game.push(rng.choice(game.legal_moves()))
    record = Record("carcassonne", {"meeples": 7}, {"seed": 5}, [game.format_move(m) for m in game.move_stack])
    replayed = Match.replay(record).to_json()
    assert {k: replayed[k] for k in game.state()} == game.state()
    assert replayed["violations"] == []
    for state in reversed(states[-6:]):
        game.pop()
        assert game.state() == state


def test_playout_lays_every_tile_when_meeples_are_plenty() -> None:
    laid = []
    for seed in range(10):
        game = Carcassonne({"seed": seed}, {"meeples": 20, "colours": 4})
        laid.append(playout(game, random.Random(seed)) + len(game.discarded))
        assert game.end in ("tiles-out", "no-meeple")
    assert max(laid) == 71


def test_bench_plays_games_and_reports_the_placement_figure(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.carcassonne.playout import bench_games, full_board, placement_calls

    assert bench_games(5, 1) >= 5 * 10  # a random game lays at least ten tiles before meeples run out
    printed = capsys.readouterr().out
    assert "ms per random solo game" in printed and "legal-placements call on a 71-tile board" in printed
    assert len(full_board(3).board.tiles) == 71
    assert placement_calls(200, 3) < 0.001  # the target: under 1 ms per call
