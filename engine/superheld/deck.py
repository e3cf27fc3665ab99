"""Cards as small ints (suit * 13 + value - 1) and the two decks' roles: map cards and ghosts.

Both decks use the same codes; which deck a card belongs to follows from where the move names it
(a map card is walked to or placed, a ghost is traded or deployed).
"""

from __future__ import annotations

import random

from engine.cards import RANKS, SUITS, Card, CardError, parse_card

GAME = "superheld"
FOREST_VALUES = frozenset({5, 6})
LOWER_GHOST_VALUES = range(1, 8)  # A..7
WARRIOR_VALUES = range(8, 14)  # 8..K
VILLAGE_MAX = 10  # 2..10 villages, J Q K cities
KING = 13


def card_id(card: Card) -> int:
    return SUITS.index(card.suit) * 13 + card.value(GAME) - 1


def value(c: int) -> int:
    return c % 13 + 1


def suit(c: int) -> int:
    return c // 13


def code(c: int) -> str:
    return RANKS[c % 13] + SUITS[suit(c)]


def codes(cards: object) -> list[str]:
    return [code(c) for c in cards]  # type: ignore[attr-defined]


def parse(text: object) -> int:
    """A card code as an int; ValueError (what the record layer reports) when it names no card."""
    try:
        return card_id(parse_card(text))  # type: ignore[arg-type]
    except CardError as exc:
        raise ValueError(str(exc)) from None


def is_village(c: int) -> bool:
    return value(c) <= VILLAGE_MAX


def is_map_card(c: int) -> bool:
    """Aces are the skill piles; every other card of deck 1 lies on the map."""
    return value(c) != 1


def is_forest_card(c: int) -> bool:
    return value(c) in FOREST_VALUES


ALL_CARDS: tuple[int, ...] = tuple(range(52))
MAP_CARDS: frozenset[int] = frozenset(c for c in ALL_CARDS if is_map_card(c))
FOREST_CARDS: frozenset[int] = frozenset(c for c in MAP_CARDS if is_forest_card(c))
LOWER_GHOSTS: frozenset[int] = frozenset(c for c in ALL_CARDS if value(c) in LOWER_GHOST_VALUES)
WARRIORS: frozenset[int] = frozenset(c for c in ALL_CARDS if value(c) in WARRIOR_VALUES)


def shuffled(cards: frozenset[int], rng: random.Random) -> list[int]:
    """`cards` in a seeded random order, top card first (sorted first so the order never depends on hashing)."""
    order = sorted(cards)
    rng.shuffle(order)
    return order
