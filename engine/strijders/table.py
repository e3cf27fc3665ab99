"""Everything that lies on a Strijders table, as one mutable object that snapshots in one go.

Cards are small ints (instances): player a's deck is 0..size-1, player b's size..2*size-1, so two
copies of the same catalog card stay two cards. `specs[i]` is instance i's catalog entry.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from engine.strijders.catalog import CardSpec
from engine.strijders.effects import Step

PLAYERS: tuple[str, str] = ("a", "b")
HAND_SIZE = 5
LAY, RPS, MANUAL = "lay", "rps", "manual"  # what the next move must be


class Action(NamedTuple):
    """One effect step waiting in the round's queue: whose it is and which card it comes from."""

    owner: int
    source: int
    step: Step


class RoundResult(NamedTuple):
    round: int
    cards: tuple[int, int]
    scores: tuple[int, int]
    winner: int  # 0, 1, or -1 for a tie


class Table:
    def __init__(self, decks: list[list[CardSpec]], seed: int) -> None:
        size = len(decks[0])
        self.specs: tuple[CardSpec, ...] = (*decks[0], *decks[1])
        self.owner: tuple[int, ...] = tuple(i // size for i in range(2 * size))
        # top card last, so drawing is list.pop()
        self.decks: list[list[int]] = [list(range(size))[::-1], list(range(size, 2 * size))[::-1]]
        self.hands: list[list[int]] = [[], []]
        self.winners: list[list[int]] = [[], []]
        self.points: list[list[int]] = [[], []]
        self.discards: list[list[int]] = [[], []]
        self.field: list[int] = []  # the two laid cards while a round is being resolved
        self.scores: list[int] = [0, 0]  # their current character scores
        self.phase = LAY
        self.queue: tuple[Action, ...] = ()
        self.cursor = 0
        self.first = -1  # who resolves effects first this round
        self.round = 1
        self.last: RoundResult | None = None
        self.seed = seed
        self.shuffles = 0

    def draw(self, player: int, n: int) -> None:
        deck, hand = self.decks[player], self.hands[player]
        for _ in range(min(n, len(deck))):
            hand.append(deck.pop())

    def refill(self, player: int) -> None:
        self.draw(player, HAND_SIZE - len(self.hands[player]))

    def shuffle(self, player: int) -> None:
        """A deck seen by an effect is shuffled; the n-th shuffle of a game is seeded, so replays agree."""
        random.Random(self.seed * 1_000_003 + self.shuffles).shuffle(self.decks[player])
        self.shuffles += 1

    def take_from_hand(self, player: int, card_id: str) -> int:
        hand = self.hands[player]
        for i, card in enumerate(hand):
            if self.specs[card].id == card_id:
                return hand.pop(i)
        raise KeyError(card_id)

    def hand_ids(self, player: int) -> list[str]:
        return [self.specs[c].id for c in self.hands[player]]

    def ids(self, cards: list[int]) -> list[str]:
        return [self.specs[c].id for c in cards]

    def all_cards(self) -> list[int]:
        """Every card wherever it lies (for the conservation invariant)."""
        zones = (self.decks, self.hands, self.winners, self.points, self.discards)
        return [c for zone in zones for pile in zone for c in pile] + self.field

    _STATE = ("decks", "hands", "winners", "points", "discards", "field", "scores")
    _PLAIN = ("phase", "queue", "cursor", "first", "round", "last", "shuffles")

    def snapshot(self) -> tuple[Any, ...]:
        lists = tuple([pile[:] for pile in getattr(self, name)] if name not in ("field", "scores")
                      else getattr(self, name)[:] for name in self._STATE)
        return lists + tuple(getattr(self, name) for name in self._PLAIN)

    def restore(self, snapshot: tuple[Any, ...]) -> None:
        for name, value in zip(self._STATE + self._PLAIN, snapshot, strict=True):
            setattr(self, name, value)
