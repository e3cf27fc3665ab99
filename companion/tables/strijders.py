"""A Strijders table as the camera sees it: the two cards of a round revealed face up in the middle.

The camera looks at the middle of the table. Player a sits at the image's bottom edge, b at its top:
a's card is the one in the lower half of the image, b's the one in the upper half (the observation is
`{"a": id | None, "b": id | None}`, "?" for a side the recogniser could not name). A round shows as
both cards lying there; one card alone is "not yet" (the other player has still to lay), and after a
round its cards may stay until the players take them to their piles, all at once or one by one.
The piles lie outside the view and are not compared.

The decks may be hidden (`"order": "hidden"` in the setup, beside the decks): the players shuffled
them, so the companion knows each deck's cards but not their order. It keeps an order anyway, the
given one, and when the camera first sees a card that the engine has not dealt into that player's
hand yet, the card swaps places with an unseen card of the hand (`drawn`). Unseen cards never decided
a move, so no past move changes; once a deck is played out, its order is the true one and the record
equals the game on the table. Only the classic variant's rounds touch no deck in between; the
advanced variant's rock-paper-scissors and manual scores are entered on the dashboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Game, RecordError
from engine.strijders.table import PLAYERS

HIDDEN = "hidden"


@dataclass(frozen=True, slots=True)
class View:
    """One stable look at the middle: each player's card, None where none lies, "?" where one lies unread."""

    a: str | None
    b: str | None

    def side(self, player: int) -> str | None:
        return (self.a, self.b)[player]

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b}


def parse_view(obs: Any) -> View:
    """Read a Strijders observation: `a` and `b`, each a card id, "?" or null."""
    if not isinstance(obs, dict):
        raise ValueError("an observation must be a JSON object")
    sides = []
    for player in PLAYERS:
        card = obs.get(player)
        if card is not None and (not isinstance(card, str) or not card):
            raise ValueError(f"{player} must be a card id, '?' or null, got {card!r}")
        sides.append(card)
    return View(*sides)


class StrijdersTable:
    """The hidden deck orders of one live game, and how a state looks in the middle of the table."""

    zones: tuple[str, ...] = ()  # set right by confirming a suggested move or playing one, not by a card code
    moves_in_view = True

    def __init__(self, setup: dict[str, Any]) -> None:
        self._setup = {k: v for k, v in setup.items() if k != "order"}
        self.hidden = setup.get("order") == HIDDEN
        if "order" in setup and not self.hidden:
            raise RecordError(f"must be {HIDDEN!r} (the decks shuffled at the table) or left out", "setup.order")
        decks = setup.get("decks")
        if self.hidden and (not isinstance(decks, dict) or "seed" in setup):
            raise RecordError("hidden decks need both decks' cards listed and no seed", "setup.order")
        self.order: dict[str, list[Any]] = {p: list(decks[p]) for p in PLAYERS} if self.hidden else {}

    # -- the record ---------------------------------------------------------------------------
    def record_setup(self) -> dict[str, Any]:
        if not self.hidden:
            return dict(self._setup)
        return {**self._setup, "decks": {p: list(ids) for p, ids in self.order.items()}}

    def reveal(self, card: str, slot: str) -> None:
        """`card` ("a:7", a deck place) was seen laid: it swaps with the unseen hand place `slot` ("a:2")."""
        (player, i), (other, j) = _place(card), _place(slot)
        if not self.hidden or player != other or player not in self.order:
            raise ValueError(f"{card} and {slot} are not two places of one hidden deck")
        deck = self.order[player]
        if not (0 <= i < len(deck) and 0 <= j < len(deck)) or i == j:
            raise ValueError(f"{card} and {slot} are not two places of player {player}'s deck of {len(deck)}")
        deck[i], deck[j] = deck[j], deck[i]

    def drawn(self, game: Game, view: View) -> list[tuple[str, str]]:
        """The reveals that put each card seen in the middle into its player's hand, where a hidden deck holds it."""
        if not self.hidden:
            return []
        table = game.table  # type: ignore[attr-defined]
        if all(card is None or card == _last(game, p) for p, card in enumerate((view.a, view.b))):
            return []  # the last round's cards, or some of them: nothing new laid
        pairs = []
        for p, player in enumerate(PLAYERS):
            card = view.side(p)
            if card is None or card in table.hand_ids(p):
                continue
            size = len(self.order[player])
            deck = [c for c in table.decks[p] if table.specs[c].id == card]
            if deck and table.hands[p]:  # the next of that id to be drawn takes the hand's last-drawn place
                pairs.append((f"{player}:{deck[-1] - p * size}", f"{player}:{max(table.hands[p]) - p * size}"))
        return pairs

    # -- what the camera should see ------------------------------------------------------------
    parse_view = staticmethod(parse_view)

    def expected(self, game: Game) -> dict[str, Any]:
        """The last round's cards, which lie in the middle until the players take them away."""
        return {player: _last(game, p) for p, player in enumerate(PLAYERS)}

    def fit(self, game: Game, view: View, confirmed: frozenset[str]) -> list[tuple[str, str]] | None:
        """[] when `view` is the middle of `game`'s state: the last round's cards (some or all taken away),
        or one card of a player's hand alone (the round not laid yet); None otherwise."""
        sides = [view.side(p) for p in range(len(PLAYERS))]
        if all(card is None or card == _last(game, p) for p, card in enumerate(sides)):
            return []
        laid = [(p, card) for p, card in enumerate(sides) if card is not None]
        if len(laid) == 1 and laid[0][1] in game.table.hand_ids(laid[0][0]):  # type: ignore[attr-defined]
            return []
        return None

    def distance(self, game: Game, view: View) -> int:
        """How many sides differ between the state's middle and `view` (to rank suggestions)."""
        want = self.expected(game)
        return sum(want[player] != view.side(p) for p, player in enumerate(PLAYERS))

    def after_move(self, confirmed: frozenset[str], raw: Any) -> frozenset[str]:
        return confirmed

    def confirmed(self, view: View) -> frozenset[str]:
        return frozenset()  # a card taken away to a pile is no evidence: the piles lie outside the view

    def settled(self, seen: dict[str, Any], game: Game) -> frozenset[str]:
        return frozenset()

    def observable(self, raw: Any) -> bool:
        """A round's two cards laid; a rock-paper-scissors result or a manual score is entered on the dashboard."""
        return isinstance(raw, dict) and set(raw) == {"a", "b"}

    def wellformed_moves(self, game: Game, view: View) -> list[dict[str, Any]]:
        """The two cards seen, as a lay, legal or not: a card not in its player's hand names the violation."""
        catalog = game.catalog  # type: ignore[attr-defined]
        if view.a not in catalog or view.b not in catalog or view.to_json() == self.expected(game):
            return []  # a side empty or unread, or an id the players' catalog does not have: no lay to name
        return [view.to_json()]

    def imagine(self, game: Game, move: Any) -> Game:
        """The game as it would be had the rules allowed the lay: its cards are the last round's."""
        return _Laid(game, move)  # type: ignore[return-value]

    def choices(self) -> list[str]:
        return []


class _Laid:
    """A game seen only as the middle of its table, after a lay the rules refused (for `fit`)."""

    def __init__(self, game: Game, move: Any) -> None:
        self.table = game.table  # type: ignore[attr-defined]  # its hands are only read
        self.last = (move.a, move.b)


def _last(game: Any, player: int) -> str | None:
    """The card `player` laid in the last round, or None before the first."""
    if isinstance(game, _Laid):
        return game.last[player]
    last = game.table.last
    return None if last is None else game.table.specs[last.cards[player]].id


def _place(text: str) -> tuple[str, int]:
    player, _, index = str(text).partition(":")
    if not index.isdigit():
        raise ValueError(f"{text!r} is not a deck place (player:index)")
    return player, int(index)
