"""Everything on the table, as one value that the rules copy before they change it."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.game import LOST, PLAYING
from engine.superheld.map import Rect

BUILD, START, JOURNEY, BATTLE, OVER = "build", "start", "journey", "battle", "over"
SOLO, COOP = "solo", "coop"
HEROES = {SOLO: 1, COOP: 2}
MAP_SIZE = 48
FOREST_SIZE = 8


@dataclass(slots=True)
class Hero:
    at: int = -1  # map card the hero stands on; -1 before the start
    coins: int = 0
    ghosts: list[int] = field(default_factory=list)  # lower ghosts held, in the order received
    warriors: list[int] = field(default_factory=list)  # ghost warriors (allies), in the order received

    def copy(self) -> Hero:
        return Hero(self.at, self.coins, self.ghosts[:], self.warriors[:])


@dataclass(slots=True)
class State:
    variant: str = SOLO
    forest_rule: bool = True  # the Dark Forest: first 8 cards, the 5s and 6s, face down
    seed: int = 0  # reshuffles of the wizard's fought pile
    # the map; `rects`, `order` and `adj` are replaced, never changed in place, so copies share them
    rects: dict[int, Rect] = field(default_factory=dict)
    order: tuple[int, ...] = ()  # placement order
    adj: dict[int, frozenset[int]] = field(default_factory=dict)
    capital: int = -1
    phase: str = BUILD
    present: set[int] = field(default_factory=set)  # map cards not taken (holes are the rest)
    hidden: set[int] = field(default_factory=set)  # forest cards still face down
    skill: list[int] = field(default_factory=lambda: [1, 1, 1, 1])  # top value per suit
    heroes: list[Hero] = field(default_factory=lambda: [Hero()])
    to_move: int = 0
    monsters: set[int] = field(default_factory=set)  # co-op villages whose monster still stands
    lower_deck: list[int] = field(default_factory=list)  # top card last
    warrior_deck: list[int] = field(default_factory=list)  # top card last (face up); the wizard's deck in battle
    ghosts_out: list[int] = field(default_factory=list)  # traded lower ghosts, out of the game
    # the final battle
    deployed: list[list[int]] = field(default_factory=list)  # per hero: in position, not yet fought
    spent: list[list[int]] = field(default_factory=list)  # per hero: fought this round
    wizard_fought: list[int] = field(default_factory=list)  # face up, reshuffled when the deck runs out
    rounds: int = 0
    reshuffles: int = 0
    result: str = PLAYING
    reason: str = ""  # why the game was lost: a short id ...
    message: str = ""  # ... and a sentence

    def copy(self) -> State:
        return State(
            self.variant, self.forest_rule, self.seed, self.rects, self.order, self.adj, self.capital, self.phase,
            set(self.present), set(self.hidden), self.skill[:], [h.copy() for h in self.heroes], self.to_move,
            set(self.monsters), self.lower_deck[:], self.warrior_deck[:], self.ghosts_out[:],
            [d[:] for d in self.deployed], [s[:] for s in self.spent], self.wizard_fought[:], self.rounds,
            self.reshuffles, self.result, self.reason, self.message,
        )

    @property
    def hero(self) -> Hero:
        return self.heroes[self.to_move]

    def lose(self, reason: str, message: str) -> None:
        self.result, self.reason, self.message, self.phase = LOST, reason, message, OVER
