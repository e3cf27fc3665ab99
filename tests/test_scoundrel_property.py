"""Thousands of random legal Scoundrel games: invariants hold at every step."""

import random

from engine import Match
from engine.record import Record
from engine.scoundrel import DECK, HEARTS, MAX_LIFE, Scoundrel, card_code, monster_value_sum


def expected_score(game: Scoundrel) -> int:
    if game.life <= 0:
        return game.life - monster_value_sum(game.dungeon + game.room)
    if game.life == MAX_LIFE and game.last_faced >> 4 == HEARTS:
        return MAX_LIFE + (game.last_faced & 15)
    return game.life


def test_random_games_keep_every_invariant() -> None:
    rng = random.Random(2026)
    outcomes = set()
    for i in range(3000):
        options = {"weapon_rule": rng.choice(["lower_or_equal", "strict"])}
        if i % 2:  # full shuffled dungeons: random play nearly always dies in them
            game = Scoundrel({"seed": rng.randrange(10**9)}, options)
        else:  # small random dungeons, where random play also wins
            cards = rng.sample([card_code(c) for c in DECK], rng.randrange(1, 12))
            game = Scoundrel({"dungeon": cards}, options)
        dealt = sorted(game.cards_accounted())
        while game.status == "playing":
            moves = game.legal_moves()
            assert moves, "a game in play always has a legal move"
            game.push(rng.choice(moves))
            assert sorted(game.cards_accounted()) == dealt
            assert game.life <= MAX_LIFE
            assert len(game.room) <= 4
            assert game.score is None or game.status != "playing"
        assert game.legal_moves() == []
        assert game.score == expected_score(game)
        if i % 2:
            assert dealt == sorted(DECK)
        outcomes.add(game.status)
    assert outcomes == {"won", "lost"}


def test_undo_walks_back_to_the_deal() -> None:
    rng = random.Random(7)
    for _ in range(200):
        game = Scoundrel({"seed": rng.randrange(10**9)}, {})
        start = game.state()
        states = []
        while game.status == "playing":
            states.append(game.state())
            game.push(rng.choice(game.legal_moves()))
        while states:
            game.pop()
            assert game.state() == states.pop()
        assert game.state() == start


def test_random_games_replay_identically_from_their_record() -> None:
    rng = random.Random(11)
    for _ in range(200):
        seed = rng.randrange(10**9)
        game = Scoundrel({"seed": seed}, {})
        while game.status == "playing":
            game.push(rng.choice(game.legal_moves()))
        record = Record("scoundrel", {}, {"seed": seed}, [game.format_move(m) for m in game.move_stack])
        out = Match.replay(record).to_json()
        assert out["violations"] == []
        assert (out["status"], out["score"], out["life"]) == (game.status, game.score, game.life)
