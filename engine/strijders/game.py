"""Strijders ("Maak ze in strijders"): the two-player custom card battle, classic and advanced.

A round's first move lays both players' cards at once (the simultaneous reveal). In the advanced
variant the round may then wait for a rock-paper-scissors result and for the scores after each
manual effect; `pending` in the output says which.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from engine.game import FINISHED, PLAYING, Game, IllegalMove, RecordError
from engine.strijders import advanced
from engine.strijders.catalog import CardSpec, Catalog, deal_deck, read_catalog, read_deck
from engine.strijders.classic import SCORINGS, TIE, is_over, pile_value, reveal, settle
from engine.strijders.table import LAY, MANUAL, PLAYERS, RPS, Table

DECK_SIZE = 20
OPTIONS: dict[str, Any] = {"variant": "classic", "scoring": "plain", "deck_size": DECK_SIZE}
SETUP_KEYS: frozenset[str] = frozenset({"catalog", "decks", "seed"})
MOVE_SHAPES = '{"a": CARD, "b": CARD}, {"rps": "a"|"b"|{"a": THROW, "b": THROW}} or {"manual": {"a": N, "b": N}}'
PENDING_TEXT: dict[str, str] = {
    LAY: 'both players lay a card: {"a": CARD, "b": CARD}',
    RPS: 'the revealed scores tie: the rock-paper-scissors result comes first: {"rps": "a"|"b"}',
    MANUAL: 'a manual effect is being carried out: its resulting scores come first: {"manual": {"a": N, "b": N}}',
}


class Lay(NamedTuple):
    a: str
    b: str


class Rps(NamedTuple):
    winner: int  # 0 or 1; -1 when both threw the same
    throws: tuple[str, str] | None = None  # None when the record names the winner


class Manual(NamedTuple):
    a: int
    b: int


Move = Lay | Rps | Manual
PHASE_OF: dict[type, str] = {Lay: LAY, Rps: RPS, Manual: MANUAL}  # the phase in which each move is due
AFTER_REVEAL: dict[str, Callable[[Table], None]] = {"classic": settle, "advanced": advanced.begin_effects}


class Strijders(Game):
    name = "strijders"

    def __init__(self, setup: dict[str, Any], options: dict[str, Any]) -> None:
        super().__init__(setup, options)
        self.variant, self.scoring, self.deck_size = _read_options(options)
        unknown = set(setup) - SETUP_KEYS
        if unknown:
            raise RecordError(f"unknown field(s) {sorted(unknown)}; Strijders knows {sorted(SETUP_KEYS)}", "setup")
        if "catalog" not in setup:
            raise RecordError("the players' card catalog is missing", "setup.catalog")
        self.catalog = read_catalog(setup["catalog"], "setup.catalog")
        seed = _read_seed(setup)
        self.table = Table(_read_decks(setup, self.catalog, self.deck_size, seed), seed or 0)
        self.table.refill(0)
        self.table.refill(1)

    # -- record boundary ----------------------------------------------------------------------
    def parse_move(self, raw: Any) -> Move:  # type: ignore[override]
        """An instance method (Match calls it on the game) so that card ids are checked against the catalog."""
        if not isinstance(raw, dict):
            raise ValueError(f"a Strijders move is a JSON object: {MOVE_SHAPES}")
        keys = set(raw)
        if keys == {"a", "b"}:
            return Lay(self._card_id(raw["a"], "a"), self._card_id(raw["b"], "b"))
        if keys == {"rps"}:
            return _parse_rps(raw["rps"])
        if keys == {"manual"}:
            return _parse_manual(raw["manual"])
        raise ValueError(f"expected {MOVE_SHAPES}")

    def _card_id(self, value: Any, player: str) -> str:
        if not isinstance(value, str) or value not in self.catalog:
            raise ValueError(f"player {player}'s card {value!r} is not in the catalog")
        return value

    def format_move(self, move: Move) -> dict[str, Any]:
        if isinstance(move, Lay):
            return {"a": move.a, "b": move.b}
        if isinstance(move, Rps):
            if move.throws is not None:
                return {"rps": dict(zip(PLAYERS, move.throws, strict=True))}
            return {"rps": PLAYERS[move.winner]}
        return {"manual": {"a": move.a, "b": move.b}}

    # -- rules --------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every lay or rock-paper-scissors result; for a manual step (any two whole numbers are
        legal) only the entry that keeps the current scores."""
        if self.status != PLAYING:
            return []
        table = self.table
        if table.phase == RPS:
            return [Rps(0), Rps(1)]
        if table.phase == MANUAL:
            return [Manual(*table.scores)]
        a_ids, b_ids = dict.fromkeys(table.hand_ids(0)), dict.fromkeys(table.hand_ids(1))
        return [Lay(a, b) for a in a_ids for b in b_ids]

    def check(self, move: Move) -> IllegalMove | None:
        if self.status != PLAYING:
            return IllegalMove("game-over", f"the game is already {self.status}")
        if PHASE_OF[type(move)] != self.table.phase:
            return IllegalMove(f"{self.table.phase}-pending", PENDING_TEXT[self.table.phase])
        if isinstance(move, Lay):
            return self._check_lay(move)
        if isinstance(move, Rps) and move.winner == TIE and move.throws is not None:
            return IllegalMove("rps-draw", f"both threw {move.throws[0]}: throw again")
        return None

    def _check_lay(self, move: Lay) -> IllegalMove | None:
        for player, card_id in enumerate(move):
            hand = self.table.hand_ids(player)
            if card_id not in hand:
                return IllegalMove("not-in-hand", f"player {PLAYERS[player]} has no {card_id!r} in hand "
                                                  f"({', '.join(hand) or 'empty'})")
        return None

    def _apply(self, move: Move) -> None:
        table = self.table
        if isinstance(move, Lay):
            reveal(table, move.a, move.b)
            AFTER_REVEAL[self.variant](table)
        elif isinstance(move, Rps):
            advanced.order_effects(table, move.winner)
        else:
            advanced.enter_manual(table, (move.a, move.b))

    def _snapshot(self) -> tuple[Any, ...]:
        return self.table.snapshot()

    def _restore(self, snapshot: tuple[Any, ...]) -> None:
        self.table.restore(snapshot)

    # -- outcome ------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        return FINISHED if is_over(self.table) else PLAYING

    def points(self, player: int) -> int:
        return pile_value(self.table, player, self.scoring)

    def final_points(self, player: int) -> int:
        penalty = advanced.hand_penalty(self.table, player) if self.variant == "advanced" else 0
        return self.points(player) - penalty

    @property
    def score(self) -> dict[str, int] | None:  # type: ignore[override]
        """Both players' final points, `{"a": N, "b": N}`; None while playing."""
        if self.status == PLAYING:
            return None
        return {p: self.final_points(i) for i, p in enumerate(PLAYERS)}

    def winner(self) -> str | None:
        score = self.score
        if score is None:
            return None
        return "tie" if score["a"] == score["b"] else max(score, key=score.__getitem__)

    def state(self) -> dict[str, Any]:
        table = self.table
        return {
            "variant": self.variant,
            "scoring": self.scoring,
            "round": table.round,
            "pending": table.phase if self.status == PLAYING else None,
            "hands": _per_player(table.hand_ids),
            "decks_left": _per_player(lambda p: len(table.decks[p])),
            "field": self._field(),
            "points": _per_player(self.points),
            "points_piles": _per_player(lambda p: table.ids(table.points[p])),
            "winners_piles": _per_player(lambda p: table.ids(table.winners[p])),
            "discards": _per_player(lambda p: table.ids(table.discards[p])),
            "last_round": self._last_round(),
            "winner": self.winner(),
        }

    def _field(self) -> dict[str, Any] | None:
        table = self.table
        if not table.field:
            return None
        return {
            "cards": _per_player(lambda p: table.specs[table.field[p]].id),
            "scores": _per_player(lambda p: table.scores[p]),
            "first": PLAYERS[table.first] if table.first >= 0 else None,
        }

    def _last_round(self) -> dict[str, Any] | None:
        last = self.table.last
        if last is None:
            return None
        return {
            "round": last.round,
            "cards": _per_player(lambda p: self.table.specs[last.cards[p]].id),
            "scores": _per_player(lambda p: last.scores[p]),
            "winner": "tie" if last.winner == TIE else PLAYERS[last.winner],
        }

    def cards_accounted(self) -> list[int]:
        return self.table.all_cards()


def _per_player(value: Callable[[int], Any]) -> dict[str, Any]:
    return {p: value(i) for i, p in enumerate(PLAYERS)}


def _read_options(options: dict[str, Any]) -> tuple[str, str, int]:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise RecordError(f"unknown option(s) {sorted(unknown)}; Strijders knows {sorted(OPTIONS)}", "options")
    merged = OPTIONS | options
    choices = {"variant": tuple(AFTER_REVEAL), "scoring": tuple(SCORINGS)}
    for key, allowed in choices.items():
        if merged[key] not in allowed:
            raise RecordError(f"must be one of {list(allowed)}, got {merged[key]!r}", f"options.{key}")
    size = merged["deck_size"]
    if not isinstance(size, int) or isinstance(size, bool) or size < 1:
        raise RecordError(f"must be a whole number of at least 1 (the rules say {DECK_SIZE}), got {size!r}",
                          "options.deck_size")
    return merged["variant"], merged["scoring"], size


def _read_seed(setup: dict[str, Any]) -> int | None:
    seed = setup.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"must be an integer, got {seed!r}", "setup.seed")
    return seed


def _read_decks(setup: dict[str, Any], catalog: Catalog, size: int, seed: int | None) -> list[list[CardSpec]]:
    """Both decks, top card first: as listed, listed and shuffled by the seed, or dealt by the seed."""
    if "decks" not in setup:
        if seed is None:
            raise RecordError("give 'decks' ({'a': [ids], 'b': [ids]}, top card first), a 'seed', or both", "setup")
        rng = random.Random(seed)
        return [deal_deck(catalog, size, rng) for _ in PLAYERS]
    decks = setup["decks"]
    if not isinstance(decks, dict) or set(decks) != set(PLAYERS):
        raise RecordError("must be {'a': [card ids], 'b': [card ids]}, top card first", "setup.decks")
    read = [read_deck(decks[p], catalog, size, f"setup.decks.{p}") for p in PLAYERS]
    if seed is not None:
        rng = random.Random(seed)
        for deck in read:
            rng.shuffle(deck)
    return read


def _parse_rps(value: Any) -> Rps:
    if value in PLAYERS:
        return Rps(PLAYERS.index(value))
    if isinstance(value, dict) and set(value) == set(PLAYERS) and all(value[p] in advanced.BEATS for p in PLAYERS):
        winner = advanced.rps_winner(value["a"], value["b"])
        return Rps(TIE if winner is None else winner, (value["a"], value["b"]))
    raise ValueError("'rps' is the winner 'a' or 'b', or both throws {'a': 'rock'|'paper'|'scissors', 'b': ...}")


def _parse_manual(value: Any) -> Manual:
    if not isinstance(value, dict) or set(value) != set(PLAYERS):
        raise ValueError("'manual' gives both resulting scores: {'a': N, 'b': N}")
    for p in PLAYERS:
        if not isinstance(value[p], int) or isinstance(value[p], bool):
            raise ValueError(f"manual score for {p} must be a whole number, got {value[p]!r}")
    return Manual(value["a"], value["b"])
