"""Recognisers: pixels to a game's observation. The live loop takes any object with `read(image)`.

The card games' recognisers join a card reader with the game's layout (Scoundrel's zones,
`vision.layout.scoundrel_zones`; Superheld's map, `companion.tables.superheld.observation`):
with a deck profile (a deck the player enrolled, `--profile NAME|PATH`) the cards are found on the
table and identified by the profile's matcher (`vision.cards.recognise`); without one, the general
card recogniser (`vision.cards.predict`) reads them. Carcassonne's board is read by `vision.tiles.predict`
(`VisionCarcassonne`: tiles and meeples, cells from the top-left; the table aligns them). A game without a
recogniser is refereed from the dashboard (the player enters moves); the camera then only feeds the live view.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from companion.tables import UNREAD


@dataclass
class Reading:
    observation: dict[str, Any]  # the game's zone dict, e.g. Scoundrel's room / weapon / weapon_monsters
    cards: list[dict[str, Any]] = field(default_factory=list)  # {code, corners [[x, y] x4], confidence}
    pawns: list[dict[str, Any]] = field(default_factory=list)  # {colour, point [x, y], card, hero}: for the overlay


class Recogniser(Protocol):
    name: str

    def read(self, image: np.ndarray) -> Reading: ...


class RecogniserUnavailable(RuntimeError):
    """The vision package this recogniser needs is not there (yet)."""


class VisionCards:
    """A card game read by the general card recogniser (`vision.cards.predict`) and the game's layout.

    The light is followed from the table: the first frame's table colour is the light the cards are read in, and
    a frame whose table shows the light rose since is read brought back down to it (`vision.light.down_to_light`):
    white paper past the camera's range hid a card under another. A dimmer room is read as it is, and brought up
    when too dark to read (`vision.light.exposed`, in `vision.cards.predict`)."""

    game = "scoundrel"
    table: Any = None  # the table's Lab colour (`vision.light.table_seen`) in the first frame's light

    def __init__(self) -> None:
        self._reading, layout = _layout(self.game)
        self._codes = cards_in_play(self.game)  # a face read as a card the game leaves out is read again
        self.name = f"vision.cards + {layout}"
        try:
            self._cards = importlib.import_module("vision.cards")
            self._predict = self._cards.predict
        except (ImportError, AttributeError) as exc:
            raise RecogniserUnavailable(f"the card recogniser is not available: {exc}") from None
        try:  # the package may be there before its trained model is
            self._predict(np.zeros((96, 96, 3), np.uint8))
        except Exception as exc:  # noqa: BLE001 - whatever stops it, the loop must run without it
            raise RecogniserUnavailable(f"the card recogniser cannot run: {type(exc).__name__}: {exc}") from None
        update = importlib.import_module("vision.cards.update")
        self.follower = update.Follower(functools.partial(self._predict, codes=self._codes))
        self._light = importlib.import_module("vision.light")

    def detect(self, image: np.ndarray) -> Any:
        """The cards of the table's next still view (a map's by what changed since the last: `Follower`)."""
        seen = self._light.table_seen(image)
        if self.table is None:
            self.table = seen
        return self.follower.read(self._light.down_to_light(image, self.table, seen))

    def read(self, image: np.ndarray) -> Reading:
        return self._reading(self.detect(image), image.shape)


class PawnsSeen:
    """Superheld's readers look for the heroes' pawns too once their colours are given (`vision.pawns`). The light is
    followed from the cards' paper: the first frame read with face-up cards is the light the pawn colours belong to,
    and a frame whose paper shows the light changed since is searched for pawns brought back to it
    (`vision.pawns.in_paper_light`)."""

    pawns: Any = None  # the pawn colours (a vision.tiles.meeples.Calibration, hero 1 first); None: cards only
    paper: Any = None  # the face-up cards' paper (Lab) in the pawn colours' light: the first frame's

    def read(self, image: np.ndarray) -> Reading:
        dets = self.detect(image)  # type: ignore[attr-defined]  # the card reader this is mixed into
        if self.pawns is None:
            return superheld_reading(dets, image.shape)
        from vision.pawns import find_pawns, in_paper_light, paper_seen

        if self.paper is None:
            self.paper = paper_seen(image, dets)
        colours = list(self.pawns.colours)
        seen = find_pawns(in_paper_light(image, dets, self.paper), dets, self.pawns)
        reading = superheld_reading(dets, image.shape, seen, colours)
        reading.pawns = [{**p, "hero": colours.index(p["colour"]) + 1} for p in reading.observation["pawns"]]
        return reading


class VisionScoundrel(VisionCards):
    game = "scoundrel"


class VisionSuperheld(PawnsSeen, VisionCards):
    game = "superheld"


class ProfileCards:
    """A card game read with an enrolled deck: outlines on the table, identities from the deck's profile."""

    game = "scoundrel"

    def __init__(self, profile: str | Path, allowed: list[str] | None = None) -> None:
        from vision.cards.recognise import DeckRecogniser

        self._reading, layout = _layout(self.game)
        loaded = load_deck_profile(profile)
        self.name = f"deck profile {loaded.name} + {layout}"
        self._cards = DeckRecogniser(loaded, allowed if allowed is not None else cards_in_play(self.game))

    def detect(self, image: np.ndarray) -> Any:
        return self._cards.predict(image)

    def read(self, image: np.ndarray) -> Reading:
        return self._reading(self.detect(image), image.shape)


class ProfileScoundrel(ProfileCards):
    game = "scoundrel"


class ProfileSuperheld(PawnsSeen, ProfileCards):
    game = "superheld"


class VisionCarcassonne:
    """A Carcassonne board read by `vision.tiles.predict`; the meeple colours calibrated once.

    The calibration is given (`vision.tiles.meeples.Calibration` or its JSON), or taken from the first
    stable frame when it shows no start tile: the player shows one meeple of each colour on the bare table
    before laying it (`vision.tiles.meeples.calibrate`; the board reader may take meeples alone for tiles, so
    only the start tile's absence tells). Otherwise typical paint is assumed.
    The light is followed from the table: the calibration frame's table colour (or, with a calibration given or
    assumed, the first frame's) is the light the meeple colours belong to, and a frame whose table shows the light
    changed since (a lamp, a cloud, the camera's exposure) is read brought back to it
    (`vision.tiles.meeples.in_calibration_light`).
    """

    game = "carcassonne"
    card_outlines = False  # its outlines are tiles: the auto calibration (63 x 88 mm cards) must not use them

    def __init__(self, calibration: Any = None) -> None:
        try:
            from vision.light import table_seen
            from vision.tiles.meeples import Calibration, calibrate
            from vision.tiles.pipeline import predict
        except ImportError as exc:
            raise RecogniserUnavailable(f"the board reader is not available: {exc}") from None
        self.name = "vision.tiles"
        self._predict, self._calibrate, self._table_seen, self._default = predict, calibrate, table_seen, Calibration
        self.calibration = Calibration.from_json(calibration) if isinstance(calibration, dict) else calibration
        self._first = self.calibration is None  # only the first stable frame may be the calibration shot

    def read(self, image: np.ndarray) -> Reading:
        from companion.tables.carcassonne import COLOUR_NAMES
        from engine.carcassonne.tiles import START_TILE

        out = self._predict(image, calibration=self.calibration)
        first, self._first = self._first, False
        if first and not any(t["letter"] == START_TILE for t in out["tiles"]):
            self.calibration = self._calibrate(image, COLOUR_NAMES, on_table=True)
            return Reading({"tiles": [], "meeples": [], "calibration": self.calibration.to_json()}, [])
        if self.calibration is None or self.calibration.table is None:  # this frame's light is the calibration's
            self.calibration = replace(self.calibration or self._default(), table=self._table_seen(image))
        tiles = [{"code": f"{t['letter']}{t['rotation']}", "corners": t["corners"], "confidence": t["confidence"]}
                 for t in out["tiles"]]
        return Reading(out, tiles)


class ProfileStrijders:
    """The two cards revealed in the middle of a Strijders table, named by an enrolled catalog (one photo each).

    Outlines are the card pipeline's classical proposals; each is matched against the catalog's photos.
    Player a's card lies in the image's lower half, b's in its upper half (`companion.tables.strijders`);
    two cards on one side, or one matched only weakly, make that side unread ("?").
    """

    game = "strijders"
    min_score = 0.55  # a match this weak is shown unread ("?"): the player confirms, rather than a wrong card refereed
    card_outlines = False  # custom cards need not be 63 x 88 mm: the auto calibration must not use them

    def __init__(self, profile: str | Path, allowed: list[str] | None = None) -> None:
        from vision.cards.contours import propose
        from vision.enroll.matcher import Matcher

        loaded = load_deck_profile(profile, "strijders")
        self.name = f"Strijders catalog {loaded.name} + the middle of the table"
        self._propose, self._matcher = propose, Matcher(loaded)

    def read(self, image: np.ndarray) -> Reading:
        outlines = [np.asarray(o, np.float32) for o in self._propose(image)]
        found = self._matcher.identify_many(image, np.array(outlines, np.float32)) if outlines else []
        kept: list[Any] = []
        for f in sorted((f for f in found if f.label != "unknown"), key=lambda f: -f.score):
            if all(self._apart(f.corners, k.corners) for k in kept):  # a proposal over part of a card, or two
                kept.append(f)
        cards = [{"code": f.label if f.score >= self.min_score else UNREAD,
                  "corners": np.asarray(f.corners, float).round(1).tolist(),
                  "confidence": float(np.clip(f.score, 0, 1))} for f in kept]
        sides: dict[str, list[str]] = {"a": [], "b": []}
        for card in cards:
            low = float(np.mean([y for _, y in card["corners"]])) > image.shape[0] / 2
            sides["a" if low else "b"].append(card["code"])
        obs = {p: (ids[0] if len(ids) == 1 else UNREAD) if ids else None for p, ids in sides.items()}
        return Reading(obs, cards)

    @staticmethod
    def _apart(quad: np.ndarray, other: np.ndarray) -> bool:
        """Two outlines that are two cards: neither's centre lies inside the other."""
        from vision.cards.geometry import points_in_quads

        a, b = np.asarray(quad, np.float32), np.asarray(other, np.float32)
        return not points_in_quads(a.mean(axis=0), b).any() and not points_in_quads(b.mean(axis=0), a).any()


def load_profile(ref: str | Path) -> Any:
    """A profile by name (the player's store) or by the path of its folder."""
    from vision.enroll.store import ProfileError, ProfileStore, check_name

    path = Path(ref).expanduser()
    if (path / "manifest.json").is_file():
        return ProfileStore(path.parent).load(path.name)
    if isinstance(ref, Path) or "/" in str(ref):
        raise ProfileError(f"no deck profile at {path}")
    return ProfileStore().load(check_name(str(ref)))


PROFILE_KINDS = {"cards": "a deck of cards", "strijders": "a Strijders catalog"}  # a profile's kind, in words
PROFILE_KIND_OF = {"strijders": "strijders"}  # the kind of profile a game's cards are read with; others: "cards"


def load_deck_profile(ref: str | Path, kind: str = "cards") -> Any:
    """The enrolled deck (or Strijders catalog) named by `ref`; RecogniserUnavailable says why it cannot be used."""
    from vision.enroll.store import ProfileError

    try:
        loaded = load_profile(ref)
    except ProfileError as exc:
        raise RecogniserUnavailable(str(exc)) from None
    if loaded.kind != kind:
        raise RecogniserUnavailable(f"profile {loaded.name!r} holds {loaded.kind}, not {PROFILE_KINDS[kind]}")
    return loaded


def scoundrel_reading(dets: Any, shape: tuple[int, ...]) -> Reading:
    from vision.layout import scoundrel_zones

    zones = scoundrel_zones(dets, shape)
    obs = {"room": list(zones.get("room", [])), "weapon": zones.get("weapon"),
           "weapon_monsters": list(zones.get("weapon_monsters", [])),
           "dungeon": zones.get("dungeon"), "discard": zones.get("discard")}
    return Reading(obs, cards_json(dets))


def superheld_reading(dets: Any, shape: tuple[int, ...], pawns: Any = (), colours: list[str] | None = None) -> Reading:
    from companion.tables.superheld import observation

    return Reading(observation(dets, pawns, colours or []), cards_json(dets))


def cards_json(dets: Any) -> list[dict[str, Any]]:
    """The read cards for the live view's overlay and the calibration: code, corners, confidence."""
    return [{"code": str(code), "corners": np.asarray(corners, float).round(1).tolist(), "confidence": float(c)}
            for code, corners, c in zip(dets.codes, dets.corners, dets.confidence, strict=False)]


def _scoundrel_deck() -> list[str]:
    from companion.tables.scoundrel import FULL_DECK

    return list(FULL_DECK)  # no red face card


# game -> (how its observation is read off the cards, the layout's name, the cards in play or None for all);
# data, not branches.
LAYOUTS: dict[str, tuple[Callable[[Any, tuple[int, ...]], Reading], str, Callable[[], list[str]] | None]] = {
    "scoundrel": (scoundrel_reading, "vision.layout.scoundrel_zones", _scoundrel_deck),
    "superheld": (superheld_reading, "the Superheld map (companion.tables.superheld)", None),  # both whole decks
}


def _layout(game: str) -> tuple[Callable[[Any, tuple[int, ...]], Reading], str]:
    reading, name, _ = LAYOUTS[game]
    return reading, name


def cards_in_play(game: str | None) -> list[str] | None:
    """The cards a card game's deck holds (None: any card, or a game without a card layout)."""
    if game not in LAYOUTS:
        return None
    deck = LAYOUTS[game][2]
    return deck() if deck is not None else None


# game -> its recogniser with the general pipeline (cards, or the Carcassonne board reader)
RECOGNISERS: dict[str, Callable[[], Recogniser]] = {"scoundrel": VisionScoundrel, "superheld": VisionSuperheld,
                                                   "carcassonne": VisionCarcassonne}
# game -> its recogniser over an enrolled deck profile
PROFILE_RECOGNISERS: dict[str, type[ProfileCards] | type[ProfileStrijders]] = {
    "scoundrel": ProfileScoundrel, "superheld": ProfileSuperheld, "strijders": ProfileStrijders}


def recogniser_for(game: str, profile: str | Path | None = None, deck: Any = None,
                   pawns: Any = None) -> Recogniser | None:
    """The game's recogniser, or None; raises RecogniserUnavailable when it cannot run.

    With a deck profile the cards are identified against that deck, limited to the cards the game
    declares in play (`deck`, a list of codes) when it does. `pawns`: the heroes' pawn colours (a
    vision.tiles.meeples.Calibration or its JSON, hero 1 first) for a game whose reader looks for pawns.
    """
    if profile is not None:
        if game not in PROFILE_RECOGNISERS:
            raise RecogniserUnavailable(f"no deck-profile recogniser for {game}")
        allowed = list(deck) if isinstance(deck, list) else None
        recogniser: Recogniser | None = PROFILE_RECOGNISERS[game](profile, allowed)
    else:
        make = RECOGNISERS.get(game)
        recogniser = make() if make is not None else None
    if pawns is not None and recogniser is not None:
        if not isinstance(recogniser, PawnsSeen):
            raise RecogniserUnavailable(f"{game} has no pawns to look for")
        from vision.tiles.meeples import Calibration

        recogniser.pawns = Calibration.from_json(pawns) if isinstance(pawns, dict) else pawns
    return recogniser
