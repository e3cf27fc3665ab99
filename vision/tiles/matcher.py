"""Matches measured tile structure against every catalog letter and rotation, the board's edges agreeing.

Expectations come from the catalog's geometry measured exactly as the reader measures pictures, so
nothing is tuned per letter. Neighbouring tiles see the same edge from both sides; their evidence is
pooled before each tile is decided, which is what real play guarantees (edges match).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.tiles.catalog import DIRECTIONS, OPPOSITE, ROTATIONS, STEP, TILES, canonical_rotation, hypotheses
from vision.tiles.geometry import (
    FIELD_LABEL,
    FOOT_MAP,
    MONASTERY_HALF,
    ROAD_WIDTH,
    foot_pixel,
    junction,
    rotate_points,
    rotated_feature_map,
    shapes,
    shield_spot,
)
from vision.tiles.reader import PATCH, SEEN_GRID, TileFeatures, read_tile

Cell = tuple[int, int]
EDGE_KINDS = ("C", "R", "F")
EDGE_SIGMA = 0.2
# the onward shortfall's spread on a road: the catalog's roads show none, and the crossing share itself already
# weighs the stub against a field at EDGE_SIGMA (tuning sets, tiles mended and broken: 0.2 9 and 3, 0.12 16 and 5,
# 0.1 20 and 7; meeples on the tiles that changed -1, -1, -2)
ONWARD_SIGMA = 0.12
# a corner city's edge (N, M, O, P) reads thin towards the far corner, where its curved wall meets the side: the wall's
# paint and blur leave a road-wide window there mostly field (the small tuning sets, 2632 such edges: `clearest` 0.81
# at the median, 0.33-0.42 at the 5th percentile, against a city edge's 0.95), which a road's model reads better than
# a city's. A corner city's hypotheses read each of its edges also by its end at the city's corner and its middle
# alone, as a city's, less THIN_PENALTY, where that reads it better and that end reads city (THIN_END at least, and
# the middle half): an I's caps, a cap's edge and a road's are thin at that end too, a corner city's is not. The edge
# kinds neighbours hear stay the kinds' own, and how like catalog tiles a grid's cells read (`catalog_fit`, the
# reading's `fits`) is judged without it: a grid a picture allows is chosen by the catalog's geometry alone.
THIN_PENALTY = 4.5  # at 3, two poorly read tiles of full boards gained 1.0-1.2 and moved letters through the counts
THIN_END = 0.8
SHAPE_SIGMA = 0.3
# blue share above which a shield is seen: plain tiles read none (on the tuning sets 0 but for 1 in 2700, at 0.0028),
# so the few shield pixels a meeple leaves seen count (round 17: the cut was 0.004)
SHIELD_BLUE = 0.002
SHIELD_SCALE = 0.00075  # blue share over which the evidence for a shield goes from even to about 3 to 1
SHIELD_HALF = 0.09  # half a painted shield's width (tiles)
# a shield spot's mean blue lead (`TileFeatures.lead`, levels) at which it reads as even odds of a shield, and the
# lead over which that goes to about 3 to 1: a blurred modern shield leaves `blue_mask` a px or two, but its spot
# leads by a few levels; a plain city's spot by under 2 (tuning sets: 2 of 9600 plain twins over 1). Tiles mended and
# broken on the nine tuning sets: 6 / 2 21 and 0; 5 / 1.5 19 and 1; 6 / 1.5 13 and 0; 6 / 2.5 27 and 7; 3 / 0.75 24
# and 9
SPOT_LEAD = 6.0
SPOT_LEAD_SCALE = 2.0
# a shield spot whose city is less yellow (Lab b*) than the rest of the tile's city by SPOT_YELLOW reads as even odds
# of a shield, by SPOT_YELLOW_SCALE more about 3 to 1 (`_greyer`): a modern shield is blue-grey in a yellow-brown
# city, and blurred it leaves no blue to the mask nor lead, but greys its spot. Only where the city covers SPOT_CITY of
# the spot, and the tile's city is tinted SPOT_TINT beyond neutral (a grey or pastel city shows no such contrast).
# Plain twins' spots drop by 5 at most (nine tuning sets, 12 000 eligible plain tiles), shields' by 31 (median).
# Tuning sets, boards mended and broken (tiles: seven sets, modern-x, tune4): 10 to 13.5 19 and 0 (+25, +7, +8); 14.5
# and 15 17 and 0 (+21, +6, +8)
SPOT_YELLOW = 12.0
SPOT_YELLOW_SCALE = 3.0
SPOT_CITY = 0.9
SPOT_TINT = 15.0
SPOT_SEEN = 0.3  # seen share of a shield's spot under which its absence is no evidence against it
SPOT_WHOLE = 0.8  # seen share from which its absence is the whole evidence (between: a part of it, log-linearly)
PRIOR_WEIGHT = 0.3
FIELD_MEEPLE = 0.05  # how often a meeple stands on a field, against a road, city or monastery
NEIGHBOUR_WEIGHT = 0.6  # how much the neighbour's view of a shared edge counts against the tile's own
MESSAGE_ROUNDS = 2  # rounds of neighbours telling each other their belief about shared edges
MESSAGE_WEIGHT = 1.0
MESSAGE_FLOOR = 0.1  # a neighbour's belief never rules an edge out: the neighbour may be misread or no tile
WEDGE_SEEN = 0.5  # least not-field share along the diagonal under which a field wedge shows there (`_between`)
OPPOSITE_INDEX = [DIRECTIONS.index(OPPOSITE[d]) for d in DIRECTIONS]


@dataclass(frozen=True)
class Reading:
    letter: str
    rotation: int
    confidence: float


def truth_masks(letter: str, rotation: int) -> tuple[np.ndarray, np.ndarray]:
    """Not-field and shield masks of the catalog geometry at PATCH px, as the tile lies."""
    not_field = np.zeros((PATCH, PATCH), np.uint8)
    for shape in shapes(letter):
        pts = np.round(shape.points * PATCH * 16).astype(np.int32)
        if shape.kind in ("city", "monastery"):
            cv2.fillPoly(not_field, [pts], 1, cv2.LINE_8, shift=4)
        else:
            cv2.polylines(not_field, [pts], False, 1, max(1, round(ROAD_WIDTH * PATCH)), cv2.LINE_8, shift=4)
    if junction(letter):
        h = int(round(0.08 * PATCH))
        c = PATCH // 2
        not_field[c - h:c + h, c - h:c + h] = 1
    shield = np.zeros((PATCH, PATCH), np.uint8)
    if any(part.shield for part in TILES[letter].cities):
        c = PATCH // 2
        shield[c - 2:c + 2, c - 2:c + 2] = 1
    k = -(rotation // 90)
    return np.rot90(not_field, k) > 0, np.rot90(shield, k) > 0


@cache
def expectations() -> dict[tuple[str, int], TileFeatures]:
    full = np.ones((PATCH, PATCH), bool)
    return {h: read_tile(*truth_masks(*h), full) for h in hypotheses()}


@cache
def edge_models() -> dict[str, np.ndarray]:
    """Mean (sides, middle, clearest) not-field share per edge kind, over the catalog's geometry."""
    samples: dict[str, list[tuple[float, float, float]]] = {k: [] for k in EDGE_KINDS}
    for (letter, rotation), f in expectations().items():
        for e, kind in enumerate(TILES[letter].edges(rotation)):
            samples[kind].append((f.sides[e], f.middles[e], f.clearest[e]))
    return {k: np.mean(v, axis=0) for k, v in samples.items()}


def edge_loglik(f: TileFeatures) -> np.ndarray:
    """(4, 3): log-likelihood of each edge N E S W being C, R, F."""
    return _edge_logliks([f])[0]


def _onward_logliks(features: list[TileFeatures]) -> np.ndarray:
    """(T, 4, 3): what each edge's road crossing running on says of it being C, R, F: only against a road.

    Every road runs on to 0.3 tile in or more (the catalog's roads fill the onward band as they fill the
    crossing); a farmhouse painted by a field edge, blurred, fills the edge strip and the road band behind it
    but not the onward band. So the crossing's shortfall there (its share less the onward share) counts
    against a road; a field or city edge is judged by the crossing alone, as before (a city's cap may end
    before the onward band, and a road the reader does not see at all already reads as no road). Hidden: no
    evidence.
    """
    shortfall = np.stack([np.clip(f.middles - f.onward, 0.0, None) for f in features])  # (T, 4)
    out = np.zeros((len(features), 4, 3))
    out[..., EDGE_KINDS.index("R")] = np.where(np.isnan(shortfall), 0.0, -(shortfall**2) / (2 * ONWARD_SIGMA**2))
    return out


def _edge_logliks(features: list[TileFeatures]) -> np.ndarray:
    """(T, 4, 3): `edge_loglik` of many tiles at once."""
    models = edge_models()
    obs = np.stack([np.stack([f.sides, f.middles, f.clearest], axis=1) for f in features])  # (T, 4, 3)
    out = np.empty((len(features), 4, 3))
    for k, kind in enumerate(EDGE_KINDS):
        out[..., k] = -np.nansum((obs - models[kind]) ** 2, axis=2) / (2 * EDGE_SIGMA**2)  # hidden: no evidence
    return out


def _thin_gain(features: list[TileFeatures], reads: np.ndarray) -> np.ndarray:
    """(T, 4, 2): how much better each edge reads as a city by its end box (`TileFeatures.ends`) and middle alone,
    less THIN_PENALTY, than by the city's whole model, or 0; 0 where that end is hidden."""
    side, middle, _ = edge_models()["C"]
    ends = np.stack([f.ends for f in features])  # (T, 4, 2)
    middles = np.stack([f.middles for f in features])[..., None]  # (T, 4, 1)
    thin = -((ends - side) ** 2 + np.nan_to_num(middles - middle) ** 2) / (2 * EDGE_SIGMA**2) - THIN_PENALTY
    gain = np.maximum(thin - reads[..., EDGE_KINDS.index("C"), None], 0.0)
    with np.errstate(invalid="ignore"):
        city = (ends >= THIN_END) & (middles >= 0.5)  # hidden (NaN): no evidence
    return np.where(city, gain, 0.0)


def _corner_ends(letter: str, rotation: int) -> np.ndarray:
    """(4, 2) one-hot per edge N E S W: its end box (as `TileFeatures.ends`) at its corner city's corner; none where
    the edge is no corner city's (N, M, O, P: a city of two edges side by side)."""
    out = np.zeros((4, 2))
    for part in TILES[letter].city_parts(rotation):
        e1, e2 = sorted(DIRECTIONS.index(d) for d in part.edges) if len(part.edges) == 2 else (0, 0)
        if e2 - e1 not in (1, 3):
            continue
        corner = e1 if e2 == e1 + 1 else e2  # NE SE SW NW: corner k lies between edges k and k + 1
        for e in (e1, e2):
            out[e, 1 if corner == e else 0] = 1.0  # edge e's first end lies at corner e - 1, its second at corner e
    return out


@dataclass(frozen=True)
class _Table:
    """Every hypothesis as arrays, so a tile is scored against all of them at once."""

    keys: list[tuple[str, int]]
    kinds: np.ndarray  # (H, 4) index into EDGE_KINDS
    centre: np.ndarray  # (H,)
    corners: np.ndarray  # (H, 4)
    between: np.ndarray  # (H, 4)
    wedge: np.ndarray  # (H, 4)
    city_corner: np.ndarray  # (H, 4) bool: the corner lies between two city edges
    corner_ends: np.ndarray  # (H, 4, 2) one-hot: a corner city's edges' end at its corner (`_corner_ends`)
    twins: np.ndarray  # (H,) int: hypotheses with the same edges N E S W share a number
    shield: np.ndarray  # (H,) bool
    prior: np.ndarray  # (H,)
    spots: np.ndarray  # (H, 4) int: the shield's spot (index into `spot_cells`) at each turn folding onto h, or -1
    spot_cells: np.ndarray  # (SEEN_GRID**2, spots): each spot's share of every seen-map cell its box covers
    twin_pairs: np.ndarray  # (pairs, 2) int: a shield hypothesis and its plain twin (same edges and city parts)
    twin_spots: np.ndarray  # (pairs, 4) int: the shield's spot at each of its turns (as `spots`), or -1
    letter: np.ndarray  # (H,) int: index of the hypothesis's letter in TILES
    count: np.ndarray  # (letters,) int: how many tiles of each letter the game holds


@cache
def _field_maps() -> np.ndarray:
    """(hypotheses, FOOT_MAP, FOOT_MAP) bool: where each letter and rotation is field."""
    return np.stack([rotated_feature_map(letter, r, FOOT_MAP) == FIELD_LABEL for letter, r in _table().keys])


@cache
def _table() -> _Table:
    expected = expectations()
    keys = list(expected)
    total = sum(t.count for t in TILES.values())
    return _Table(
        keys=keys,
        kinds=np.array([[EDGE_KINDS.index(k) for k in TILES[letter].edges(r)] for letter, r in keys]),
        centre=np.array([expected[h].centre for h in keys]),
        corners=np.array([expected[h].corners for h in keys]),
        between=np.array([expected[h].between for h in keys]),
        wedge=np.array([expected[h].wedge for h in keys]),
        city_corner=np.array([[edges[k] == "C" and edges[(k + 1) % 4] == "C" for k in range(4)]
                              for edges in (TILES[letter].edges(r) for letter, r in keys)]),
        corner_ends=np.stack([_corner_ends(letter, r) for letter, r in keys]),
        twins=np.unique([TILES[letter].edges(r) for letter, r in keys], axis=0, return_inverse=True)[1].ravel(),
        shield=np.array([any(p.shield for p in TILES[letter].cities) for letter, _ in keys]),
        prior=np.array([PRIOR_WEIGHT * np.log(TILES[letter].count / total) for letter, _ in keys]),
        **_with_twins(keys, _shield_spots(keys)),
        letter=np.array([list(TILES).index(letter) for letter, _ in keys]),
        count=np.array([t.count for t in TILES.values()]),
    )


def _shield_spots(keys: list[tuple[str, int]]) -> dict[str, np.ndarray]:
    """Where each hypothesis's shield is painted, as boxes over the reader's seen map (`_Table.spots`).

    A letter whose turns look alike (F at 0 and 180) may have its shield at either turn's spot.
    """
    points: list[tuple[float, float]] = []
    spots = np.full((len(keys), len(ROTATIONS)), -1)
    for h, (letter, rotation) in enumerate(keys):
        parts = [p for p in TILES[letter].cities if p.shield]
        turns = [r for r in ROTATIONS if canonical_rotation(letter, r) == rotation]
        for k, r in enumerate(turns if parts else []):
            point = tuple(np.round(rotate_points(np.array([shield_spot(parts[0].edges)]), r)[0], 6))
            if point not in points:
                points.append(point)
            spots[h, k] = points.index(point)
    centres = (np.arange(SEEN_GRID) + 0.5) / SEEN_GRID
    cells = np.zeros((SEEN_GRID, SEEN_GRID, len(points)))
    for k, (x, y) in enumerate(points):
        inside = (np.abs(centres - x) < SHIELD_HALF)[None, :] & (np.abs(centres - y) < SHIELD_HALF)[:, None]
        cells[..., k] = inside / inside.sum()
    return {"spots": spots, "spot_cells": cells.reshape(SEEN_GRID**2, -1)}


def _with_twins(keys: list[tuple[str, int]], spots: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """`spots` and each shield twin pair with the shield's spots (`_Table.twin_pairs`, `twin_spots`).

    Twins lie alike but for the shield: the same edges and the same city parts (M and N, not M and I).
    """
    def layout(h: int) -> tuple[tuple[str, ...], frozenset[frozenset[str]]]:
        letter, rotation = keys[h]
        return TILES[letter].edges(rotation), frozenset(p.edges for p in TILES[letter].city_parts(rotation))

    shielded = [h for h, (letter, _) in enumerate(keys) if any(p.shield for p in TILES[letter].cities)]
    pairs = [(a, b) for a in shielded for b in range(len(keys)) if b not in shielded and layout(a) == layout(b)]
    twin_pairs = np.array(pairs, int).reshape(-1, 2)
    return {**spots, "twin_pairs": twin_pairs, "twin_spots": spots["spots"][twin_pairs[:, 0]]}


def match_board(features: dict[Cell, TileFeatures], feet: dict[Cell, list[tuple[float, float]]] | None = None,
                rounds: int = MESSAGE_ROUNDS, uncounted: frozenset[Cell] = frozenset(),
                fits: list[float] | None = None) -> dict[Cell, Reading]:
    """The most likely letter and rotation per cell, with each shared edge read from both sides.

    `feet` (unit points per cell where meeples stand) pool the meeples' evidence: a meeple is put on
    a road, city or monastery far more often than on a field, so a reading that leaves it on a field
    is less likely (a meeple covering a short road stub no longer turns W into U).

    First each shared edge's reading is pooled from both sides. Then, since laid tiles' edges match,
    each tile hears what its neighbours as a whole (all their evidence, the catalog) say its shared edges
    are: `rounds` rounds of passing every tile's belief about its edges to the tile across them. Last, no letter
    is read on more tiles than the game holds (`within_counts`), among the tiles not in `uncounted` (those an
    arm touches: what the arm leaves of them may read as any letter, as surely as a whole tile).
    `fits`, when given, receives the mean over the tiles of their best own log-score (`catalog_fit`, here with the
    meeples' evidence; -inf for no tile): how like catalog tiles the cells read, at no cost beyond the matching.
    """
    feet = feet or {}
    cells = list(features)
    if not cells:
        if fits is not None:
            fits.append(-np.inf)
        return {}
    reads, own = _own(features, feet)
    if fits is not None:
        fits.append(float(own.max(axis=1).mean()))
    # once the grid is taken (the fits judge it by the catalog's own geometry): a corner city's thin edges
    own = own + np.einsum("tek,hek->th", _thin_gain(list(features.values()), reads), _table().corner_ends)
    index = {cell: k for k, cell in enumerate(cells)}
    # across[t, e]: the tile sharing edge e of tile t, or -1
    across = np.full((len(cells), 4), -1)
    for cell, k in index.items():
        for e, other in _neighbours(cell, index):
            across[k, e] = index[other]
    has = across >= 0
    pooled = np.zeros_like(reads)
    pooled[has] = NEIGHBOUR_WEIGHT * reads[across[has], np.array(OPPOSITE_INDEX)[np.nonzero(has)[1]]]
    base = own + _edge_scores(pooled)
    scores = base
    for _ in range(rounds):
        beliefs = _edge_beliefs(scores)  # (T, 4, 3)
        heard = np.zeros_like(reads)
        heard[has] = MESSAGE_WEIGHT * np.log(
            MESSAGE_FLOOR + (1 - MESSAGE_FLOOR) * beliefs[across[has], np.array(OPPOSITE_INDEX)[np.nonzero(has)[1]]])
        scores = base + _edge_scores(heard)
    chosen = within_counts(scores, np.array([cell not in uncounted for cell in cells]))
    return {cell: _reading(scores[k], chosen[k]) for cell, k in index.items()}


def _own(features: dict[Cell, TileFeatures], feet: dict[Cell, list[tuple[float, float]]]
         ) -> tuple[np.ndarray, np.ndarray]:
    """Each tile's edge-kind log-likelihoods (T, 4, 3) and every hypothesis's log-score from the tile's own evidence
    (T, H): edges, shape, shields, the meeples on it; nothing its neighbours say."""
    tiles = list(features.values())
    reads = _edge_logliks(tiles) + _onward_logliks(tiles)
    own = np.stack([_scores(f, reads[k], feet.get(cell, [])) for k, (cell, f) in enumerate(features.items())])
    table = _table()
    return reads, own + _twin_lift(_greyer(tiles, table), table)


def catalog_fit(features: dict[Cell, TileFeatures]) -> np.ndarray:
    """(T,) each tile's best hypothesis's own log-score: how much like some catalog tile, at some rotation, what a
    cell shows reads. A cell spanning two tiles, or half of one, reads like none (`pipeline._read_as`)."""
    return _own(features, {})[1].max(axis=1)


def within_counts(scores: np.ndarray, counted: np.ndarray | None = None) -> np.ndarray:
    """(T,) each tile's hypothesis, no letter read on more tiles than the game holds.

    Each tile takes its best; while a letter is read on more tiles than the catalog's count (a fourth N, a second
    T: one of them is misread, most often a shield letter whose shield a meeple hides, read as its commoner plain
    twin), the tile of it that loses least moves to its best letter with tiles left. Boards with fewer tiles
    than the game's are rarely pressed, but a full board's reading is a whole set. Only the `counted` tiles
    (default all) are tallied and moved; the others keep their best.
    """
    t = _table()
    chosen = scores.argmax(axis=1)
    counted = np.ones(len(chosen), bool) if counted is None else counted
    while True:
        read = np.bincount(t.letter[chosen[counted]], minlength=len(t.count))
        over = read > t.count
        room = (read < t.count)[t.letter]  # (H,)
        if not over.any() or not room.any():
            return chosen
        alternative = np.where(room, scores, -np.inf).argmax(axis=1)
        crowded = np.flatnonzero(over[t.letter[chosen]] & counted)
        loss = scores[crowded, chosen[crowded]] - scores[crowded, alternative[crowded]]
        k = crowded[int(np.argmin(loss))]
        chosen[k] = alternative[k]


def _neighbours(cell: Cell, present: dict[Cell, object]) -> list[tuple[int, Cell]]:
    """(edge index, neighbour cell) for each edge of `cell` that another tile in `present` shares."""
    out = []
    for e, d in enumerate(DIRECTIONS):
        other = (cell[0] + STEP[d][0], cell[1] + STEP[d][1])
        if other in present:
            out.append((e, other))
    return out


def _edge_scores(edge_ll: np.ndarray) -> np.ndarray:
    """(T, H) each hypothesis's share of (T, 4, 3) tables of edge-kind log-likelihoods (or (H,) of one)."""
    return edge_ll[..., np.arange(4), _table().kinds].sum(axis=-1)


def _edge_beliefs(scores: np.ndarray) -> np.ndarray:
    """(T, 4, 3): probability of each edge N E S W being C, R, F under each tile's posterior (T, H)."""
    probs = np.exp(scores - scores.max(axis=1, keepdims=True))
    probs /= probs.sum(axis=1, keepdims=True)
    return np.einsum("th,hek->tek", probs, _kind_onehot())


@cache
def _kind_onehot() -> np.ndarray:
    """(H, 4, 3): 1 where hypothesis h has edge kind k at edge e."""
    return (_table().kinds[:, :, None] == np.arange(3)).astype(np.float64)


def _scores(f: TileFeatures, edge_ll: np.ndarray, feet: list[tuple[float, float]]) -> np.ndarray:
    """(H,) log-score of every hypothesis from the tile's own evidence."""
    t = _table()
    scores = _edge_scores(edge_ll) + t.prior
    fields = _field_maps()
    for u, v in feet:
        x, y = foot_pixel(u, v)
        scores += np.where(fields[:, y, x], np.log(FIELD_MEEPLE), 0.0)
    if not np.isnan(f.centre):
        scores -= (f.centre - t.centre) ** 2 / (2 * SHAPE_SIGMA**2)
    seen = ~np.isnan(f.corners)
    scores -= ((f.corners[seen] - t.corners[:, seen]) ** 2).sum(axis=1) / (2 * SHAPE_SIGMA**2)
    scores -= _between(f, t)
    if not np.isnan(f.blue):
        scores += _shield_scores(f, t)
    return scores


def _greyer(features: list[TileFeatures], t: _Table) -> np.ndarray:
    """(T, spots) odds of a shield from each spot's city being less yellow than the rest of the tile's city; 0 (no
    evidence) where the city covers under SPOT_CITY of the spot or the tile's city is tinted under SPOT_TINT."""
    cover = np.stack([f.cover.ravel() for f in features])  # (T, cells)
    tinted = cover * np.stack([f.tint.ravel() for f in features])
    spot_cover = cover @ t.spot_cells  # (T, spots)
    spot_b = (tinted @ t.spot_cells) / np.maximum(spot_cover, 1e-9)
    inside = (t.spot_cells > 0).astype(float)
    rest_cover = cover.sum(axis=1, keepdims=True) - cover @ inside
    rest_b = (tinted.sum(axis=1, keepdims=True) - tinted @ inside) / np.maximum(rest_cover, 1e-9)
    odds = np.clip(1 / (1 + np.exp(-(rest_b - spot_b - SPOT_YELLOW) / SPOT_YELLOW_SCALE)), 0.02, 0.98)
    return np.where((spot_cover >= SPOT_CITY) & (rest_b >= SPOT_TINT) & (rest_cover > 0), odds, 0.0)


def _twin_lift(greyer: np.ndarray, t: _Table) -> np.ndarray:
    """(T, H) what `greyer` (T, spots) adds: each shield letter raised, and its plain twin lowered, by the log odds
    its own spot's greyer city gives beyond even odds; evidence between twins only, 0 for every other letter.

    Added to both (twice the odds between them): where the blue already tells the twins apart, a shield the greyer
    spot confirms also holds its own in `within_counts` against a misread twin elsewhere on a full board.
    """
    g = np.where(t.twin_spots >= 0, greyer[:, t.twin_spots], 0.0).max(axis=2)  # (T, pairs) the surer turn (F: two)
    lift = np.log(np.maximum(g, 0.5) / (1 - np.maximum(g, 0.5)))  # 0 at even odds or under, or without evidence
    out = np.zeros((len(greyer), len(t.keys)))
    shield, plain = t.twin_pairs.T
    out[:, shield] = lift
    out[:, plain] = -lift
    return out


def _shield_scores(f: TileFeatures, t: _Table) -> np.ndarray:
    """(H,) what the blue share says of each hypothesis's shield.

    A shield is painted at one spot; where a meeple hides that spot, no blue there is no evidence against
    the shield (the catalog's counts then choose between a shield letter and its plain twin), while blue
    seen beside the figure still counts for it. Where a figure hides a part of the spot, no blue is a part of the
    evidence, so on a full board the counts move the twin a figure stands on before one whose spot shows whole.
    """
    p = float(np.clip(1 / (1 + np.exp(-(f.blue - SHIELD_BLUE) / SHIELD_SCALE)), 0.02, 0.98))
    # a spot whose blue leads by a few levels shows a shield the strict mask missed (blurred): per spot, the surer
    lead = np.clip(1 / (1 + np.exp(-(f.lead.ravel() @ t.spot_cells - SPOT_LEAD) / SPOT_LEAD_SCALE)), 0.02, 0.98)
    p_spot = np.maximum(p, lead)  # (spots,)
    seen = np.clip((f.seen.ravel() @ t.spot_cells - SPOT_SEEN) / (SPOT_WHOLE - SPOT_SEEN), 0.0, 1.0)  # (spots,)
    at = p_spot[t.spots]  # (H, 4)
    per_turn = at ** seen[t.spots] * np.maximum(at, 1 - at) ** (1 - seen[t.spots])  # (H, 4)
    turns = t.spots >= 0
    shielded = (per_turn * turns).sum(axis=1) / np.maximum(turns.sum(axis=1), 1)
    return np.log(np.where(t.shield, shielded, 1 - p_spot.max()))


def _between(f: TileFeatures, t: _Table) -> np.ndarray:
    """(H,) penalty from the diagonal between two city edges, deeper in than the corner box.

    Two separate caps (I) leave field there, one corner city (N, M) covers it; the art's deep caps and walls
    fill the corner box between I's caps about as much as a corner city's. The field wedge between the caps
    still shows along the diagonal itself (`TileFeatures.wedge`, its least not-field share): where it shows, it is
    judged in the box's place (modern art's deep caps meet short of it and fill the box; judging both broke two
    tiles on the tuning sets). Each hypothesis is judged against the best
    of those with the same edges (its twins), so only twins that part there (I against N and M) move; every other
    letter's score is as before.
    """
    # a wedge seen is evidence; none seen is not (an I's caps may meet on the diagonal short of the wedge)
    wedge = np.where(f.wedge < WEDGE_SEEN, f.wedge, np.nan)
    between = np.where(np.isnan(wedge), f.between, np.nan)
    err = np.zeros(len(t.keys))
    for seen, expected in ((between, t.between), (wedge, t.wedge)):
        err += np.where(t.city_corner & ~np.isnan(seen), (seen - expected) ** 2, 0.0).sum(axis=1)  # (H,)
    best = np.full(t.twins.max() + 1, np.inf)
    np.minimum.at(best, t.twins, err)
    return (err - best[t.twins]) / (2 * SHAPE_SIGMA**2)


def _reading(scores: np.ndarray, chosen: int) -> Reading:
    probs = np.exp(scores - scores.max())
    probs /= probs.sum()
    letter, rotation = _table().keys[chosen]
    return Reading(letter, rotation, float(probs[chosen]))  # hypotheses hold canonical rotations only


__all__ = ["Reading", "match_board", "catalog_fit", "expectations", "edge_models", "truth_masks", "MONASTERY_HALF"]
