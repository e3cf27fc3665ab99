"""A Scoundrel table as the camera sees it, and the dungeon order that stays hidden until cards are dealt.

The dungeon is a face-down pile, so the companion cannot know its order at the start. It keeps a full
order anyway: the cards seen so far at the places they were dealt from, the unseen ones in a fixed
order. When the camera first sees a card, it swaps places with the unseen card the engine dealt there.
Unseen cards never decided a move, so the swap changes no past move; once every card has been seen, the
order is the true one and the exported record equals the game on the table.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from companion.tables import UNREAD, read_code
from engine.cards import CardError, parse_card
from engine.game import Game, RecordError
from engine.scoundrel import DECK, card_code, deal, is_scoundrel_card

ROOM_SIZE = 4
FULL_DECK: tuple[str, ...] = tuple(card_code(c) for c in DECK)
VERBS: tuple[str, ...] = ("equip {}", "drink {}", "fight {} bare", "fight {} weapon")


@dataclass(frozen=True, slots=True)
class View:
    """One stable look at the table: room left to right, the weapon, the monsters fanned on it."""

    room: tuple[str, ...]
    weapon: str | None
    monsters: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"room": list(self.room), "weapon": self.weapon, "weapon_monsters": list(self.monsters)}

    def cards(self) -> list[str]:
        return [*self.room, *([self.weapon] if self.weapon else []), *self.monsters]


def parse_view(obs: Any) -> View:
    """Read a recogniser's Scoundrel zone dict; piles (dungeon, discard) are face down and not compared."""
    if not isinstance(obs, dict):
        raise ValueError("an observation must be a JSON object")
    room, monsters = obs.get("room", []), obs.get("weapon_monsters", [])
    if not isinstance(room, list) or not isinstance(monsters, list):
        raise ValueError("room and weapon_monsters must be lists of card codes")
    weapon = obs.get("weapon")
    return View(
        tuple(read_code(c, f"room[{i}]") for i, c in enumerate(room)),
        None if weapon is None else read_code(weapon, "weapon"),
        tuple(read_code(c, f"weapon_monsters[{i}]") for i, c in enumerate(monsters)),
    )


class ScoundrelTable:
    """The hidden dungeon order of one live game, and how a game state looks on the table."""

    zones = ("room", "weapon", "weapon_monsters")  # the lists and the one card the player may correct
    moves_in_view = True  # the referee names a violation only by a card the view shows (`wellformed_moves`)

    def __init__(self, setup: dict[str, Any]) -> None:
        self._fixed_setup: dict[str, Any] | None = None
        if set(setup) == {"deck"}:
            self.order = _read_deck(setup["deck"])
            self.seen: set[str] = set()
        else:  # a known order (dungeon or seed): nothing is hidden; the engine validates it
            self._fixed_setup = dict(setup)
            self.order = _known_order(setup)
            self.seen = set(self.order)

    # -- the record ---------------------------------------------------------------------------
    def record_setup(self) -> dict[str, Any]:
        return dict(self._fixed_setup) if self._fixed_setup is not None else {"dungeon": list(self.order)}

    def reveal(self, card: str, slot: str) -> None:
        """`card` was seen where the engine dealt the unseen `slot`: swap their places in the order."""
        if card in self.seen or card not in self.order:
            raise ValueError(f"{card} is not an unseen card of this dungeon")
        if slot in self.seen or slot not in self.order:
            raise ValueError(f"{slot} is not an unseen place of this dungeon")
        i, j = self.order.index(card), self.order.index(slot)
        self.order[i], self.order[j] = slot, card
        self.seen.add(card)

    # -- what the camera should see ------------------------------------------------------------
    parse_view = staticmethod(parse_view)

    def expected(self, game: Game) -> dict[str, Any]:
        """The table the state implies; unseen cards in the room show as '?'."""
        state = game.state()
        return {"room": [c if c in self.seen else UNREAD for c in state["room"]],
                "weapon": state["weapon"], "weapon_monsters": state["weapon_monsters"]}

    def shown(self, game: Game) -> frozenset[str]:
        """The cards the state shows face up: the room's cards seen, the weapon and its monsters."""
        table = self.expected(game)
        weapon = [table["weapon"]] if table["weapon"] else []
        return frozenset([c for c in table["room"] if c != UNREAD] + weapon + table["weapon_monsters"])

    def fit(self, game: Game, view: View, confirmed: frozenset[str]) -> list[tuple[str, str]] | None:
        """The reveals that make `view` the table of `game`'s state, or None when it is another table.

        A room card the engine dealt may still be missing (the player has not laid it yet) unless it
        was already seen lying there; a new card takes the first unseen place, left to right.
        """
        state = game.state()
        if state["weapon"] != view.weapon or Counter(state["weapon_monsters"]) != Counter(view.monsters):
            return None
        return self._room_fit(state["room"], view.room, confirmed)

    def room_reveals(self, game: Game, view: View, confirmed: frozenset[str]) -> list[tuple[str, str]] | None:
        """The reveals the room of `view` implies, whatever the weapon and its monsters look like, or None
        when its room is not the state's: for a view no move explained (a deal read with a card too many
        on the weapon), whose room the referee may take as dealt and lying there."""
        return self._room_fit(game.state()["room"], view.room, confirmed)

    def room_readings(self, view: View) -> list[tuple[View, int]]:
        """`view` as read, then with each one room card left out (read where none lies), with the number left out."""
        return [(view, 0)] + [(replace(view, room=view.room[:i] + view.room[i + 1:]), 1) for i in range(len(view.room))]

    def _room_fit(self, room: list[str], seen: tuple[str, ...],
                  confirmed: frozenset[str]) -> list[tuple[str, str]] | None:
        if UNREAD in seen or len(set(seen)) != len(seen):
            return None
        extras = list(seen)
        unseen_slots = []
        for code in room:
            if code not in self.seen:
                unseen_slots.append(code)
            elif code in extras:
                extras.remove(code)
            elif code in confirmed:
                return None  # a card that lay in the room is gone without a move
        if len(extras) > len(unseen_slots) or any(c in self.seen or c not in self.order for c in extras):
            return None
        return self._pairs(extras, unseen_slots)

    def _pairs(self, cards: list[str], slots: list[str]) -> list[tuple[str, str]]:
        """Reveals to apply one after another: each names the card that holds the place at that moment."""
        order = self.order[:]
        places = [order.index(slot) for slot in slots]
        pairs = []
        for card, place in zip(cards, places, strict=False):
            pairs.append((card, order[place]))
            i = order.index(card)
            order[i], order[place] = order[place], card
        return pairs

    def distance(self, game: Game, view: View) -> int:
        """How many cards differ between the state's table and `view` (to rank suggestions)."""
        want = Counter(self.shown(game))
        got = Counter(c for c in view.cards() if c != UNREAD)
        return sum((want - got).values()) + sum((got - want).values())

    def after_move(self, confirmed: frozenset[str], raw: str) -> frozenset[str]:
        """The room cards still known to lie in the room after `raw` (a run sends them all under the dungeon)."""
        words = raw.split()
        return frozenset() if words[0] == "run" else confirmed - {words[1]}

    def confirmed(self, view: View) -> frozenset[str]:
        return frozenset(c for c in view.room if c != UNREAD)

    def settled(self, seen: dict[str, Any], game: Game) -> frozenset[str]:
        """The room cards of a confirmed view that the state now expects in the room."""
        return frozenset(seen["room"]) & frozenset(self.expected(game)["room"])

    def observable(self, raw: Any) -> bool:
        """A card must have been seen before it can be faced: an unseen card leaves no evidence."""
        words = raw.split() if isinstance(raw, str) else []
        return len(words) < 2 or words[1] in self.seen

    def imagine(self, game: Game, move: Any) -> Game:
        """The game as it would be had the rules allowed `move`."""
        ghost = copy.deepcopy(game)
        ghost._apply(move)
        return ghost

    def wellformed_moves(self, game: Game, view: View | None = None) -> list[str]:
        """Every move the player could make with the seen room cards, legal or not (to name violations), of those
        whose card `view` shows (None: all): a card gone face down is no evidence of a rule broken, as the camera
        may have lost it (a weapon unread under the monster on it read as drunk, a wrong action)."""
        room = [c for c in game.state()["room"] if c in self.seen]
        moves = ["run"] + [verb.format(code) for code in room for verb in VERBS]
        if view is None:
            return moves
        shown = set(view.cards())
        return [raw for raw in moves if len(raw.split()) < 2 or raw.split()[1] in shown]

    def choices(self) -> list[str]:
        """Card identities the player may pick when correcting a misread."""
        return list(FULL_DECK)


def _read_deck(deck: Any) -> list[str]:
    if deck == "full":
        return list(FULL_DECK)
    if not isinstance(deck, list) or not deck:
        raise RecordError("must be 'full' or a non-empty list of card codes", "setup.deck")
    codes: list[str] = []
    for i, raw in enumerate(deck):
        try:
            card = parse_card(raw)
        except CardError as exc:
            raise RecordError(str(exc), f"setup.deck[{i}]") from None
        if not is_scoundrel_card(card):
            raise RecordError(f"{card.code} is not a Scoundrel card", f"setup.deck[{i}]")
        if card.code in codes:
            raise RecordError(f"duplicate card {card.code}", f"setup.deck[{i}]")
        codes.append(card.code)
    return sorted(codes, key=FULL_DECK.index)


def _known_order(setup: dict[str, Any]) -> list[str]:
    if "seed" in setup and isinstance(setup["seed"], int):
        return [card_code(c) for c in deal(setup["seed"])]
    dungeon = setup.get("dungeon")
    if isinstance(dungeon, list):
        try:
            return [parse_card(c).code for c in dungeon]
        except CardError:
            return []  # the engine names the bad card when the game is built
    return []
