"""Random legal Strijders games from seeds: cards are conserved, illegal moves change nothing, undo is exact."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.game import FINISHED, PLAYING, IllegalMove
from engine.match import Match
from engine.record import Record
from engine.strijders.bench import bench_catalog, strijders_games
from engine.strijders.game import Lay, Manual, Rps, Strijders

DATA = Path(__file__).resolve().parent.parent / "datasets" / "strijders"
EXAMPLE = json.loads((DATA / "catalog.json").read_text(encoding="utf-8"))
STEP_TEXTS = ["self +2", "opponent -3", "set self 6", "set opponent 1", "copy opponent", "copy self", "swap",
              "draw self 1", "draw opponent 2", "discard self 1", "discard opponent 2", "look opponent 2",
              "look self all", "mimic", "manual", "none"]
TYPES = ["normal", "normal", "superheld", "raadslid", "vip", "karma"]
RARITIES = ["yellow", "green", "blue", "red", "hero"]


def random_catalog(rng: random.Random) -> dict[str, Any]:
    cards = []
    for i in range(rng.randint(6, 14)):
        steps = rng.sample(STEP_TEXTS[:-1], rng.randint(1, 3)) if rng.random() < 0.8 else ["none"]
        cards.append({"id": f"c{i}", "name": f"Card {i}", "score": rng.randint(0, 10), "rarity": rng.choice(RARITIES),
                      "type": rng.choice(TYPES), "effect": "; ".join(steps)})
    cards.append({"id": "filler", "name": "Filler", "score": 3, "rarity": "yellow", "type": "normal"})
    return {"cards": cards}


def random_illegal(game: Strijders, rng: random.Random) -> Any:
    """A well-formed move that is illegal now (or None when every candidate is legal)."""
    ids = list(game.catalog.by_id)
    candidates = [Lay(rng.choice(ids), rng.choice(ids)), Rps(rng.randint(0, 1)), Manual(1, 2)]
    illegal = [m for m in candidates if game.check(m) is not None]
    return rng.choice(illegal) if illegal else None


def play_out(game: Strijders, rng: random.Random) -> list[Any]:
    size = 2 * game.deck_size
    while game.status == PLAYING:
        assert game.score is None
        bad = random_illegal(game, rng)
        if bad is not None:
            before = game.state()
            with pytest.raises(IllegalMove):
                game.push(bad)
            assert game.state() == before
        game.push(rng.choice(game.legal_moves()))
        assert sorted(game.cards_accounted()) == list(range(size))
        assert game.table.round <= game.deck_size
    return game.move_stack


@pytest.mark.parametrize("variant", ["classic", "advanced"])
def test_random_games_with_the_example_catalog(variant: str) -> None:
    for seed in range(60):
        rng = random.Random(seed)
        scoring = rng.choice(["plain", "rarity"])
        game = Strijders({"catalog": EXAMPLE, "seed": seed}, {"variant": variant, "scoring": scoring})
        start = game.state()
        moves = play_out(game, rng)
        table = game.table
        assert game.status == FINISHED and game.state()["pending"] is None
        assert not table.hands[0] or not table.hands[1]
        penalty = [len(table.hands[p]) if variant == "advanced" else 0 for p in (0, 1)]
        assert game.score == {p: game.points(i) - penalty[i] for i, p in enumerate("ab")}
        if variant == "classic":
            assert table.round == 20 and not table.discards[0] and not table.discards[1]
            piles = sum(len(table.points[p]) + len(table.winners[p]) for p in (0, 1))
            assert piles == 40
        for _ in moves:
            game.pop()
        assert game.state() == start


def test_random_games_with_random_catalogs_replay_from_their_records() -> None:
    for seed in range(80):
        rng = random.Random(seed)
        setup = {"catalog": random_catalog(rng), "seed": seed}
        options = {"variant": "advanced", "deck_size": rng.choice([5, 12, 20])}
        game = Strijders(setup, options)
        moves = [game.format_move(m) for m in play_out(game, rng)]
        record = Record("strijders", options, setup, json.loads(json.dumps(moves)))
        replayed = Match.replay(record)
        assert replayed.violations == []
        assert replayed.to_json()["score"] == game.score
        assert {k: v for k, v in replayed.to_json().items() if k in game.state()} == game.state()


def test_the_benchmark_plays_whole_games() -> None:
    assert len(bench_catalog()["cards"]) == 24
    moves = strijders_games(20, 3)
    assert 20 * 10 <= moves <= 20 * 60 and strijders_games(20, 3) == moves
