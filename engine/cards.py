"""Playing cards: ranks, suits, codes, and the values each game gives them.

A card is a small frozen value. Codes are `QS`, `10H`, `TH` or `Q♠` on input and always
`QS` / `10H` on output, the form every record and every recogniser uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RED_SUITS: frozenset[str] = frozenset({"H", "D"})
RANK_ALIASES: dict[str, str] = {"T": "10", "1": "A"}

# Value tables: each game that gives cards a number names its table here.
_HIGH_ACE = {r: i + 2 for i, r in enumerate(RANKS[1:])} | {"A": 14}
_LOW_ACE = {r: i + 1 for i, r in enumerate(RANKS)}
VALUE_TABLES: dict[str, dict[str, int]] = {
    "scoundrel": _HIGH_ACE,  # monsters 2..14, J 11, Q 12, K 13, A 14
    "superheld": _LOW_ACE,  # villages 2..10, cities J 11, Q 12, K 13, ghosts A 1
}


class CardError(ValueError):
    """A card code that names no card."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise CardError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def code(self) -> str:
        return self.rank + self.suit

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    def value(self, game: str) -> int:
        """The card's number in `game`'s own counting (see VALUE_TABLES)."""
        return VALUE_TABLES[game][self.rank]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


@cache
def parse_card(code: str) -> Card:
    """Read `QS`, `10H`, `TH`, `1C`, `Q♠` (any case, surrounding spaces ignored)."""
    if not isinstance(code, str):
        raise CardError(f"a card code must be a string, got {code!r}")
    text = code.strip().upper()
    if len(text) < 2:
        raise CardError(f"not a card code: {code!r}")
    suit = SUIT_SYMBOLS.get(text[-1], text[-1])
    rank = RANK_ALIASES.get(text[:-1], text[:-1])
    if rank not in RANKS or suit not in SUITS:
        raise CardError(f"not a card code: {code!r}")
    return Card(rank, suit)


def full_deck() -> list[Card]:
    """The 52 cards, suit by suit in S H D C order, ace to king."""
    return [Card(r, s) for s in SUITS for r in RANKS]


def parse_cards(codes: object, what: str) -> list[Card]:
    """Parse a JSON list of codes, refusing duplicates; `what` names the list in errors."""
    if not isinstance(codes, list):
        raise CardError(f"{what} must be a list of card codes")
    cards: list[Card] = []
    seen: set[Card] = set()
    for i, code in enumerate(codes):
        try:
            card = parse_card(code)
        except CardError as exc:
            raise CardError(f"{what}[{i}]: {exc}") from None
        if card in seen:
            raise CardError(f"{what}[{i}]: duplicate card {card.code}")
        seen.add(card)
        cards.append(card)
    return cards
