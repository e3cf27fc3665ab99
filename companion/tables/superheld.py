"""A Superheld table as the camera sees it: which map cards lie face up, how many face down, where the hero is.

The map is the largest group of cards lying close together (a gap of up to GROUP_GAP_MM between two
cards keeps them in one group); the skill piles, the ghost decks and the hero's ghosts lie apart
from it and are not compared. Adjacency is the engine's (from the record's map), never re-measured.

The recognisers read cards, not pawns: the hero's position is then unknown to the camera and a move
shows only by the cards it changes, the henchman taken (a hole in the map) and the forest card
entered (turned face up). A move that changes no card (a step onto a face-up card, staying, a
purchase, a trade) leaves the table as it was: the player enters it on the dashboard, or the
referee finds it as the first step of a sequence that ends with a card taken or turned. Where the
hero went after taking a card is known only when the cards tell (a forest card turned, a single
way out); otherwise the player picks among the ways the referee offers.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.tables import UNREAD, read_code
from engine.game import Game
from engine.superheld.deck import MAP_CARDS, code
from engine.superheld.journey import enter, take
from engine.superheld.map import components
from engine.superheld.moves import Turn
from engine.superheld.state import JOURNEY
from vision.cards.geometry import CARD_H_MM, CARD_W_MM
from vision.detections import CardDetections

GROUP_GAP_MM = 30.0  # cards this far apart still belong to one map; the piles lie further off
PAWNS = "not recognised: the hero's moves are read from the cards taken and turned"
VISIBLE_MOVES = ("start", "go")  # record moves whose effect can show on the cards (with take, or entering the forest)
INVISIBLE_PARTS = ("buy", "trade")  # parts of a turn that change no card of the map


@dataclass(frozen=True, slots=True)
class View:
    """One stable look at the map: its face-up cards (sorted), its face-down cards, the hero's card if seen."""

    up: tuple[str, ...]
    down: int
    hero: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"map": list(self.up), "face_down": self.down, "hero": self.hero}


def parse_view(obs: Any) -> View:
    """Read a Superheld observation (`map`, `face_down`, `hero`); cards off the map are not compared."""
    if not isinstance(obs, dict):
        raise ValueError("an observation must be a JSON object")
    cards, down, hero = obs.get("map", []), obs.get("face_down", 0), obs.get("hero")
    if not isinstance(cards, list):
        raise ValueError("map must be a list of card codes")
    if isinstance(down, bool) or not isinstance(down, int) or down < 0:
        raise ValueError(f"face_down must be a count of cards, got {down!r}")
    up = tuple(c for c in (read_code(c, f"map[{i}]") for i, c in enumerate(cards)) if c != UNREAD)
    if len(set(up)) != len(up):
        raise ValueError("map names a card twice")
    return View(tuple(sorted(up)), down, None if hero is None else read_code(hero, "hero"))


class SuperheldTable:
    """How a Superheld state looks on the table, and which moves the camera can see."""

    zones = ("map",)

    def __init__(self, setup: dict[str, Any]) -> None:
        self._setup = dict(setup)

    # -- the record ---------------------------------------------------------------------------
    def record_setup(self) -> dict[str, Any]:
        return dict(self._setup)  # the map is given whole: nothing is learnt from the table

    def reveal(self, card: str, slot: str) -> None:
        raise ValueError("a Superheld map hides nothing the record does not name")

    # -- what the camera should see ------------------------------------------------------------
    parse_view = staticmethod(parse_view)

    def expected(self, game: Game) -> dict[str, Any]:
        s = game.s  # type: ignore[attr-defined]
        hero = s.hero.at if s.phase == JOURNEY else -1
        return {"map": sorted(code(c) for c in s.present - s.hidden), "face_down": len(s.hidden),
                "hero": code(hero) if hero >= 0 else None}

    def fit(self, game: Game, view: View, confirmed: frozenset[str]) -> list[tuple[str, str]] | None:
        """[] when `view` is the table of `game`'s state, None when it is another table.

        A face-up card the state does not have there (taken, face down, no map card) refutes it; so
        does a card once seen on the map that is gone now. A card never read yet is no evidence, and
        a face-down card the camera missed is none either (fewer backs are tolerated, never more).
        """
        want = self.expected(game)
        up = set(want["map"])
        if not set(view.up) <= up or view.down > want["face_down"]:
            return None
        if (confirmed & up) - set(view.up):
            return None
        if view.hero is not None and view.hero != want["hero"]:
            return None
        return []

    def distance(self, game: Game, view: View) -> int:
        """How many cards differ between the state's map and `view` (to rank suggestions)."""
        want = self.expected(game)
        return len(set(want["map"]) ^ set(view.up)) + abs(want["face_down"] - view.down)

    def after_move(self, confirmed: frozenset[str], raw: Any) -> frozenset[str]:
        return confirmed  # a card taken leaves the state's map, so `fit` no longer asks for it

    def confirmed(self, view: View) -> frozenset[str]:
        return frozenset(view.up)

    def settled(self, seen: dict[str, Any], game: Game) -> frozenset[str]:
        """The cards of a confirmed view the state now expects on the map: from now on they must stay seen."""
        return frozenset(seen.get("map", [])) & frozenset(self.expected(game)["map"])

    def observable(self, raw: Any) -> bool:
        """A move the cards can show: a start or a step (a take, the forest entered), with no purchase or trade."""
        if not isinstance(raw, dict):
            return False
        return any(k in raw for k in VISIBLE_MOVES) and "monster" not in raw and \
            not any(raw.get(k) for k in INVISIBLE_PARTS)

    def wellformed_moves(self, game: Game) -> list[dict[str, Any]]:
        """Every card the hero might take on leaving, to each neighbour, legal or not (to name violations)."""
        s = game.s  # type: ignore[attr-defined]
        if s.phase != JOURNEY:
            return []
        return [{"go": code(n), "take": True} for n in sorted(s.adj[s.hero.at])]

    def imagine(self, game: Game, move: Any) -> Game:
        """The game as it would be had the rules allowed `move`: the card left is taken, the hero enters the next."""
        ghost = copy.deepcopy(game)
        s = ghost.s.copy()  # type: ignore[attr-defined]
        if isinstance(move, Turn):
            if move.take:
                take(s, s.hero.at)
            if move.go is not None:
                enter(s, s.hero, move.go)
        ghost.s = s  # type: ignore[attr-defined]
        return ghost

    def choices(self) -> list[str]:
        """Card identities the player may pick when correcting a misread: the map's cards."""
        return [code(c) for c in sorted(MAP_CARDS)]


# -- from read cards to an observation ----------------------------------------------------------------
def observation(dets: CardDetections) -> dict[str, Any]:
    """The Superheld observation of a card reading: the map's face-up codes, its face-down count, the rest."""
    group = map_group(dets)
    on_map = set(group)
    up = [dets.codes[i] for i in group if dets.codes[i] != "back"]
    return {"map": sorted(up), "face_down": len(group) - len(up), "hero": None, "pawns": PAWNS,
            "off_map": sorted(dets.codes[i] for i in range(len(dets)) if i not in on_map)}


def map_group(dets: CardDetections) -> list[int]:
    """Indices of the cards forming the map: the largest group of cards lying within GROUP_GAP_MM of each other."""
    from vision.homography import table_homography
    from vision.layout import superheld_map

    if len(dets) == 0:
        return []
    try:
        h = table_homography(dets)
    except (ValueError, np.linalg.LinAlgError):
        h = None
    cards = superheld_map(dets, h)["cards"]
    near = {i: {j for j, b in enumerate(cards) if j != i and _near(a, b)} for i, a in enumerate(cards)}
    return sorted(max(components(near, near), key=lambda g: (len(g), -min(g))))


def _near(a: dict[str, Any], b: dict[str, Any]) -> bool:
    (ax, ay), (bx, by) = a["centre_mm"], b["centre_mm"]
    (aw, ah), (bw, bh) = _size(a), _size(b)
    return abs(ax - bx) <= (aw + bw) / 2 + GROUP_GAP_MM and abs(ay - by) <= (ah + bh) / 2 + GROUP_GAP_MM


def _size(card: dict[str, Any]) -> tuple[float, float]:
    return (CARD_W_MM, CARD_H_MM) if card["orient"] == "portrait" else (CARD_H_MM, CARD_W_MM)

