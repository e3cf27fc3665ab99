"""A Superheld table as the camera sees it: which map cards lie face up, how many face down, where the hero is.

The map is the largest group of cards lying close together (a gap of up to GROUP_GAP_MM between two
cards keeps them in one group); the skill piles, the ghost decks and the hero's ghosts lie apart
from it and are not compared. Adjacency is the engine's (from the record's map), never re-measured.

The heroes' pawns are seen when the player gives their colours (`--pawns red` or `red,blue` in co-op,
hero 1 first; `--pawn-photo` measures them on a photo of the pawns): `vision.pawns` finds each on a
map card, and that card is where its hero stands (`hero`, and `heroes` per hero). A pawn hides the
face it stands on and the card reader misnames it (a red pawn makes a spade a heart), so that card's
reading is dropped and its hero given as "?" (COVERED) with the card's outline (`hero_cards`) beside
the cards read once each (`placed`): the table model names the card by fitting the engine's map onto
those (`companion.hero.card_at`) and counts it face up. Where that fit fails, "?" stays and the state
fits when its hero's card is one the camera did not read. Then a step onto a face-up card shows as
the pawn moving, a start as the pawn put on a village, and where the hero went after taking a card
is seen, not asked. A move that changes neither a card nor a pawn (staying, a purchase, a trade)
leaves the table as it was: the player enters it on the dashboard.

When no pawn is seen (none calibrated, a pawn not found, two alike of one colour, a pawn off the
map) the observation names no hero and the referee works from the cards alone: a move shows by the
henchman taken (a hole in the map) or the forest card entered (turned face up); a step that changes
no card is entered on the dashboard or found as the first step of a sequence that ends with a card
taken or turned; and where the cards cannot tell where the hero went, the player picks among the
ways the referee offers.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.tables import UNREAD, read_code
from engine.game import Game, RecordError
from engine.superheld.deck import MAP_CARDS, code
from engine.superheld.journey import enter, take
from engine.superheld.map import components
from engine.superheld.moves import Turn
from engine.superheld.read_setup import read_state
from engine.superheld.state import COOP, JOURNEY
from vision.cards.geometry import CARD_H_MM, CARD_W_MM
from vision.detections import CardDetections

if TYPE_CHECKING:
    from vision.pawns import Pawn

GROUP_GAP_MM = 30.0  # cards this far apart still belong to one map; the piles lie further off
PAWNS = ("seen when their colours are given: each hero stands on the map card under its pawn; unseen, the hero's "
         "moves are read from the cards taken and turned")
COVERED = UNREAD  # a hero on the face-up map card its pawn hides from the card reader
MAP_OPTIONS = ({}, {"variant": COOP}, {"variant": COOP, "forest": False})  # the setups a map can be laid under
VISIBLE_MOVES = ("start", "go")  # record moves that can show: a pawn put down or moved, a card taken or turned up
INVISIBLE_PARTS = ("buy", "trade")  # parts of a turn that change no card of the map


@dataclass(frozen=True, slots=True)
class View:
    """One stable look at the map: its face-up cards (sorted), its face-down cards, each hero's card where seen."""

    up: tuple[str, ...]
    down: int
    heroes: tuple[str | None, ...] = ()  # hero 1 first: its card, COVERED (under its pawn, unread), None (not seen)

    @property
    def hero(self) -> str | None:
        return self.heroes[0] if self.heroes else None

    def to_json(self) -> dict[str, Any]:
        return {"map": list(self.up), "face_down": self.down, "hero": self.hero, "heroes": list(self.heroes)}


def parse_view(obs: Any) -> View:
    """Read a Superheld observation (`map`, `face_down`, `hero` or `heroes`); cards off the map are not compared."""
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
    heroes = obs.get("heroes", [] if hero is None else [hero])
    if not isinstance(heroes, list) or len(heroes) > 2:
        raise ValueError(f"heroes must list the card under each hero's pawn (or null), got {heroes!r}")
    seen = tuple(None if c is None else read_code(c, f"heroes[{i}]") for i, c in enumerate(heroes))  # "?": COVERED
    if hero is not None and (not seen or read_code(hero, "hero") != seen[0]):
        raise ValueError(f"hero {hero!r} is not heroes[0]")
    return View(tuple(sorted(up)), down, seen)


class SuperheldTable:
    """How a Superheld state looks on the table, and which moves the camera can see."""

    zones = ("map",)

    def __init__(self, setup: dict[str, Any]) -> None:
        self._setup = dict(setup)
        self._map: dict[str, dict[str, float]] | None = None  # the engine's map rectangles (mm), for the pawns

    # -- the record ---------------------------------------------------------------------------
    def record_setup(self) -> dict[str, Any]:
        return dict(self._setup)  # the map is given whole: nothing is learnt from the table

    def reveal(self, card: str, slot: str) -> None:
        raise ValueError("a Superheld map hides nothing the record does not name")

    # -- what the camera should see ------------------------------------------------------------
    def parse_view(self, obs: Any) -> View:
        """The view of an observation, each hero under a pawn named by where its card lies on the map (as laid)."""
        view = parse_view(obs)
        if COVERED not in view.heroes:
            return view
        up, heroes = set(view.up), list(view.heroes)
        for i, corners in enumerate(obs.get("hero_cards", [])[:len(heroes)]):
            if heroes[i] == COVERED and corners is not None:
                found = self._card_at(obs.get("placed", {}), corners)
                if found is not None:
                    heroes[i] = found
                    up.add(found)  # face up under the pawn
        return View(tuple(sorted(up)), view.down, tuple(heroes))

    def _card_at(self, placed: Any, corners: Any) -> str | None:
        from companion.hero import card_at

        try:
            read = {read_code(c, "placed"): [np.asarray(q, np.float64).reshape(4, 2)] for c, q in placed.items()}
            point = np.asarray(corners, np.float64).reshape(4, 2).mean(axis=0)
        except (AttributeError, TypeError, ValueError):
            raise ValueError("placed and hero_cards must give card corners as [[x, y] x 4]") from None
        return card_at(self._cells(), read, point)

    def _cells(self) -> dict[str, dict[str, float]]:
        """The engine's map as laid (mm rectangles by code), read from the setup under whichever variant it fits."""
        if self._map is None:
            self._map = {}
            for options in MAP_OPTIONS:
                try:
                    s = read_state(self._setup, options)
                except RecordError:
                    continue
                self._map = {code(c): {"x": r.x, "y": r.y, "w": r.w, "h": r.h} for c, r in s.rects.items()}
                break
        return self._map

    def expected(self, game: Game) -> dict[str, Any]:
        s = game.s  # type: ignore[attr-defined]
        heroes = [code(h.at) if h.at >= 0 else None for h in s.heroes]
        return {"map": sorted(code(c) for c in s.present - s.hidden), "face_down": len(s.hidden),
                "hero": heroes[0], "heroes": heroes}

    def fit(self, game: Game, view: View, confirmed: frozenset[str]) -> list[tuple[str, str]] | None:
        """[] when `view` is the table of `game`'s state, None when it is another table.

        A face-up card the state does not have there (taken, face down, no map card) refutes it; so
        does a card once seen on the map that is gone now, unless a pawn covers it; and a pawn on another
        card than its hero's (one read elsewhere, or named otherwise). A card never read yet is no
        evidence, nor is a face-down card the camera missed (fewer backs are tolerated, never more), nor
        a pawn not seen.
        """
        want = self.expected(game)
        up, read = set(want["map"]), set(view.up)
        if not read <= up or view.down > want["face_down"]:
            return None
        covered = set()
        for i, seen in enumerate(view.heroes):
            at = want["heroes"][i] if i < len(want["heroes"]) else None
            if seen is None:
                continue
            if at is None or (seen == COVERED and (at in read or at not in up)) or seen not in (COVERED, at):
                return None
            covered.add(at)
        if (confirmed & up) - read - covered:
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
        """A move the table can show: a start or a step, with no purchase or trade.

        A step shows by its card taken or forest card turned, or by the pawn moving; one that shows by neither
        (onto a face-up card, no pawn seen) is found only as the first step of a sequence.
        """
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
def observation(dets: CardDetections, pawns: Sequence[Pawn] = (), colours: Sequence[str] = ()) -> dict[str, Any]:
    """The Superheld observation of a card reading: the map's face-up codes, its face-down count, the rest.

    `pawns` are those `vision.pawns` found, `colours` the heroes' pawn colours (hero 1 first; none: no pawn
    looked for). A hero stands on the face-up map card under the one pawn of its colour (COVERED: that card's
    face is hidden, its read name is left out); no such pawn, two alike or one off the map: the hero is not seen.
    """
    group = map_group(dets)
    on_map = set(group)
    under = [_under(dets, on_map, [p for p in pawns if p.colour == colour]) for colour in colours]
    heroes = [None if i is None else COVERED for i in under]
    up = [dets.codes[i] for i in group if dets.codes[i] != "back" and i not in under]
    obs = {"map": sorted(up), "face_down": sum(dets.codes[i] == "back" for i in group),
           "hero": heroes[0] if heroes else None, "heroes": heroes,
           "pawns": [{**p.to_json(), "card": _code(dets, p.card)} for p in pawns],
           "off_map": sorted(dets.codes[i] for i in range(len(dets)) if i not in on_map)}
    if any(i is not None for i in under):  # where the covered cards lie among the cards read once each
        once = [i for i in group if i not in under and up.count(dets.codes[i]) == 1]
        obs["placed"] = {dets.codes[i]: _corners(dets, i) for i in once}
        obs["hero_cards"] = [None if i is None else _corners(dets, i) for i in under]
    return obs


def _corners(dets: CardDetections, i: int) -> list[list[float]]:
    return np.asarray(dets.corners[i], float).round(1).tolist()


def _under(dets: CardDetections, on_map: set[int], pawns: list[Pawn]) -> int | None:
    """The face-up map card one pawn stands on; None for no pawn, two alike (whose is it?), or one off the map."""
    if len(pawns) != 1 or pawns[0].card not in on_map or dets.codes[pawns[0].card] == "back":
        return None
    return pawns[0].card


def _code(dets: CardDetections, index: int | None) -> str | None:
    return dets.codes[index] if index is not None else None


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

