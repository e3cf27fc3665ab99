"""A Carcassonne solo table as the camera sees it, and the stacks that stay face down until a tile is laid.

The view is the set of laid tiles (cell, letter, rotation) and the meeples on them (cell, colour,
feature). The recogniser counts cells from the top-left of the laid tiles and does not know which
way the board faces, so every comparison first aligns the view to the state's board: a quarter
turn of the whole view and the offset that puts one of its upright D tiles on the start square.
Equal rotations (U at 0 and 180) compare equal through the catalog's `canonical_rotation`.

Face-down stacks (`{"stacks": "hidden"}`, three colours, or `{"stacks": "hidden", "colours": 4}`):
like Scoundrel's dungeon, the table keeps full stacks of the 71 tiles anyway, the unseen ones in a
fixed order (tiles that fit almost anywhere first, so the engine hardly ever discards a stand-in). When
the camera shows the tile the colour has just laid, its letter is revealed into the drawn slot (it
swaps with the last unseen tile of that letter) and the game is replayed; unseen tiles never decided
a move, so at the end the record's drawn tiles and moves are the true game's.

The player lays the tile, then the colour's meeple. A still that shows the new tile without a meeple
while one is owed (the colour has one and the tile a free feature) is "not yet": nothing is played
until the meeple stands. Meeples of a feature the last move scored may still stand on the table
until the player takes them back. Two face-down tiles laid between two stills are told apart by the
colours of their meeples (colour 1 plays before colour 2). Tiles laid before the newest one of the last
explained view are known: a later view that reads one otherwise (a reader's slip) does not refute the game.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.carcassonne.board import MONASTERY, oriented, pos_of, xy_of
from engine.carcassonne.game import Carcassonne
from engine.carcassonne.moves import SPOTS
from engine.carcassonne.solo import COLOUR_CHOICES, DEFAULT_COLOURS, stack_sizes
from engine.carcassonne.tiles import (
    DIRECTIONS,
    ROTATIONS,
    START_TILE,
    TILES,
    canonical_rotation,
    rotate_edge,
    shuffled_tiles,
)
from engine.game import PLAYING, Game, RecordError

HIDDEN = "hidden"  # setup {"stacks": "hidden"}: the stacks lie face down, learnt tile by tile
COLOUR_NAMES: tuple[str, ...] = ("red", "blue", "yellow", "black")  # colour k is the k-th name
FIELD = "field"  # the recogniser's feature for a meeple on a field (never legal in solo)
FEATURES: tuple[str, ...] = (*SPOTS, FIELD)
TURNS: tuple[int, ...] = ROTATIONS  # quarter turns of the whole board between the camera and the engine
SCORED_KINDS = ("road", "city", MONASTERY)  # scorings whose meeples go back to the supply during the game
SEEN_TILES = "tiles seen: "  # the table's `confirmed` entry: how many tiles the last explained view showed

Cell = tuple[int, int]
Tile = tuple[int, int, str, int]  # x, y, letter, canonical rotation
Figure = tuple[int, int, int, str]  # x, y, colour (1..4), feature
Slot = tuple[int, int]  # colour (0-based), index in its stack from the top


@dataclass(frozen=True, slots=True)
class Picture:
    """What a state (or an imagined one) puts on the table; `order`: the cells in the order their tiles were laid."""

    tiles: frozenset[Tile]
    meeples: frozenset[Figure]
    order: tuple[Cell, ...]

    @property
    def placed(self) -> int:
        """Tiles laid after the start tile."""
        return len(self.order) - 1


@dataclass(frozen=True, slots=True)
class View:
    """One stable look at the board in the recogniser's cells, and the same look under each quarter turn."""

    tiles: frozenset[Tile]
    meeples: frozenset[Figure]
    turns: tuple[tuple[frozenset[Tile], frozenset[Figure]], ...]

    def to_json(self) -> dict[str, Any]:
        """The view as the dashboard lists it: cells counted from its first upright D, the likely start tile."""
        starts = [(x, y) for x, y, letter, rot in self.tiles if letter == START_TILE and rot == 0]
        return _listing(self.tiles, self.meeples, min(starts, key=lambda c: (c[1], c[0])) if starts else (0, 0))


@dataclass(frozen=True, slots=True)
class Imagined:
    """The table as an illegal move would leave it, had the rules allowed it (to name violations)."""

    picture: Picture


def parse_view(obs: Any) -> View:
    """Read `vision.tiles.predict`'s JSON (tiles {letter, rotation, cell}, meeples {colour, cell, feature})."""
    if not isinstance(obs, dict):
        raise ValueError("an observation must be a JSON object")
    raw_tiles, raw_meeples = obs.get("tiles", []), obs.get("meeples", [])
    if not isinstance(raw_tiles, list) or not isinstance(raw_meeples, list):
        raise ValueError("tiles and meeples must be lists")
    if not raw_tiles:
        raise ValueError("no tile seen")
    tiles: dict[tuple[int, int], Tile] = {}
    for i, t in enumerate(raw_tiles):
        where = f"tiles[{i}]"
        if not isinstance(t, dict):
            raise ValueError(f"{where} must be an object")
        letter, rotation, cell = t.get("letter"), t.get("rotation"), _cell(t.get("cell"), where)
        if not isinstance(letter, str) or letter.upper() not in TILES:
            raise ValueError(f"{where}: no Carcassonne tile {letter!r}")
        if rotation not in ROTATIONS or isinstance(rotation, bool):
            raise ValueError(f"{where}: rotation must be one of {list(ROTATIONS)}, got {rotation!r}")
        if cell in tiles:
            raise ValueError(f"{where}: two tiles in cell {list(cell)}")
        tiles[cell] = (*cell, letter.upper(), canonical_rotation(letter.upper(), rotation))
    meeples: set[Figure] = set()
    for i, m in enumerate(raw_meeples):
        where = f"meeples[{i}]"
        if not isinstance(m, dict):
            raise ValueError(f"{where} must be an object")
        colour, feature, cell = m.get("colour"), m.get("feature"), _cell(m.get("cell"), where)
        if colour not in COLOUR_NAMES:
            raise ValueError(f"{where}: colour must be one of {', '.join(COLOUR_NAMES)}, got {colour!r}")
        if feature not in FEATURES:
            raise ValueError(f"{where}: feature must be one of {', '.join(FEATURES)}, got {feature!r}")
        if cell not in tiles:
            raise ValueError(f"{where}: no tile in cell {list(cell)}")
        meeples.add((*cell, COLOUR_NAMES.index(colour) + 1, feature))
    ts, ms = frozenset(tiles.values()), frozenset(meeples)
    return View(ts, ms, tuple((_turn_tiles(ts, t), _turn_meeples(ms, ts, t)) for t in TURNS))


class CarcassonneTable:
    """The face-down stacks of one live game (when hidden), and how a game state looks on the table."""

    zones: tuple[str, ...] = ()  # tiles are not corrected one by one: the player confirms, plays or undoes
    moves_in_view = True  # the referee asks `wellformed_moves` with the view: the new tile shows where it lies
    change_fraction = 0.0002  # of the picture, for the stillness gate: a meeple set down changes 0.03-0.2 %

    def __init__(self, setup: dict[str, Any]) -> None:
        self.hidden = setup.get("stacks") == HIDDEN
        self._fixed_setup: dict[str, Any] | None = None
        self.seen: set[Slot] = set()
        if self.hidden:
            unknown = sorted(set(setup) - {"stacks", "colours"})
            if unknown:
                raise RecordError(f"unknown field(s) {unknown}; hidden stacks take only 'colours'", "setup")
            colours = setup.get("colours", DEFAULT_COLOURS)
            if isinstance(colours, bool) or colours not in COLOUR_CHOICES:
                raise RecordError(f"must be one of {list(COLOUR_CHOICES)}, got {colours!r}", "setup.colours")
            self.stacks = _stand_in_stacks(colours)
        else:  # a known seed or stacks: nothing is hidden; the engine validates them
            self._fixed_setup = dict(setup)
            self.stacks = []

    # -- the record ---------------------------------------------------------------------------
    def record_setup(self) -> dict[str, Any]:
        if self._fixed_setup is not None:
            return dict(self._fixed_setup)
        return {"stacks": [list(stack) for stack in self.stacks]}

    def reveal(self, card: str, slot: str) -> None:
        """Tile `card` was seen laid from `slot` ("colour:index", colour from 1): it takes that place.

        A slot already seen may be named again while its tile is the one drawn (the player sets right a tile
        the camera misread before it is laid): the letter it held goes back among the unseen ones.
        """
        if not self.hidden:
            raise ValueError("the stacks of this game are known: nothing to reveal")
        where = _read_slot(slot, self.stacks)
        partner = self._unseen_copy(card, where)
        if partner is None:
            raise ValueError(f"no unseen {card} is left in the stacks")
        (c, i), (pc, pi) = where, partner
        self.stacks[c][i], self.stacks[pc][pi] = self.stacks[pc][pi], self.stacks[c][i]
        self.seen.add(where)

    def _unseen_copy(self, letter: str, where: Slot) -> Slot | None:
        """The unseen slot at or after `where` (draw order) holding `letter`: `where` itself, else the last one."""
        key = _draw_key(where)
        found = [(c, i) for c, stack in enumerate(self.stacks) for i, t in enumerate(stack)
                 if t == letter and (c, i) not in self.seen and _draw_key((c, i)) >= key]
        if where in found:
            return where
        return max(found, key=_draw_key) if found else None

    # -- what the camera should see ------------------------------------------------------------
    parse_view = staticmethod(parse_view)

    def expected(self, game: Game) -> dict[str, Any]:
        """The table the state implies, cells from the start tile (the face-down stacks are not shown)."""
        pic = self._picture(game)
        return _listing(pic.tiles, pic.meeples, (0, 0))

    def fit(self, game: Any, view: View, confirmed: frozenset[str]) -> list[tuple[str, str]] | None:
        """[] when `view` is the table of `game`'s state (or the drawn tile laid, its meeple not yet), else None."""
        pic = self._picture(game)
        if self.hidden and pic.placed > len(self.seen):
            return None  # a tile laid that the camera never showed: its letter is a stand-in
        # tiles laid before the last explained view's newest one; that one (maybe a tile still waiting for its
        # meeple) and the candidate moves' tiles are compared exactly
        old = frozenset(pic.order[:max(0, min(_seen_count(confirmed), len(pic.order)) - 1)])
        for tiles, meeples in _aligned(view):
            found = _beyond(pic, old, tiles, meeples)
            if found is None or len(found[0]) > 1:
                continue
            new, extra = found
            if any(m[:2] == t[:2] for m in extra for t in new) or not self._returning(game, extra, old):
                continue
            if not new or self._meeple_to_come(game, next(iter(new))):
                return []
        return None

    def drawn(self, game: Game, view: View) -> list[tuple[str, str]]:
        """The reveals the view implies before any move: the face-down tile just laid (its meeple may still be to
        come), or two laid between two stills, told apart by their meeples' colours."""
        if not self.hidden or not isinstance(game, Carcassonne) or game.status != PLAYING:
            return []
        pic = self._picture(game)
        for tiles, meeples in _aligned(view):
            found = _beyond(pic, frozenset(pic.order), tiles, meeples)
            if found is not None and 1 <= len(found[0]) <= 2:
                pairs = self._reveals(game, self._laid_in_turn(game, *found))
                if pairs:
                    return pairs
        return []

    def _laid_in_turn(self, game: Carcassonne, new: frozenset[Tile], fresh: frozenset[Figure]) -> list[Tile]:
        """The new tiles in the order the colours laid them: one, or two whose meeples tell the order (the first
        complete: its meeple stands or none was owed; a second whose meeple is not seen yet is left out)."""
        def colour_on(tile: Tile) -> int | None:
            on = [m[2] for m in fresh if m[:2] == tile[:2]]
            return on[0] if len(on) == 1 else None

        now, then = game.colour + 1, _next_slot(game)[0] + 1
        if len(new) == 1:
            return list(new)  # its meeple may be still to come: the tile itself is seen
        x, y = tuple(new)
        orders = [(a, b) for a, b in ((x, y), (y, x)) if colour_on(a) in (now, None) and colour_on(b) in (then, None)
                  and (colour_on(a), colour_on(b)) != (None, None)]
        if len(orders) != 1:
            return []
        first, second = orders[0]
        if colour_on(first) is None and self._owed(game, first):
            return []
        return [first, second] if colour_on(second) == then else [first]

    def _reveals(self, game: Carcassonne, laid: list[Tile]) -> list[tuple[str, str]]:
        """(letter, slot) for the tiles laid in turn from the drawn slot on, as far as unseen copies are left;
        a slot already seen keeps its letter (the camera does not overrule itself; the player may)."""
        trial, pairs = copy.deepcopy(self), []
        for tile, slot in zip(laid, (_drawn_slot(game), _next_slot(game)), strict=False):
            if slot in trial.seen:
                if trial.stacks[slot[0]][slot[1]] == tile[2]:
                    continue
                break
            try:
                trial.reveal(tile[2], _slot_name(slot))
            except ValueError:
                break
            pairs.append((tile[2], _slot_name(slot)))
        return pairs

    def revealed_by(self, game: Game, raw: Any) -> list[tuple[str, str]]:
        """The reveal a move implies: the face-down tile it lays, or (the player's word over the camera's) another
        letter for a drawn tile the camera misread."""
        if not self.hidden or not isinstance(game, Carcassonne) or game.status != PLAYING or not isinstance(raw, dict):
            return []
        slot, letter = _drawn_slot(game), str(raw.get("tile", "")).upper()
        if (slot in self.seen and letter == game.tile) or self._unseen_copy(letter, slot) is None:
            return []
        return [(letter, _slot_name(slot))]

    def distance(self, game: Game, view: View) -> int:
        """How many tiles and meeples differ between the state's table and `view` (to rank suggestions)."""
        pic = self._picture(game)
        best = len(pic.tiles) + len(view.tiles) + len(pic.meeples) + len(view.meeples)
        for tiles, meeples in _aligned(view):
            best = min(best, len(tiles ^ pic.tiles) + len(meeples ^ pic.meeples))
        return best

    def after_move(self, confirmed: frozenset[str], raw: Any) -> frozenset[str]:
        return confirmed

    def confirmed(self, view: View) -> frozenset[str]:
        """How many tiles the explained view showed: the state's tiles laid before are known, and a later view
        that reads one of them otherwise (the reader's slip) is not held against the game."""
        return frozenset({f"{SEEN_TILES}{len(view.tiles)}"})

    def settled(self, seen: dict[str, Any], game: Game) -> frozenset[str]:
        return frozenset({f"{SEEN_TILES}{len(game.board.order)}"})  # type: ignore[attr-defined]

    def observable(self, raw: Any) -> bool:
        return isinstance(raw, dict)  # every laid tile shows (a face-down one by its reveal, checked in `fit`)

    def wellformed_moves(self, game: Game, view: View | None = None) -> list[dict[str, Any]]:
        """The moves that lay the view's one new tile where it lies, with the meeple it shows (to name violations).

        A known stack may have been misdrawn (another letter: wrong-tile); a hidden one holds the letter the
        view revealed, or the tile is none of the unseen ones and nothing is named.
        """
        if view is None or not isinstance(game, Carcassonne) or game.status != PLAYING:
            return []
        pic = self._picture(game)
        out: list[dict[str, Any]] = []
        for tiles, meeples in _aligned(view):
            found = _beyond(pic, frozenset(pic.order), tiles, meeples)
            if found is None or len(found[0]) != 1 or (self.hidden and next(iter(found[0]))[2] != game.tile):
                continue
            (x, y, letter, rot) = next(iter(found[0]))
            on_it = [m[3] for m in found[1] if m[:2] == (x, y)]
            spot = _spot(letter, rot, on_it[0]) if on_it else None
            move = {"tile": letter, "x": x, "y": y, "rot": rot, "meeple": spot}
            if move not in out:
                out.append(move)
        return out

    def imagine(self, game: Game, move: Any) -> Imagined:
        """The table as `move` would leave it had the rules allowed it: the tile laid, its meeple standing."""
        pic = self._picture(game)
        rot = canonical_rotation(move.tile, move.rot)
        tiles = pic.tiles | {(move.x, move.y, move.tile, rot)}
        meeples = pic.meeples
        if move.meeple is not None:
            colour = game.colour + 1  # type: ignore[attr-defined]
            meeples = meeples | {(move.x, move.y, colour, _feature(move.tile, rot, move.meeple))}
        return Imagined(Picture(frozenset(tiles), frozenset(meeples), (*pic.order, (move.x, move.y))))

    def choices(self) -> list[str]:
        """Tile letters (the dashboard's list; tiles are set right by confirming, playing or undoing)."""
        return list(TILES)

    # -- the state's table ---------------------------------------------------------------------
    def _picture(self, game: Any) -> Picture:
        if isinstance(game, Imagined):
            return game.picture
        board = game.board
        tiles = frozenset((*xy_of(pos), o.letter, canonical_rotation(o.letter, o.rotation))
                          for pos, o in board.tiles.items())
        meeples = frozenset((*xy_of(m.pos), m.colour + 1, board.tiles[m.pos].spot_of(m.part))
                            for m in game.meeples.values())
        return Picture(tiles, meeples, tuple(xy_of(pos) for pos in board.order))

    def _returning(self, game: Any, extra: frozenset[Figure], old: frozenset[Cell]) -> bool:
        """Whether the meeples the view has beyond the state's stand on features the last move scored (on a tile
        seen before, on the tile: its reading, hence the feature's name, may be off)."""
        if not extra:
            return True
        if isinstance(game, Imagined):
            return False
        spots: set[tuple[int, int, str]] = set()
        colours: Counter[int] = Counter()
        for scoring in game.scorings:
            if scoring["turn"] != game.turn or scoring["kind"] not in SCORED_KINDS:
                continue
            colours.update(scoring["meeples"])
            spots |= _feature_spots(game, *scoring["at"])
        cells = {spot[:2] for spot in spots}
        return all(m[0:2] + (m[3],) in spots or (m[:2] in old and m[:2] in cells) for m in extra) and \
            not Counter(m[2] for m in extra) - colours

    def _meeple_to_come(self, game: Any, tile: Tile) -> bool:
        """The new tile is the drawn one (or, face down, may be) and its colour still owes a meeple on it."""
        if isinstance(game, Imagined) or game.status != PLAYING:
            return False
        slot = _drawn_slot(game)
        if self.hidden and slot not in self.seen:
            may_be = self._unseen_copy(tile[2], slot) is not None
        else:
            may_be = tile[2] == game.tile
        return may_be and self._owed(game, tile)

    def _owed(self, game: Carcassonne, tile: Tile) -> bool:
        """Whether laying `tile` obliges the colour to a meeple: it has one left and the tile a free feature."""
        if not game.supply[game.colour]:
            return False
        x, y, letter, rot = tile
        pos, laid = pos_of(x, y), oriented(letter, rot)
        if pos in game.board.frontier and game.board.mismatch(pos, laid) is None:
            return bool(game.graph.plan(pos, laid).free_parts())
        return bool(laid.parts) or laid.monastery  # an illegal place: the meeple it shows decides the violation


# -- helpers -----------------------------------------------------------------------------------------------
def _stand_in_stacks(colours: int) -> list[list[str]]:
    """The 71 tiles in a fixed order, dealt in draw order (colour 1, 2, 3, 1, ...): tiles with the most kinds
    of edge first, as those fit next to almost any board."""
    order = list(TILES)
    letters = sorted(shuffled_tiles(), key=lambda t: (-len(set(TILES[t].canonical)), order.index(t)))
    stacks: list[list[str]] = [[] for _ in range(colours)]
    sizes = stack_sizes(len(letters), colours)
    k = 0
    for index in range(max(sizes)):
        for c in range(colours):
            if index < sizes[c]:
                stacks[c].append(letters[k])
                k += 1
    return stacks


def _draw_key(slot: Slot) -> tuple[int, int]:
    return (slot[1], slot[0])


def _slot_name(slot: Slot) -> str:
    return f"{slot[0] + 1}:{slot[1]}"


def _read_slot(slot: Any, stacks: list[list[str]]) -> Slot:
    try:
        colour, index = (int(p) for p in str(slot).split(":"))
    except ValueError:
        raise ValueError(f"a slot is 'colour:index', got {slot!r}") from None
    if not 1 <= colour <= len(stacks) or not 0 <= index < len(stacks[colour - 1]):
        raise ValueError(f"no slot {slot} in these stacks")
    return (colour - 1, index)


def _drawn_slot(game: Carcassonne) -> Slot:
    c = game.colour
    return (c, len(game.initial_stacks[c]) - len(game.stacks[c]))


def _next_slot(game: Carcassonne) -> Slot:
    """The slot the next colour draws from once the current tile is laid (discards aside)."""
    n, c = len(game.stacks), game.colour
    for k in range(1, n + 1):
        nxt = (c + k) % n
        left = len(game.stacks[nxt]) - (nxt == c)
        if left > 0:
            return (nxt, len(game.initial_stacks[nxt]) - left)
    return (c, len(game.initial_stacks[c]))


def _cell(raw: Any, where: str) -> tuple[int, int]:
    if not (isinstance(raw, list | tuple) and len(raw) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in raw)):
        raise ValueError(f"{where}: cell must be [x, y], got {raw!r}")
    return (raw[0], raw[1])


def _turn_xy(x: int, y: int, turn: int) -> tuple[int, int]:
    for _ in range(turn // 90):
        x, y = -y, x
    return x, y


def _turn_tiles(tiles: frozenset[Tile], turn: int) -> frozenset[Tile]:
    return frozenset((*_turn_xy(x, y, turn), letter, canonical_rotation(letter, (rot + turn) % 360))
                     for x, y, letter, rot in tiles)


def _turn_meeples(meeples: frozenset[Figure], tiles: frozenset[Tile], turn: int) -> frozenset[Figure]:
    """Meeples of a turned board: an edge feature is renamed after the part's first edge as the turned tile lies."""
    lying = {(x, y): (letter, rot) for x, y, letter, rot in tiles}
    out = set()
    for x, y, colour, feature in meeples:
        if feature in DIRECTIONS:
            letter, rot = lying[(x, y)]
            turned = oriented(letter, (rot + turn) % 360)
            feature = _feature(letter, turned.rotation, rotate_edge(feature, turn))
        out.add((*_turn_xy(x, y, turn), colour, feature))
    return frozenset(out)


def _seen_count(confirmed: frozenset[str]) -> int:
    return max((int(c[len(SEEN_TILES):]) for c in confirmed if c.startswith(SEEN_TILES)), default=0)


def _beyond(pic: Picture, old: frozenset[Cell], tiles: frozenset[Tile], meeples: frozenset[Figure]
            ) -> tuple[frozenset[Tile], frozenset[Figure]] | None:
    """The view's tiles and meeples beyond the state's, or None when the view lacks one of the state's.

    A tile in `old` (seen before) may be read otherwise: its cell is what counts, and its meeples count by
    colour, not by the feature named after the misread tile.
    """
    seen = {t[:2]: t for t in tiles}
    for t in pic.tiles:
        got = seen.get(t[:2])
        if got is None or (got != t and t[:2] not in old):
            return None

    def key(m: Figure) -> tuple[Any, ...]:
        return m[:3] if m[:2] in old else m

    left = Counter(key(m) for m in pic.meeples)
    extra = []
    for m in sorted(meeples):
        if left[key(m)] > 0:
            left[key(m)] -= 1
        else:
            extra.append(m)
    if +left:
        return None
    cells = {t[:2] for t in pic.tiles}
    return frozenset(t for c, t in seen.items() if c not in cells), frozenset(extra)


def _aligned(view: View) -> Iterator[tuple[frozenset[Tile], frozenset[Figure]]]:
    """The view in the engine's cells, for each quarter turn and each upright D that could be the start tile."""
    for tiles, meeples in view.turns:
        for x, y, letter, rot in tiles:
            if letter == START_TILE and rot == 0:
                yield (frozenset((tx - x, ty - y, tl, tr) for tx, ty, tl, tr in tiles),
                       frozenset((mx - x, my - y, mc, mf) for mx, my, mc, mf in meeples))


def _feature(letter: str, rot: int, spot: str) -> str:
    """The recogniser's name for the feature a record's meeple spot names on the tile as it lies."""
    laid = oriented(letter, rot)
    part = laid.part_at(spot)
    return FIELD if part < 0 else laid.spot_of(part)


def _spot(letter: str, rot: int, feature: str) -> str:
    """The record's meeple spot for a feature the recogniser saw: a field is named by one of its edges."""
    if feature != FIELD:
        return feature
    laid = oriented(letter, rot)
    edges = [d for d, part in zip(DIRECTIONS, laid.edge_part, strict=True) if part < 0]
    return edges[0] if edges else MONASTERY  # a tile with no field edge: the middle, where it has no monastery


def _feature_spots(game: Carcassonne, x: int, y: int, spot: str) -> set[tuple[int, int, str]]:
    """Every (x, y, feature) of the road, city or monastery that the part at (x, y, spot) belongs to."""
    graph, board = game.graph, game.board
    pos = pos_of(x, y)
    root = graph.find(graph.node_at(pos, board.tiles[pos].part_at(spot)))
    out = set()
    for p, laid in board.tiles.items():
        for part, node in enumerate(graph.part_nodes[p]):
            if graph.find(node) == root:
                out.add((*xy_of(p), laid.spot_of(part)))
    return out


def _listing(tiles: frozenset[Tile], meeples: frozenset[Figure], origin: tuple[int, int]) -> dict[str, Any]:
    """Tiles and meeples as the dashboard's chips ("E 180° at 0,-1", "red S at 0,-1"), cells from `origin`."""
    ox, oy = origin
    return {"tiles": [f"{t} {r}° at {x - ox},{y - oy}" for x, y, t, r in sorted(tiles, key=_by_cell)],
            "meeples": [f"{COLOUR_NAMES[c - 1]} {f} at {x - ox},{y - oy}"
                        for x, y, c, f in sorted(meeples, key=_by_cell)]}


def _by_cell(item: tuple[Any, ...]) -> tuple[Any, ...]:
    return (item[1], item[0], *item[2:])
