"""Pawns standing on cards: small solid pieces of a calibrated colour, and the card each stands on.

The colours are calibrated as meeple colours are (`vision.tiles.meeples`): typical paint by name, or
the player's pawns shown once on a plain surface. A pawn is a blob of one such colour about a pawn's
size in the mm of the card under it (the card's outline sets the scale, so no table calibration is
needed). Card print of the same colour (court figures, red pips and indices) is flat, while a turned
wooden piece is shaded from its lit top to its dark rim: a blob must span a range of lightness, be
solid and not a printed rectangle. Thin print touching a pawn (an index it half covers) is opened
away at the pawn's scale. Nothing here knows a game's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.cards.geometry import CARD_H_MM, CARD_W_MM
from vision.cards.labels import CARD_CODES
from vision.detections import CardDetections
from vision.light import back_in_light
from vision.tiles.figures import MEEPLE_PAINT
from vision.tiles.meeples import Calibration, _distance, _lab, calibrate

PAWN_MM = (9.0, 34.0)  # the narrow side of a pawn's silhouette, from a small pawn seen from above to a big one
AREA_MM2 = (110.0, 1100.0)  # its silhouette's area, from above to about 45 degrees off vertical
MARGIN_MM = 5.0  # around a card: a pawn standing near its edge overhangs it
PIXEL_DISTANCE = 40.0  # Lab units (lightness weighted by LIGHT_WEIGHT) from a calibrated colour, per pixel
BLOB_DISTANCE = 24.0  # the same for a blob's median
OPEN_MM = 2.5  # print strokes thinner than this are opened away
CUT_MM = 6.0  # a blob too large or ragged is cut at bridges narrower than this
# a blob's lightness (L, 0..255) from its 10th to its 90th percentile, over its colour's own L (at least DARK_L):
# flat print .. a turned piece; and the shorter tail of it either side of the median (print in a shadow has one)
SHADE = (0.2, 0.4)
MIN_TAILS = 0.08
DARK_L = 50.0  # a black pawn's shading spans fewer L units
MIN_SOLIDITY = 0.82  # area over convex hull: a pawn is round from every side
MAX_RECT_FILL = 0.9  # area over its minimum rectangle: printed blocks fill theirs, a round piece about 0.8
SAME_PAWN_MM = 10.0  # two candidates whose feet are closer are one pawn
MIN_CONFIDENCE = 0.5
INNER_MM = 2.0  # the shading is measured this far inside a blob's rim
GAP_MM, RING_MM = 1.5, 5.0  # the ring around a pawn that must mostly be of other colours (it stands out)
MAX_SURROUND = 0.4
PAPER_SHARE = 0.6  # the middle of a face (its outline shrunk about its centre) whose pixels show the paper
PAPER_STEP = 4  # every 4th of those pixels
ROUGH_MM = 1.0  # lightness off its blur at this scale, over the colour's L: a turned piece about 0.04, fine print 0.15
MAX_ROUGH = 0.1


@dataclass(frozen=True, slots=True)
class Pawn:
    """One pawn: its colour, where it stands (image px) and the card it stands on (an index, or None)."""

    colour: str
    point: tuple[float, float]
    card: int | None
    confidence: float

    def to_json(self) -> dict[str, Any]:
        return {"colour": self.colour, "point": [round(float(self.point[0]), 1), round(float(self.point[1]), 1)],
                "card": self.card, "confidence": round(float(self.confidence), 3)}


def pawn_colours(names: Sequence[str], photo: np.ndarray | None = None) -> Calibration:
    """The pawns' colours by name (hero 1 first): measured on `photo` (the pawns apart on a plain surface) or paint."""
    names = tuple(names)
    unknown = [n for n in names if n not in MEEPLE_PAINT]
    if not names or unknown or len(set(names)) != len(names):
        raise ValueError(f"pawn colours must be distinct names among {sorted(MEEPLE_PAINT)}, got {list(names)}")
    if photo is not None:
        return calibrate(photo, names)
    return Calibration({n: _lab(MEEPLE_PAINT[n]) for n in names})


def paper_seen(image: np.ndarray, dets: CardDetections) -> np.ndarray | None:
    """The Lab colour of the face-up cards' paper: the median of the middle PAPER_SHARE of each face (print is a small
    share of a face; backs are left out, their design is no paper), or None without a face-up card. A surface every
    frame of a card game shows, so a change of the room's light shows on it (`in_paper_light`)."""
    faces = [q for c, q in zip(dets.codes, dets.corners, strict=True) if c in CARD_CODES]
    if not faces:
        return None
    mask = np.zeros(image.shape[:2], np.uint8)
    for quad in faces:
        q = np.asarray(quad, np.float32)
        middle = q.mean(axis=0) + (q - q.mean(axis=0)) * PAPER_SHARE
        cv2.fillPoly(mask, [np.round(middle).astype(np.int32)], 1)
    pixels = image[mask > 0][::PAPER_STEP]
    if not len(pixels):
        return None
    return np.median(cv2.cvtColor(pixels[:, None, :], cv2.COLOR_BGR2LAB)[:, 0], axis=0).astype(np.float32)


def in_paper_light(image: np.ndarray, dets: CardDetections, paper: np.ndarray | None) -> np.ndarray:
    """The picture brought back to the light in which the cards' paper showed the Lab colour `paper` (the pawn
    colours' reference: a frame of the game in their light), where the paper now shows it changed
    (`vision.light.back_in_light`); the picture itself without a reference or a face-up card. At 0.6 of the
    light a blue pawn fell out of its calibrated colour's cut, at 0.5 a red one too."""
    now = paper_seen(image, dets) if paper is not None else None
    return image if now is None else back_in_light(image, paper, now)


def find_pawns(image: np.ndarray, dets: CardDetections, colours: Calibration,
               trace: list[dict[str, Any]] | None = None) -> list[Pawn]:
    """The pawns standing on (or overhanging) the read cards, surest first; `trace` collects every candidate."""
    if len(dets) == 0 or not colours.colours:
        return []
    scale = _scales(dets)
    h, w = image.shape[:2]
    region = np.zeros((h, w), np.uint8)
    for quad, s in zip(dets.corners, scale, strict=True):
        cv2.fillPoly(region, [np.round(_grown(quad, MARGIN_MM * s)).astype(np.int32)], 1)
    ys, xs = np.nonzero(region)
    if len(ys) == 0:
        return []
    box = np.s_[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    origin = (int(xs.min()), int(ys.min()))
    lab = cv2.cvtColor(image[box], cv2.COLOR_BGR2LAB).astype(np.float32)
    names = list(colours.colours)
    dist = np.stack([_distance(lab, colours.colours[n]) for n in names])
    inside = region[box] > 0
    unit = float(np.median(scale))  # px per mm, for the morphology (each blob is then measured at its own card)
    opening = _disc(OPEN_MM * unit)
    found: list[Pawn] = []
    for k, name in enumerate(names):
        # each colour on its own: a shaded pawn's dark side may lie nearer another colour's paint
        raw = inside & (dist[k] < PIXEL_DISTANCE)
        mask = cv2.morphologyEx(raw.astype(np.uint8), cv2.MORPH_OPEN, opening)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            if area < AREA_MM2[0] * unit * unit * 0.5:
                continue
            blob = labels[y:y + bh, x:x + bw] == i
            for piece, (px, py) in _pieces(blob, unit):
                left, top = x + px, y + py
                pawn, facts = _judge(piece, lab[top:top + piece.shape[0], left:left + piece.shape[1]],
                                     dist[k, top:top + piece.shape[0], left:left + piece.shape[1]],
                                     (left + origin[0], top + origin[1]), (name, colours.colours[name]), dets,
                                     scale, unit)
                facts["surround"] = _surround(raw, piece, (left, top), unit)
                if pawn is not None and facts["surround"] > MAX_SURROUND:
                    pawn = None  # a piece of a larger area of its colour: a card back's pattern, a court's block
                if trace is not None:
                    trace.append(facts)
                if pawn is not None:
                    found.append(pawn)
    return _distinct(found, scale, dets)


def _scales(dets: CardDetections) -> np.ndarray:
    """Px per mm of each card, from its outline's sides."""
    c = dets.corners.astype(np.float64)
    sides = np.linalg.norm(np.roll(c, -1, axis=1) - c, axis=2)  # top, right, bottom, left
    return ((sides[:, 0] + sides[:, 2]) / (2 * CARD_W_MM) + (sides[:, 1] + sides[:, 3]) / (2 * CARD_H_MM)) / 2


def _grown(quad: np.ndarray, by: float) -> np.ndarray:
    centre = quad.mean(axis=0)
    radius = np.linalg.norm(quad - centre, axis=1, keepdims=True)
    return centre + (quad - centre) * (radius + by) / np.maximum(radius, 1e-6)


def _disc(diameter: float) -> np.ndarray:
    d = max(3, int(round(diameter)) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (d, d))


def _pieces(blob: np.ndarray, unit: float) -> list[tuple[np.ndarray, tuple[int, int]]]:
    """The blob itself, and, when it is larger than a pawn or ragged, the cores left after cutting its bridges."""
    out = [(blob, (0, 0))]
    area = blob.sum() / unit ** 2
    if area <= AREA_MM2[1] and _solidity(blob) >= MIN_SOLIDITY:
        return out
    kernel = _disc(CUT_MM * unit)
    core = cv2.erode(blob.astype(np.uint8), kernel)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(core)
    pad = kernel.shape[0]
    for i in range(1, n):
        x, y, w, h, _ = stats[i]
        x0, y0 = max(0, x - pad), max(0, y - pad)
        x1, y1 = min(blob.shape[1], x + w + pad), min(blob.shape[0], y + h + pad)
        grown = (cv2.dilate((labels[y0:y1, x0:x1] == i).astype(np.uint8), kernel) > 0) & blob[y0:y1, x0:x1]
        ys, xs = np.nonzero(grown)
        out.append((grown[ys.min():ys.max() + 1, xs.min():xs.max() + 1], (x0 + int(xs.min()), y0 + int(ys.min()))))
    return out


def _surround(raw: np.ndarray, piece: np.ndarray, at: tuple[int, int], unit: float) -> float:
    """The share of a ring around the piece (GAP_MM to RING_MM off it) that has its colour too."""
    r, g = int(round(RING_MM * unit)), int(round(GAP_MM * unit))
    (left, top), (ph, pw) = at, piece.shape
    y0, x0 = max(0, top - r), max(0, left - r)
    y1, x1 = min(raw.shape[0], top + ph + r), min(raw.shape[1], left + pw + r)
    local = np.zeros((y1 - y0, x1 - x0), np.uint8)
    local[top - y0:top - y0 + ph, left - x0:left - x0 + pw] = piece
    ring = (cv2.dilate(local, _disc(2 * r + 1)) > 0) & (cv2.dilate(local, _disc(2 * g + 1)) == 0)
    return float(raw[y0:y1, x0:x1][ring].mean()) if ring.any() else 0.0


def _solidity(piece: np.ndarray) -> float:
    contours, _ = cv2.findContours(piece.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.concatenate(contours))
    return float(piece.sum() / max(cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True), 1.0))


def _judge(piece: np.ndarray, lab: np.ndarray, dist: np.ndarray, at: tuple[int, int], colour: tuple[str, np.ndarray],
           dets: CardDetections, scale: np.ndarray, unit: float) -> tuple[Pawn | None, dict[str, Any]]:
    """A candidate's measurements, and the pawn it is when they fit one."""
    name, ref = colour
    ys, xs = np.nonzero(piece)
    foot = _foot(piece, at)
    card = _card_under(foot, dets)
    s = float(scale[card]) if card is not None else float(np.median(scale))
    contours, _ = cv2.findContours(piece.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (rw, rh), _ = cv2.minAreaRect(np.concatenate(contours))
    inner = cv2.erode(piece.astype(np.uint8), _disc(INNER_MM * unit)) > 0  # anti-aliased rims are no shading
    light = lab[..., 0][inner if inner.sum() >= 8 else piece] / max(float(ref[0]), DARK_L)
    facts = {
        "colour": name, "foot": foot, "card": card,
        "area_mm2": float(piece.sum()) / s ** 2,
        "narrow_mm": float(min(rw, rh)) / s,
        "solidity": _solidity(piece),
        "rect_fill": float(piece.sum()) / max(rw * rh, 1.0),
        "shade": float(np.percentile(light, 90) - np.percentile(light, 10)),
        "tails": _tails(light),
        "rough": _roughness(lab[..., 0], inner if inner.sum() >= 8 else piece, unit) / max(float(ref[0]), DARK_L),
        "distance": float(np.median(dist[piece])),
    }
    ok = (AREA_MM2[0] <= facts["area_mm2"] <= AREA_MM2[1] and PAWN_MM[0] <= facts["narrow_mm"] <= PAWN_MM[1]
          and facts["solidity"] >= MIN_SOLIDITY and facts["rect_fill"] <= MAX_RECT_FILL
          and facts["distance"] <= BLOB_DISTANCE and facts["tails"] >= MIN_TAILS and facts["rough"] <= MAX_ROUGH)
    shade = (facts["shade"] - SHADE[0]) / (SHADE[1] - SHADE[0])
    closeness = 1.0 - facts["distance"] / BLOB_DISTANCE
    confidence = float(np.clip(0.5 + 0.5 * min(shade, 1.0), 0, 1) * np.clip(0.6 + closeness, 0, 1)) \
        if shade >= 0 else 0.0
    facts["confidence"] = confidence
    if not ok or confidence < MIN_CONFIDENCE:
        return None, facts
    return Pawn(name, foot, card, confidence), facts


def _tails(light: np.ndarray) -> float:
    """The shorter of the lightness tails above and below the median: a turned piece has its lit top and its dark
    rim; flat print in a pawn's shadow only darkens below its own colour."""
    p10, p50, p90 = np.percentile(light, [10, 50, 90])
    return float(min(p90 - p50, p50 - p10))


def _roughness(light: np.ndarray, where: np.ndarray, unit: float) -> float:
    """How much the lightness wanders from its own blur (~1 mm): fine print (a back's lattice) does, a turned piece
    is smooth."""
    blur = cv2.GaussianBlur(light, (0, 0), max(1.0, ROUGH_MM * unit))
    return float(np.median(np.abs(light - blur)[where]))


def _foot(piece: np.ndarray, at: tuple[int, int]) -> tuple[float, float]:
    """Where the pawn stands: its base is the silhouette's lowest part (the camera looks from the image's bottom),
    a round base about as deep as the silhouette is wide, seen from above, less when seen at an angle."""
    ys, xs = np.nonzero(piece)
    bottom = ys.max()
    width = xs.max() - xs.min() + 1
    low = ys >= bottom - max(1, int(0.15 * (bottom - ys.min() + 1)))
    depth = min(bottom - ys.min() + 1, width)
    return float(xs[low].mean()) + 0.5 + at[0], float(bottom + 1 - depth / 2) + at[1]


def _card_under(point: tuple[float, float], dets: CardDetections) -> int | None:
    """The card whose outline holds the point furthest inside (the top one of two overlapping), or None."""
    best, depth = None, 0.0
    for i, quad in enumerate(dets.corners):
        d = cv2.pointPolygonTest(quad.astype(np.float32).reshape(-1, 1, 2), point, True)
        if d >= depth:
            best, depth = i, d
    return best


def _distinct(found: list[Pawn], scale: np.ndarray, dets: CardDetections) -> list[Pawn]:
    """One pawn per spot: a blob and a core cut from it, or a pawn matched by two colours, count once (the surer)."""
    kept: list[Pawn] = []
    for p in sorted(found, key=lambda p: -p.confidence):
        s = float(scale[p.card]) if p.card is not None else float(np.median(scale))
        if all(np.hypot(p.point[0] - q.point[0], p.point[1] - q.point[1]) > SAME_PAWN_MM * s for q in kept):
            kept.append(p)
    return kept

