"""Meeples: colour calibration, finding them on the rectified board, and the feature each stands on.

Colours are matched in Lab against a calibration: by default typical wooden meeple paint, better
the player's own meeples shown once (`calibrate`). Blobs smaller than a meeple (roofs, shields,
outlines) are dropped by size, which the rectified board fixes in tile units.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from vision.light import back_in_light, bgr_of, light_gain, table_seen
from vision.tiles import verifier
from vision.tiles.board_mask import pixels
from vision.tiles.figures import MEEPLE_OUTLINE, MEEPLE_PAINT
from vision.tiles.geometry import (
    CITY_LABEL,
    FIELD_LABEL,
    FOOT_MAP,
    MONASTERY_LABEL,
    ROAD_LABEL,
    foot_pixel,
    rotated_feature_map,
)
from vision.tiles.geometry import feature_edge as _feature_edge

MIN_AREA = 0.018  # tile units squared; a shield is about 0.01, a meeple 0.02 to 0.06
MAX_AREA = 0.2
TYPICAL_AREA = 0.04  # tile units squared: the middle of a standing meeple's 0.02 to 0.06
CANDIDATE_AREA = 0.01  # the verifier sees smaller blobs too: a far, squashed meeple
CANDIDATE_DISTANCES = (18.0, 30.0, 42.0)  # per-pixel colour distances the candidates are cut at
SAME_SPOT = 0.2  # tiles between the feet of two blobs that are one meeple
SHARED_BLOB = 0.5  # share of the smaller of two overlapping blobs they share, beyond which they are one meeple
RECHECK = 0.2  # verifier score from which an unsure candidate is looked at again (`_second_look`)
SURE = 0.9  # verifier score of the meeples that show how the board shows their colour
GAINED_REACH = 0.25  # tiles around the pixels the board's colour gains that its meeples are cut in
BOARD_SHIFT = 10.0  # Lab units between a colour as the board shows it and as calibrated, from which it is cut again
RECHECK_BAR = 0.8  # what the second look must reach: higher than the first cut, it is a second chance
RIM_DISTANCES = CANDIDATE_DISTANCES[:1]  # a colour like the table, cut again without the table: the tightest only
RIM_BAR = RECHECK  # verifier score that keeps a figure of the table's colour whose outline the table hides in part
RIM_HIDDEN = 0.2  # tiles of a candidate's outline that border the table the rim cut took away: the rest is hidden
FOOT_CLEAR = 0.1  # tiles between such a figure's foot and its square's sides: it stands on a tile, not in a gap
HIDDEN_DISTANCES = CANDIDATE_DISTANCES[1:2]  # a looser cut there, kept only for figures the table hides in part
PIXEL_DISTANCE = 30.0  # Lab units (lightness weighted by LIGHT_WEIGHT) from a calibrated colour, per pixel
BLOB_DISTANCE = 25.0  # the same for a blob's median: roofs and shields sit further off than meeples
LIGHT_WEIGHT = 0.4
MIN_SHAPE = 0.64  # overlap with the meeple outline, both scaled to their bounding box
PIECE_SHAPE = 0.7  # stricter for a piece cut out of a larger blob
MIN_LEGS = 0.6  # share of the width its lowest quarter spans
ASPECT = (0.7, 2.2)  # width / height of a standing meeple, seen from above to fairly low
# without a calibration: the usual solo colours; green needs one (it sits too close to dark grass)
DEFAULT_COLOURS = ("red", "blue", "yellow", "black")
SHAPE_SIDE = 20
SPARSE_SIZE = 50_000  # px: masks this large get their blob stats from the blobs' own pixels


def _lab(bgr: tuple[int, int, int]) -> np.ndarray:
    pixel = np.array([[bgr]], np.uint8)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


@dataclass
class Calibration:
    """Lab colour of each meeple colour in play, and the table's Lab colour in the light they were measured in
    (`table`: None when unknown; then a change of light is left to the board's own meeples)."""

    colours: dict[str, np.ndarray] = field(
        default_factory=lambda: {n: _lab(MEEPLE_PAINT[n]) for n in DEFAULT_COLOURS})
    table: np.ndarray | None = None

    def to_json(self) -> dict[str, list[float]]:
        return {name: [round(float(v), 1) for v in lab] for name, lab in self.colours.items()}

    @classmethod
    def from_json(cls, data: dict[str, list[float]]) -> Calibration:
        return cls({name: np.array(lab, np.float32) for name, lab in data.items()})


def _distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    d = lab - ref
    return np.sqrt((LIGHT_WEIGHT * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def calibrate(image: np.ndarray, names: tuple[str, ...] | None = None, on_table: bool = False) -> Calibration:
    """Measures the meeples shown on a plain surface; each is named after the nearest default paint.

    The picture should show one meeple of each colour, apart, on a surface unlike them. `on_table`: that surface is
    the table the board will be laid on, seen by the same camera, so its colour (`table_seen`) is kept as the light
    of the calibration (`in_calibration_light`).
    """
    defaults = Calibration({n: _lab(c) for n, c in MEEPLE_PAINT.items()})
    wanted = names or DEFAULT_COLOURS
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    background = np.median(lab.reshape(-1, 3), axis=0)
    mask = (_distance(lab, background) > 25).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    measured: dict[str, tuple[float, np.ndarray]] = {}
    min_area = image.shape[0] * image.shape[1] * 1e-4
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < min_area:
            continue
        inner = cv2.erode((labels == i).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        if inner.sum() < 4:
            continue
        mean = np.median(lab[inner], axis=0)
        name = min(wanted, key=lambda c: float(_distance(mean, defaults.colours[c])))
        area = float(stats[i, cv2.CC_STAT_AREA])
        if name not in measured or area > measured[name][0]:
            measured[name] = (area, mean)
    colours = {name: measured[name][1] if name in measured else defaults.colours[name] for name in wanted}
    return Calibration(colours, table_seen(image) if on_table else None)


def in_calibration_light(image: np.ndarray, calibration: Calibration) -> np.ndarray:
    """The picture with its light brought back to the calibration's where the table shows it changed (a lamp, a
    cloud, the camera's exposure; `vision.light.back_in_light`): every colour moves with the light, the meeples'
    too, and at 0.7 of the calibration's light a fifth of them fell outside their calibrated colour's cut (held-out
    86% right; `models/tiles.md`, round 47). The picture as it is without a calibrated table colour."""
    if calibration.table is None:
        return image
    return back_in_light(image, calibration.table, table_seen(image))


@dataclass(frozen=True)
class Blob:
    colour: str
    foot: tuple[float, float]  # rectified board px
    origin: tuple[int, int]  # board px of the crop's top-left corner
    crop: np.ndarray  # bool, the blob within its bounding box
    rule_ok: bool = True  # passes the outline rules (what decides when there is no verifier)

    def paint(self, mask: np.ndarray) -> None:
        """Marks the blob's pixels in a board-sized mask."""
        x, y = self.origin
        h, w = self.crop.shape
        mask[y:y + h, x:x + w] |= self.crop.astype(mask.dtype)


@lru_cache(maxsize=8)
def _nearest_lut(colours: tuple[tuple[str, tuple[float, ...]], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Nearest calibrated colour and its distance for every Lab cell of 8 x 8 x 8 units (fast per-pixel lookup);
    `colours` is the calibration as (name, Lab) pairs, so one calibration's tables are built once."""
    grid = np.arange(4, 256, 8, dtype=np.float32)
    cells = np.stack(np.meshgrid(grid, grid, grid, indexing="ij"), axis=-1).reshape(-1, 3)
    dist = np.stack([_distance(cells, np.array(ref, np.float32)) for _, ref in colours])
    return dist.argmin(axis=0).astype(np.uint8), dist.min(axis=0)


def find_meeples(board_bgr: np.ndarray, near_tiles: np.ndarray, patch: int, calibration: Calibration,
                 trace: dict[str, Any] | None = None, lab: np.ndarray | None = None,
                 again: tuple[np.ndarray, Calibration, np.ndarray] | None = None,
                 stands: Callable[[Blob], bool] | None = None) -> list[Blob]:
    """Meeples on the rectified board (`patch` px per tile): coloured candidates, then the verifier decides;
    surest first.

    Without the verifier's model file the outline rules decide (size, proportions, legs apart). `lab`, when
    the caller has it, is the board in Lab (uint8) and saves a conversion. `again`: a second mask, the
    colours whose candidates are cut there too (a meeple coloured like the table, without the table) and
    where that cut took the table away. `stands`: whether a blob's foot stands on a laid tile (`_distinct`).
    """
    model = verifier.load()
    # (mask, colours, cuts, the table the rim cut took away, whether only figures it hides in part count)
    masks: list[tuple[np.ndarray, Calibration, tuple[float, ...], np.ndarray | None, bool]] = [
        (near_tiles, calibration, CANDIDATE_DISTANCES, None, False)]
    if again is not None and again[1].colours:
        masks.append((again[0], again[1], RIM_DISTANCES, again[2], False))
        masks.append((again[0], again[1], HIDDEN_DISTANCES, again[2], True))
    if model is None and trace is None:
        found = [b for mask, cal, *_, hidden_only in masks if not hidden_only
                 for b in candidates(board_bgr, mask, patch, cal, (PIXEL_DISTANCE,), lab)]
        return _distinct([b for b in found if b.rule_ok], patch, [1.0] * len(found), stands)
    found, bars, rim = [], [], []
    for mask, cal, cuts, table, hidden_only in masks:
        for b in candidates(board_bgr, mask, patch, cal, cuts, lab, model is None):
            bar = _bar(b, table, patch)
            if not hidden_only or bar < verifier.THRESHOLD:
                found.append(b)
                bars.append(bar)
                rim.append(table is not None)
    if trace is not None:
        trace["board"] = board_bgr
        trace["candidates"] = found
    if model is None:
        return _distinct([b for b in found if b.rule_ok], patch, [1.0] * len(found), stands)
    if lab is None:
        lab = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2LAB)
    scores = verifier.scores(model, board_bgr, found, patch, calibration, lab)
    # a second chance beside a table coloured like a meeple, as sure as the board's sure meeples
    index = [k for k, s in enumerate(scores) if rim[k] or RECHECK <= s < verifier.THRESHOLD]
    if again is not None and again[1].colours and index:
        grey = _over_grey(model, board_bgr, lab, [found[k] for k in index], again[2], patch, calibration)
        for k, s in zip(index, grey, strict=True):
            scores[k] = max(scores[k], s) if s >= SURE else scores[k]
    # each colour as the board's sure meeples show it
    seen = _sure_colours([b for b, s in zip(found, scores, strict=True) if s >= SURE], patch, lab,
                         [s for s in scores if s >= SURE])
    shown = _board_colours(seen, calibration)
    scores = _second_look(model, board_bgr, found, scores, patch, calibration, lab, shown)
    kept = [(b, s) for b, s, bar in zip(found, scores, bars, strict=True) if s >= bar]
    kept += _board_cut(model, board_bgr, near_tiles, [b for b, _ in kept], patch, calibration, lab,
                       {**_carried(seen, calibration), **shown})
    return _distinct([b for b, _ in kept], patch, [s for _, s in kept], stands)


GREY_TABLE = (128, 128, 128)  # Lab: what the verifier sees of the table the rim cut took away


def _over_grey(
    model: verifier.Verifier,
    board_bgr: np.ndarray,
    lab: np.ndarray,
    blobs: list[Blob],
    table: np.ndarray,
    patch: int,
    calibration: Calibration,
) -> list[float]:
    """The verifier's scores of candidates (the rim cut's, and the unsure ones) with the table that the rim cut takes
    away (`table`: the table within a candidate cut of some meeple colour) painted grey.

    A figure coloured like the table stands over it: its closeness channel shows the table as close to the figure's
    colour as the figure itself, paint all round, and the verifier is unsure of a whole figure (a blue one by the rim
    of a blue cloth scored 0.14-0.20).
    """
    shown, shown_lab = painted(board_bgr, lab, table, np.array(GREY_TABLE, np.uint8))
    return verifier.scores(model, shown, blobs, patch, calibration, shown_lab)


def painted(board_bgr: np.ndarray, lab: np.ndarray, where: np.ndarray, lab_colour: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """Copies of the board in BGR and Lab with `where` painted one Lab colour (uint8) in both, for the verifier,
    which reads both."""
    colour = lab_colour.reshape(1, 1, 3)
    bgr, shown_lab = board_bgr.copy(), lab.copy()
    bgr[where] = cv2.cvtColor(colour, cv2.COLOR_LAB2BGR)[0, 0]
    shown_lab[where] = colour[0, 0]
    return bgr, shown_lab


def _board_cut(model: verifier.Verifier, board_bgr: np.ndarray, near_tiles: np.ndarray, kept: list[Blob], patch: int,
               calibration: Calibration, lab: np.ndarray, shown: dict[str, np.ndarray]) -> list[tuple[Blob, float]]:
    """Meeples cut at the colour the board shows (`shown`: `_board_colours`) where it lies `BOARD_SHIFT` or more
    from the calibrated one, around the pixels that colour gains (`_gained`), each kept at `SURE` (as sure as the
    meeples that show that colour) with its closeness measured to that colour, and none overlapping a meeple kept.

    Under a cast the calibration shot does not share, a meeple's paint can lie so far off its calibrated colour that
    no candidate is cut for it (its blob's median fails the bar), and the second look never sees it; the board's
    sure meeples of that colour show where its paint lies.
    """
    out: list[tuple[Blob, float]] = []
    index = None
    for name, colour in shown.items():
        calibrated = np.asarray(calibration.colours[name], np.float32)
        if float(_distance(colour, calibrated)) < BOARD_SHIFT:
            continue
        index = _lut_index(lab) if index is None else index
        around = _gained(near_tiles, index, colour, calibrated, patch)
        moved = Calibration({**calibration.colours, name: colour})
        blobs = [] if around is None else [
            b for b in candidates(board_bgr, around, patch, moved, CANDIDATE_DISTANCES, lab, False, name, index)
            if not any(_overlap(b, k) for k in kept)]
        if blobs:
            again = verifier.scores(model, board_bgr, blobs, patch, calibration, lab, np.array([colour] * len(blobs)))
            out += [(b, s) for b, s in zip(blobs, again, strict=True) if s >= SURE]
    return out


def _gained(near_tiles: np.ndarray, index: np.ndarray, colour: np.ndarray, calibrated: np.ndarray, patch: int
            ) -> np.ndarray | None:
    """The board px within `GAINED_REACH` of those a colour as the board shows it takes in at the middle cut
    (`PIXEL_DISTANCE`) and its calibrated colour did not (specks opened away), or None when there are none: a
    meeple that was no candidate lies there, and cutting only there keeps the second cut cheap."""
    def near(lab: np.ndarray) -> np.ndarray:
        return np.take(_nearest_lut((("", tuple(map(float, lab))),))[1], index) < PIXEL_DISTANCE

    gained = (near_tiles & near(colour) & ~near(calibrated)).view(np.uint8)
    gained = cv2.morphologyEx(gained, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    if not gained.any():
        return None
    reach = 2 * round(GAINED_REACH * patch) + 1
    return near_tiles & (cv2.dilate(gained, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))) > 0)


def _bar(blob: Blob, table: np.ndarray | None, patch: int) -> float:
    """The verifier score a candidate must reach: lower for a figure of the table's colour that borders the table
    the rim cut took away along `RIM_HIDDEN` of its outline (its head over the table is lost with the table, and
    the verifier, which learnt whole figures, is unsure of the part over the tile) while its foot stands on a tile,
    clear of its sides (dark gaps where tiles meet by a hole in the board have their "foot" on a square's side)."""
    if table is None:
        return verifier.THRESHOLD
    within = np.mod(blob.foot, patch) / patch  # the foot's point in its square
    if not np.all((within >= FOOT_CLEAR) & (within <= 1 - FOOT_CLEAR)):
        return verifier.THRESHOLD
    x, y = blob.origin
    h, w = blob.crop.shape
    grown = cv2.dilate(np.pad(blob.crop.view(np.uint8), 1), np.ones((3, 3), np.uint8)) > 0
    ring = grown & ~np.pad(blob.crop, 1)
    x0, y0 = max(0, x - 1), max(0, y - 1)
    beside = table[y0:y + h + 1, x0:x + w + 1]
    ring = ring[y0 - (y - 1):, x0 - (x - 1):][:beside.shape[0], :beside.shape[1]]
    return RIM_BAR if int((ring & beside).sum()) >= RIM_HIDDEN * patch else verifier.THRESHOLD


def _second_look(model: verifier.Verifier, board_bgr: np.ndarray, found: list[Blob], scores: list[float],
                 patch: int, calibration: Calibration, lab: np.ndarray, shown: dict[str, np.ndarray]) -> list[float]:
    """Scores again the unsure candidates of a colour the verifier is sure of elsewhere on the board, with that
    colour as the board shows it (`shown`: `_board_colours`); a candidate is kept when the second look reaches
    `RECHECK_BAR`.

    A meeple on the board lies from its calibrated colour by its own paint and by what the calibration shot and
    the board do not share (light, colour cast, the calibration meeple's own paint), and the verifier's
    closeness channel then reads it as paint. The board's sure meeples of its colour share the second part.
    """
    unsure = [k for k, s in enumerate(scores) if RECHECK <= s < verifier.THRESHOLD]
    unsure = [k for k in unsure if found[k].colour in shown]
    if not unsure:
        return scores
    refs = np.array([shown[found[k].colour] for k in unsure])
    again = verifier.scores(model, board_bgr, [found[k] for k in unsure], patch, calibration, lab, refs)
    out = list(scores)
    for k, s in zip(unsure, again, strict=True):
        if s >= RECHECK_BAR:
            out[k] = s
    return out


def _carried(seen: dict[str, list[np.ndarray]], calibration: Calibration) -> dict[str, np.ndarray]:
    """Each colour without sure meeples as the light the board's sure meeples (`seen`: `_sure_colours`) show would
    show it: the calibrated
    colour's BGR times the gain from the calibrated colours of the sure ones to their median colours on the board,
    one for all three channels (the light changed since the calibration shot: a lamp, a cloud, the camera's
    exposure). A gain per channel moved a yellow towards green: the sure reds and blues each show their own
    shading in their own channel.

    A light change moves every colour, the bright ones most: at 0.8 of the calibration's light a yellow meeple lies
    20 Lab units off its calibrated colour, a red one 15, a blue one 12 and a black one 4, so the blacks and blues
    are still found surely while the yellows and reds fail the candidate cut (held-out, light 0.8 after calibrating:
    5 of 47 yellow and 3 of 55 red meeples missed, every blue and black found)."""
    rest = [n for n in calibration.colours if n not in seen]
    if not seen or not rest:
        return {}
    gain = light_gain(np.array([calibration.colours[n] for n in seen]),
                      np.array([np.median(np.array(c), axis=0) for c in seen.values()]))
    moved = np.clip(np.round(bgr_of(np.array([calibration.colours[n] for n in rest], np.float32)) * gain),
                    0, 255).astype(int)
    return {name: _lab(tuple(bgr)) for name, bgr in zip(rest, moved.tolist(), strict=True)}


def _sure_colours(sure: list[Blob], patch: int, lab: np.ndarray, scores: list[float]) -> dict[str, list[np.ndarray]]:
    """The median colour (Lab) of each distinct sure meeple, by colour."""
    seen: dict[str, list[np.ndarray]] = {}
    for b in _distinct(sure, patch, scores):
        x, y = b.origin
        h, w = b.crop.shape
        seen.setdefault(b.colour, []).append(np.median(lab[y:y + h, x:x + w][b.crop].astype(np.float32), axis=0))
    return seen


def _board_colours(seen: dict[str, list[np.ndarray]], calibration: Calibration) -> dict[str, np.ndarray]:
    """Each colour with sure meeples (`seen`: `_sure_colours`) as the board shows it (Lab): the calibrated colour
    moved to their median colour by n / (n + 1) of the way for n distinct meeples (one alone is half the evidence)."""
    out: dict[str, np.ndarray] = {}
    for name, colours in seen.items():
        ref = np.asarray(calibration.colours[name], np.float32)
        out[name] = ref + len(colours) / (len(colours) + 1) * (np.median(np.array(colours), axis=0) - ref)
    return out


def candidates(board_bgr: np.ndarray, near_tiles: np.ndarray, patch: int, calibration: Calibration,
               distances: tuple[float, ...] = CANDIDATE_DISTANCES, lab: np.ndarray | None = None,
               rules: bool = True, only: str | None = None, index: np.ndarray | None = None) -> list[Blob]:
    """Blobs of a calibrated colour and about a meeple's size, whole and cut at thin bridges (permissive).

    Several colour distances: a tight one parts a meeple from art of a like colour (a red meeple on a
    red-roofed city), a loose one keeps a blurred or shaded one whole. `rules`: whether to judge each
    candidate by the outline rules too (`Blob.rule_ok`; the verifier, when there is one, decides alone).
    `only`: the one colour whose candidates are wanted (pixels still go to their nearest calibrated colour);
    `index`: the board's `_lut_index`, when the caller has it.
    """
    if lab is None:
        lab = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2LAB)
    nearest_lut, dist_lut = _nearest_lut(tuple((n, tuple(map(float, c))) for n, c in calibration.colours.items()))
    index = _lut_index(lab) if index is None else index
    distance = np.take(dist_lut, index)  # np.take: twice as fast as indexing over a whole board
    nearest = np.take(nearest_lut, index)
    loosest = max(distances)
    within = near_tiles & (distance < loosest)
    blobs: list[Blob] = []
    for k, name in enumerate(calibration.colours):
        if only is not None and name != only:
            continue
        # tighter masks are subsets of the loosest one: label the board once, the rest within each blob's box
        loose = within & (nearest == k)
        rows, cols = np.flatnonzero(loose.any(axis=1)), np.flatnonzero(loose.any(axis=0))
        if len(rows) == 0:
            continue
        # only the part of the board where this colour occurs is labelled (a pixel of margin for the opening)
        top, left = max(0, rows[0] - 1), max(0, cols[0] - 1)
        area_box = np.s_[top:rows[-1] + 2, left:cols[-1] + 2]
        mine = distance[area_box]  # within a blob of this colour, its pixels' distance to it
        n, labels, stats = _components(loose[area_box].astype(np.uint8))
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if area < CANDIDATE_AREA * patch * patch or min(w, h) < 0.1 * patch:
                continue
            x0, y0 = max(0, x - 2), max(0, y - 2)
            box = np.s_[y0:y + h + 2, x0:x + w + 2]
            own = labels[box] == i
            closeness = mine[box][own]
            for limit in distances:
                kept = int((closeness < limit).sum())
                if limit != loosest and kept == len(closeness):
                    continue  # the tighter mask keeps the whole blob: the same candidates as the loosest one
                if kept < CANDIDATE_AREA * patch * patch:
                    continue  # too few pixels left for any candidate (the opening only takes more away)
                # the loosest blob is already labelled: only the tighter ones need labelling again
                known = (2, own.astype(np.int32), np.array([[0, 0, 0, 0, 0], [x - x0, y - y0, w, h, area]]))
                blobs += _colour_blobs(own & (mine[box] < limit), (x0 + left, y0 + top), lab, name, patch, calibration,
                                       BLOB_DISTANCE * limit / PIXEL_DISTANCE, known if limit == loosest else None,
                                       rules)
    return blobs


def _lut_index(lab: np.ndarray) -> np.ndarray:
    """Each Lab (uint8) pixel's cell of `_nearest_lut`'s 8 x 8 x 8 unit tables (15 bits)."""
    q = lab >> 3
    return (q[..., 0].astype(np.uint16) << 10) | (q[..., 1].astype(np.uint16) << 5) | q[..., 2]


def _components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected blobs after an opening that drops gaps and outlines, which would join blobs into nets."""
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    return labelled(opened, cv2.CCL_SAUF)


def labelled(mask: np.ndarray, algorithm: int = cv2.CCL_DEFAULT) -> tuple[int, np.ndarray, np.ndarray]:
    """`cv2.connectedComponentsWithStats` (8-connected): count, labels and (x, y, w, h, area) rows.

    On a large mask the stats are taken from the blobs' own pixels: OpenCV's pass visits every pixel, the
    background's too, which costs four times the labelling itself where a colour covers a few percent of a
    board (a small mask keeps OpenCV's). Row 0 (the background) is then left zero.
    """
    if mask.size < SPARSE_SIZE:
        n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, algorithm)
        return n, labels, stats
    n, labels = cv2.connectedComponentsWithAlgorithm(mask, 8, cv2.CV_32S, algorithm)
    stats = np.zeros((n, 5), np.int32)
    xs, ys = pixels(mask)
    if len(xs) == 0:
        return n, labels, stats
    label = labels[ys, xs]
    low = np.full((2, n), np.iinfo(np.int32).max, np.int32)
    high = np.full((2, n), -1, np.int32)
    for axis, values in enumerate((xs, ys)):
        np.minimum.at(low[axis], label, values)
        np.maximum.at(high[axis], label, values)
    stats[1:, :2] = low[:, 1:].T
    stats[1:, 2:4] = (high - low + 1)[:, 1:].T
    stats[:, 4] = np.bincount(label, minlength=n)
    return n, labels, stats


def _colour_blobs(close: np.ndarray, offset: tuple[int, int], lab: np.ndarray, name: str, patch: int,
                  calibration: Calibration, blob_limit: float,
                  labelled: tuple[int, np.ndarray, np.ndarray] | None = None, rules: bool = True) -> list[Blob]:
    area_unit = patch * patch
    n, labels, stats = labelled if labelled is not None else _components(close.astype(np.uint8))
    blobs: list[Blob] = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if area / area_unit < CANDIDATE_AREA or min(w, h) < 0.1 * patch:
            continue
        part = labels[y:y + h, x:x + w] == i
        pieces = _pieces(part, area / area_unit, CANDIDATE_AREA * area_unit)
        if not pieces or pieces[0][0] is not part:
            pieces = [(part, (0, 0)), *pieces]  # the whole blob too: the verifier may know it better
        for piece, (px, py) in pieces:
            ph, pw = piece.shape
            if not CANDIDATE_AREA <= piece.sum() / area_unit <= MAX_AREA or min(ph, pw) < 0.1 * patch:
                continue
            top, left = offset[1] + y + py, offset[0] + x + px
            pixels = lab[top:top + ph, left:left + pw][piece].astype(np.float32)
            if _median(_distance(pixels, calibration.colours[name])) > blob_limit:
                continue
            rule_ok = not rules or _meeple_like(piece, area_unit, MIN_SHAPE if piece is part else PIECE_SHAPE)
            blobs.append(Blob(name, _foot_in(piece, left, top), (left, top), piece, rule_ok))
    return blobs


def _median(values: np.ndarray) -> float:
    """`np.median` of a 1-d float array, bit for bit (the middle two averaged in the array's dtype), without its
    overhead: a board has a few hundred candidate pieces of some hundred pixels each."""
    n = len(values)
    if n == 0:
        return float("nan")
    half = n // 2
    if n % 2:
        return float(np.partition(values, half)[half])
    middle = np.partition(values, (half - 1, half))
    return float((middle[half - 1] + middle[half]) / values.dtype.type(2))


def _distinct(blobs: list[Blob], patch: int, scores: list[float], stands: Callable[[Blob], bool] | None = None
              ) -> list[Blob]:
    """One meeple per spot: a blob and a piece cut from it (or two overlapping pieces) count once, surest first.

    Overlapping blobs whose feet lie apart are one too when they share most of the smaller one: a meeple and
    the looser blob that joins it to a roof below (whose foot falls on the next tile down). Each meeple is
    the blob of its group nearest a meeple's usual size (`TYPICAL_AREA`) by ratio: the surest is often a small
    core cut above the legs, whose foot lies high, and the largest joins the figure's shadow. Where `stands` is
    given, only blobs whose foot stands on a laid tile are chosen while the group has one: a meeple stands on a
    tile, and a blob of its group whose foot ends a hair beyond the tile's side would lose it.
    """
    order = sorted(range(len(blobs)), key=lambda i: -scores[i])
    heads: list[Blob] = []
    groups: list[list[Blob]] = []
    for i in order:
        b = blobs[i]
        home = next((g for head, g in zip(heads, groups, strict=True) if _same_meeple(b, head, patch)), None)
        if home is None:
            heads.append(b)
            groups.append([b])
        else:
            home.append(b)
    unit = float(patch * patch)

    def off_size(m: Blob) -> float:
        # by ratio: a core cut to half a meeple's size is as far off as a blob joined to a shadow its size
        return abs(float(np.log(int(m.crop.sum()) / unit / TYPICAL_AREA)))

    if stands is None:
        return [min(g, key=off_size) for g in groups]
    return [g[0] if len(g) == 1 else min(g, key=lambda m: (not stands(m), off_size(m))) for g in groups]


def _same_meeple(a: Blob, b: Blob, patch: int) -> bool:
    shared = _overlap(a, b)
    if shared == 0:
        return False
    near = np.hypot(a.foot[0] - b.foot[0], a.foot[1] - b.foot[1]) <= SAME_SPOT * patch
    return bool(near or shared >= SHARED_BLOB * min(int(a.crop.sum()), int(b.crop.sum())))


def _overlap(a: Blob, b: Blob) -> int:
    """Pixels two blobs share."""
    (ax, ay), (bx, by) = a.origin, b.origin
    (ah, aw), (bh, bw) = a.crop.shape, b.crop.shape
    x0, y0, x1, y1 = max(ax, bx), max(ay, by), min(ax + aw, bx + bw), min(ay + ah, by + bh)
    if x0 >= x1 or y0 >= y1:
        return 0
    return int((a.crop[y0 - ay:y1 - ay, x0 - ax:x1 - ax] & b.crop[y0 - by:y1 - by, x0 - bx:x1 - bx]).sum())


def _pieces(part: np.ndarray, area: float, least: float = 0.0) -> list[tuple[np.ndarray, tuple[int, int]]]:
    """The blob itself, or, when it is no meeple as a whole, what is left after cutting thin bridges.

    A black meeple touches its own shadow and the dark gaps between tiles; a red one a red roof. Cores whose
    grown box holds fewer than `least` px cannot make a candidate and are not grown.
    """
    if area <= MAX_AREA and _meeple_like(part, None):
        return [(part, (0, 0))]
    out: list[tuple[np.ndarray, tuple[int, int]]] = []
    most = MAX_AREA * part.sum() / max(area, 1e-9)  # px: a core larger than a meeple yields no meeple
    for size in (5, 7):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        core = cv2.erode(part.astype(np.uint8), kernel)
        n, labels, stats = labelled(core)
        for i in range(1, n):
            x, y, w, h, pixels = stats[i]
            if pixels > most or (w + size - 1) * (h + size - 1) < least:
                continue  # larger than a meeple, or too small to grow back into a candidate
            # grow the core back within its own box (a large part holds many cores)
            x0, y0 = max(0, x - size), max(0, y - size)
            x1, y1 = min(part.shape[1], x + w + size), min(part.shape[0], y + h + size)
            grown = cv2.dilate((labels[y0:y1, x0:x1] == i).astype(np.uint8), kernel) > 0
            piece = grown & part[y0:y1, x0:x1]
            px, py, pw, ph = cv2.boundingRect(piece.view(np.uint8))  # the piece's own box (it holds its core)
            out.append((piece[py:py + ph, px:px + pw], (px + x0, py + y0)))
        if out:
            break
    return out


def _meeple_like(crop: np.ndarray, area_unit: float | None, shape: float = MIN_SHAPE) -> bool:
    """Size (when `area_unit` is given), proportions and outline of a standing meeple."""
    h, w = crop.shape
    if area_unit is not None and not MIN_AREA <= crop.sum() / area_unit <= MAX_AREA:
        return False
    return ASPECT[0] <= w / h <= ASPECT[1] and _shape_overlap(crop) >= shape and _legs(crop) >= MIN_LEGS


def _legs(crop: np.ndarray) -> float:
    """How wide the blob stands on its lowest quarter: a meeple's legs spread, a cross or roof ends narrow."""
    h, w = crop.shape
    low = crop[int(0.75 * h):]
    cols = np.nonzero(low.any(axis=0))[0]
    return float((cols[-1] - cols[0] + 1) / w) if len(cols) else 0.0


def _template() -> np.ndarray:
    canvas = np.zeros((SHAPE_SIDE, SHAPE_SIDE), np.uint8)
    pts = np.round(MEEPLE_OUTLINE * (SHAPE_SIDE - 1) * 16).astype(np.int32)
    cv2.fillPoly(canvas, [pts], 1, cv2.LINE_8, shift=4)
    return canvas > 0


TEMPLATE = _template()


def _shape_overlap(crop: np.ndarray) -> float:
    """Intersection over union of a blob and the meeple outline, each stretched to a square."""
    scaled = cv2.resize(crop.astype(np.uint8), (SHAPE_SIDE, SHAPE_SIDE), interpolation=cv2.INTER_NEAREST) > 0
    union = (scaled | TEMPLATE).sum()
    return float((scaled & TEMPLATE).sum() / union) if union else 0.0


def _foot_in(crop: np.ndarray, left: int, top: int) -> tuple[float, float]:
    """Where a standing figure touches the board: the middle of its lowest rows (board px)."""
    ys, xs = np.nonzero(crop)
    bottom = ys.max()
    low = ys >= bottom - max(1, int(0.15 * (bottom - ys.min() + 1)))
    return (float(xs[low].mean()) + 0.5 + left, float(bottom) + 0.5 + top)


def feature_at(letter: str, rotation: int, u: float, v: float) -> str:
    """The feature under point (u, v) of a tile: an edge naming its road or city part, monastery or field."""
    x, y = foot_pixel(u, v)
    label = int(rotated_feature_map(letter, rotation, FOOT_MAP)[y, x])
    if label == FIELD_LABEL:
        return "field"
    if label == MONASTERY_LABEL:
        return "monastery"
    if label >= ROAD_LABEL:
        return _feature_edge(letter, rotation, "road", label - ROAD_LABEL)
    return _feature_edge(letter, rotation, "city", label - CITY_LABEL)
