"""A record's options and setup as the opening State; every problem is a RecordError that says where.

A setup map is refereed by the same code as map-building moves, so a map that breaks a building
rule is refused with the index of the first offending card.
"""

from __future__ import annotations

import random
from typing import Any

from engine.game import IllegalMove, RecordError
from engine.superheld.building import apply_capital, apply_place
from engine.superheld.coop import MONSTERS
from engine.superheld.deck import LOWER_GHOSTS, WARRIORS, code, is_forest_card, is_village, parse, shuffled, value
from engine.superheld.moves import Capital, Place, parse_move
from engine.superheld.state import COOP, HEROES, SOLO, Hero, State

OPTIONS = {"variant": (SOLO, COOP), "forest": (True, False)}
SETUP_KEYS = {"map", "capital", "lower_ghosts", "warriors", "seed", "monsters"}


def read_options(options: dict[str, Any]) -> tuple[str, bool]:
    unknown = set(options) - set(OPTIONS)
    if unknown:
        raise RecordError(f"unknown option(s) {sorted(unknown)}; Superheld knows {sorted(OPTIONS)}", "options")
    for key, allowed in OPTIONS.items():
        if key in options and options[key] not in allowed:
            raise RecordError(f"must be one of {list(allowed)}, got {options[key]!r}", f"options.{key}")
    variant, forest = options.get("variant", SOLO), options.get("forest", True)
    if variant == SOLO and not forest:
        raise RecordError("the solo game always has the Dark Forest; only the co-op game may leave it out",
                          "options.forest")
    return variant, forest


def read_state(setup: dict[str, Any], options: dict[str, Any]) -> State:
    variant, forest = read_options(options)
    unknown = set(setup) - SETUP_KEYS
    if unknown:
        raise RecordError(f"unknown field(s) {sorted(unknown)}; Superheld knows {sorted(SETUP_KEYS)}", "setup")
    seed = setup.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError(f"must be an integer, got {seed!r}", "setup.seed")
    rng = random.Random(seed)
    s = State(variant=variant, forest_rule=forest, seed=seed, heroes=[Hero() for _ in range(HEROES[variant])])
    s.lower_deck = _deck(setup, "lower_ghosts", LOWER_GHOSTS, "A..7", rng)
    s.warrior_deck = _deck(setup, "warriors", WARRIORS, "8..K", rng)
    for i, raw in enumerate(_list(setup, "map")):
        _referee(s, _placement(raw, f"setup.map[{i}]"), f"setup.map[{i}]")
    if "capital" in setup:
        _referee(s, Capital(_card(setup["capital"], "setup.capital")), "setup.capital")
    s.monsters = _monsters(setup, variant, forest)
    return s


def _list(setup: dict[str, Any], key: str) -> list[Any]:
    value = setup.get(key, [])
    if not isinstance(value, list):
        raise RecordError("must be a list", f"setup.{key}")
    return value


def _card(raw: Any, where: str) -> int:
    try:
        return parse(raw)
    except ValueError as exc:
        raise RecordError(str(exc), where) from None


def _deck(setup: dict[str, Any], key: str, cards: frozenset[int], ranks: str, rng: random.Random) -> list[int]:
    """A deck-2 pile, top card last inside the engine; given top first in the record, or shuffled by the seed."""
    if key not in setup:
        return shuffled(cards, rng)[::-1]
    order = [_card(raw, f"setup.{key}[{i}]") for i, raw in enumerate(_list(setup, key))]
    for i, c in enumerate(order):
        if c not in cards or c in order[:i]:
            why = "appears twice" if c in order[:i] else f"is not a {ranks} card"
            raise RecordError(f"{code(c)} {why}", f"setup.{key}[{i}]")
    if len(order) != len(cards):
        missing = " ".join(code(c) for c in sorted(cards - set(order)))
        raise RecordError(f"must hold all {len(cards)} cards {ranks} of deck 2 once; missing {missing}",
                          f"setup.{key}")
    return order[::-1]


def _placement(raw: Any, where: str) -> Place:
    """`["5S", col, row]`, `{"card": "5S", "col": 0, "row": 0}` or `{"card": "5S", "x": 0, "y": 0, "orient": ..}`."""
    if isinstance(raw, list) and len(raw) == 3:
        raw = {"card": raw[0], "col": raw[1], "row": raw[2]}
    if not isinstance(raw, dict) or "card" not in raw or "place" in raw:
        raise RecordError("a map entry is [code, col, row] or {\"card\": code, \"col\"/\"row\" or \"x\"/\"y\"}", where)
    try:
        move = parse_move({"place": raw["card"]} | {k: v for k, v in raw.items() if k != "card"})
    except (ValueError, TypeError, KeyError) as exc:
        raise RecordError(str(exc), where) from None
    assert isinstance(move, Place)
    return move


def _referee(s: State, move: Place | Capital, where: str) -> None:
    try:
        (apply_place if isinstance(move, Place) else apply_capital)(s, move)  # type: ignore[arg-type]
    except IllegalMove as problem:
        raise RecordError(f"{problem.message} ({problem.rule})", where) from None


def _monsters(setup: dict[str, Any], variant: str, forest: bool) -> set[int]:
    if variant != COOP:
        if "monsters" in setup:
            raise RecordError("monsters belong to the co-op game (options.variant = \"coop\")", "setup.monsters")
        return set()
    raw = _list(setup, "monsters")
    cards = [_card(c, f"setup.monsters[{i}]") for i, c in enumerate(raw)]
    if len(cards) != MONSTERS:
        raise RecordError(f"the co-op game has {MONSTERS} monster villages, got {len(cards)}", "setup.monsters")
    for i, c in enumerate(cards):
        if not is_village(c) or c in cards[:i] or (forest and is_forest_card(c)) or value(c) < 2:
            raise RecordError(f"{code(c)} cannot hold a monster: pick {MONSTERS} different face-up villages (2..10)",
                              f"setup.monsters[{i}]")
    return set(cards)

