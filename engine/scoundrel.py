"""Scoundrel (Zach Gage & Kurt Bieg): the solo dungeon crawl with 44 cards.

Cards are small ints inside the engine (suit * 16 + value, value 2..14) so that random playouts,
used for hints and win chances, run at tens of thousands of games per second; `Card` objects
and codes appear only at the record boundary.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from engine.cards import SUITS, Card, CardError, parse_card, parse_cards
from engine.game import LOST, PLAYING, WON, Game, IllegalMove, RecordError

MAX_LIFE = 20
ROOM_SIZE = 4
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
MONSTER_SUITS = (SPADES, CLUBS)
WEAPON_RULES = ("lower_or_equal", "strict")

RUN, EQUIP, DRINK, FIGHT_BARE, FIGHT_WEAPON = range(5)
ACTION_WORDS = {"run": RUN, "equip": EQUIP, "drink": DRINK}
FIGHT_MODES = {"bare": FIGHT_BARE, "weapon": FIGHT_WEAPON}


def card_int(card: Card) -> int:
    return SUITS.index(card.suit) * 16 + card.value("scoundrel")


def card_code(c: int) -> str:
    value, suit = c & 15, SUITS[c >> 4]
    rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(value, str(value))
    return rank + suit


def is_scoundrel_card(card: Card) -> bool:
    """Red faces and red aces are set aside; jokers never reach here."""
    return not (card.red and card.rank in ("J", "Q", "K", "A"))


DECK: tuple[int, ...] = tuple(
    card_int(Card(r, s)) for s in SUITS for r in ("A", *map(str, range(2, 11)), "J", "Q", "K")
    if is_scoundrel_card(Card(r, s))
)


class Move(NamedTuple):
    kind: int
    card: int = 0  # 0 for run


def monster_value_sum(cards: list[int]) -> int:
    return sum(c & 15 for c in cards if (c >> 4) in MONSTER_SUITS)


class Scoundrel(Game):
    name = "scoundrel"

    def __init__(self, setup: dict[str, Any], options: dict[str, Any]) -> None:
        super().__init__(setup, options)
        self.strict = _read_weapon_rule(options)
        dungeon = _read_dungeon(setup)
        self.life = MAX_LIFE
        self.dungeon: list[int] = dungeon[::-1]  # top card last, so drawing is list.pop()
        self.room: list[int] = []
        self.weapon = 0
        self.slain: list[int] = []
        self.discard: list[int] = []
        self.ran_last = False
        self.faced = 0  # cards faced in this room
        self.potion_used = False
        self.last_faced = 0
        self._deal()

    # -- record boundary ----------------------------------------------------------------------
    def parse_move(self, raw: Any) -> Move:
        if not isinstance(raw, str):
            raise ValueError("a Scoundrel move is a string such as 'fight QS weapon'")
        words = raw.split()
        if words == ["run"]:
            return Move(RUN)
        if len(words) == 2 and words[0] in ACTION_WORDS and words[0] != "run":
            return Move(ACTION_WORDS[words[0]], _game_card(words[1]))
        if len(words) == 3 and words[0] == "fight" and words[2] in FIGHT_MODES:
            return Move(FIGHT_MODES[words[2]], _game_card(words[1]))
        raise ValueError("expected 'run', 'equip CARD', 'drink CARD' or 'fight CARD bare|weapon'")

    def format_move(self, move: Move) -> str:
        if move.kind == RUN:
            return "run"
        code = card_code(move.card)
        if move.kind in (FIGHT_BARE, FIGHT_WEAPON):
            return f"fight {code} {'bare' if move.kind == FIGHT_BARE else 'weapon'}"
        return f"{'equip' if move.kind == EQUIP else 'drink'} {code}"

    # -- rules --------------------------------------------------------------------------------
    def can_run(self) -> bool:
        return self.faced == 0 and not self.ran_last and bool(self.dungeon) and bool(self.room)

    def legal_moves(self) -> list[Move]:
        if self.life <= 0 or not self.room:
            return []
        moves = [Move(RUN)] if self.can_run() else []
        for c in self.room:
            suit = c >> 4
            if suit == DIAMONDS:
                moves.append(Move(EQUIP, c))
            elif suit == HEARTS:
                moves.append(Move(DRINK, c))
            else:
                moves.append(Move(FIGHT_BARE, c))
                if self._weapon_fits(c):
                    moves.append(Move(FIGHT_WEAPON, c))
        return moves

    def _weapon_fits(self, monster: int) -> bool:
        if not self.weapon:
            return False
        if not self.slain:
            return True
        last = self.slain[-1] & 15
        value = monster & 15
        return value < last if self.strict else value <= last

    def check(self, move: Move) -> IllegalMove | None:
        if self.status != PLAYING:
            return IllegalMove("game-over", f"the game is already {self.status}")
        if move.kind == RUN:
            return self._check_run()
        code = card_code(move.card)
        if move.card not in self.room:
            return IllegalMove("not-in-room", f"{code} is not in the room ({self._room_text()})")
        suit = move.card >> 4
        wanted = {EQUIP: (DIAMONDS,), DRINK: (HEARTS,)}.get(move.kind, MONSTER_SUITS)
        if suit not in wanted:
            kind = {DIAMONDS: "a weapon", HEARTS: "a potion"}.get(suit, "a monster")
            verb = self.format_move(move).split()[0]
            return IllegalMove("wrong-action", f"{code} is {kind}; it cannot be used with '{verb}'")
        if move.kind == FIGHT_WEAPON and not self._weapon_fits(move.card):
            if not self.weapon:
                return IllegalMove("no-weapon", f"no weapon is equipped to fight {code} with")
            last = card_code(self.slain[-1])
            bound = "lower than" if self.strict else "at most"
            return IllegalMove(
                "weapon-blunted",
                f"the weapon {card_code(self.weapon)} last slew {last}; it only fights monsters "
                f"{bound} {self.slain[-1] & 15}, not {code}",
            )
        return None

    def _check_run(self) -> IllegalMove | None:
        if self.faced:
            return IllegalMove("run-after-facing", "a room can only be fled before any of its cards is faced")
        if self.ran_last:
            return IllegalMove("run-twice", "you may not flee two rooms in a row")
        if not self.dungeon:
            return IllegalMove("run-empty-dungeon", "the dungeon is empty: the last room must be faced")
        return None

    def _room_text(self) -> str:
        return " ".join(card_code(c) for c in self.room) or "empty"

    def _apply(self, move: Move) -> None:
        kind, c = move
        if kind == RUN:
            self.dungeon[:0] = self.room[::-1]
            self.room.clear()
            self.ran_last = True
            self._deal()
            return
        self.room.remove(c)
        value = c & 15
        if kind == EQUIP:
            if self.weapon:
                self.discard.append(self.weapon)
                self.discard.extend(self.slain)
            self.weapon = c
            self.slain = []
        elif kind == DRINK:
            if not self.potion_used:
                self.life = min(MAX_LIFE, self.life + value)
                self.potion_used = True
            self.discard.append(c)
        elif kind == FIGHT_BARE:
            self.life -= value
            self.discard.append(c)
        else:
            self.life -= max(0, value - (self.weapon & 15))
            self.slain.append(c)
        self.last_faced = c
        self.faced += 1
        if not self.room and not self.dungeon:
            return  # the whole dungeon is faced: the turn's state stays as the player left it
        if self.faced == ROOM_SIZE - 1 and len(self.room) == 1 or not self.room:
            self.ran_last = False
            self._deal()

    def _deal(self) -> None:
        """Start a new turn: fill the room to four from the top of the dungeon."""
        room, dungeon = self.room, self.dungeon
        while len(room) < ROOM_SIZE and dungeon:
            room.append(dungeon.pop())
        self.faced = 0
        self.potion_used = False

    def _snapshot(self) -> tuple[Any, ...]:
        return (self.life, self.dungeon[:], self.room[:], self.weapon, self.slain[:], self.discard[:],
                self.ran_last, self.faced, self.potion_used, self.last_faced)

    def _restore(self, s: tuple[Any, ...]) -> None:
        (self.life, self.dungeon, self.room, self.weapon, self.slain, self.discard,
         self.ran_last, self.faced, self.potion_used, self.last_faced) = s

    # -- outcome ------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        if self.life <= 0:
            return LOST
        return WON if not self.room and not self.dungeon else PLAYING

    @property
    def score(self) -> int | None:
        status = self.status
        if status == LOST:
            return self.life - monster_value_sum(self.dungeon) - monster_value_sum(self.room)
        if status == WON:
            if self.life == MAX_LIFE and self.last_faced >> 4 == HEARTS:
                return MAX_LIFE + (self.last_faced & 15)
            return self.life
        return None

    def state(self) -> dict[str, Any]:
        return {
            "life": self.life,
            "room": [card_code(c) for c in self.room],
            "weapon": card_code(self.weapon) if self.weapon else None,
            "weapon_monsters": [card_code(c) for c in self.slain],
            "dungeon_left": len(self.dungeon),
            "discard": len(self.discard),
            "can_run": self.status == PLAYING and self.can_run(),
            "potion_used_this_turn": self.potion_used,
        }

    def cards_accounted(self) -> list[int]:
        """Every card the game holds, wherever it lies (for the conservation invariant)."""
        return self.dungeon + self.room + ([self.weapon] if self.weapon else []) + self.slain + self.discard


def playout(game: Scoundrel, rng: random.Random) -> int:
    """Play uniformly random legal moves to the end, in place and without history; return the moves played."""
    legal, apply = game.legal_moves, game._apply
    played = 0
    while True:
        moves = legal()
        if not moves:
            return played
        apply(moves[int(rng.random() * len(moves))])
        played += 1


def _game_card(code: str) -> int:
    try:
        card = parse_card(code)
    except CardError as exc:
        raise ValueError(str(exc)) from None
    if not is_scoundrel_card(card):
        raise ValueError(f"{card.code} is not a Scoundrel card (red faces and red aces are set aside)")
    return card_int(card)


def _read_weapon_rule(options: dict[str, Any]) -> bool:
    unknown = set(options) - {"weapon_rule"}
    if unknown:
        raise RecordError(f"unknown option(s) {sorted(unknown)}; Scoundrel knows 'weapon_rule'", "options")
    rule = options.get("weapon_rule", WEAPON_RULES[0])
    if rule not in WEAPON_RULES:
        raise RecordError(f"weapon_rule must be one of {list(WEAPON_RULES)}, got {rule!r}", "options.weapon_rule")
    return rule == "strict"


def _read_dungeon(setup: dict[str, Any]) -> list[int]:
    """The dungeon, top card first: given card by card, or shuffled from a seed."""
    if set(setup) not in ({"dungeon"}, {"seed"}):
        raise RecordError("give exactly one of 'dungeon' (card codes, top first) or 'seed'", "setup")
    if "seed" in setup:
        seed = setup["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"must be an integer, got {seed!r}", "setup.seed")
        return deal(seed)
    try:
        cards = parse_cards(setup["dungeon"], "setup.dungeon")
    except CardError as exc:
        raise RecordError(str(exc)) from None
    for i, card in enumerate(cards):
        if not is_scoundrel_card(card):
            raise RecordError(f"{card.code} is not a Scoundrel card (red faces and red aces are set aside)",
                              f"setup.dungeon[{i}]")
    return [card_int(c) for c in cards]


def deal(seed: int) -> list[int]:
    """The full 44-card dungeon shuffled by `seed`, top card first."""
    cards = list(DECK)
    random.Random(seed).shuffle(cards)
    return cards
