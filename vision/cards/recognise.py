"""Cards read with a player's enrolled deck: outlines found on the table, identities from the deck profile.

Outlines of lone cards and piles are the card pipeline's classical proposals (`contours.propose`;
the detector's boxes are looser than these on a plain table and cost a network run). A bright blob
one card wide but longer than a card is a fan (a weapon with monsters laid over it, each shifted
down): it is straightened, and every offset along it is tried as a card's top edge by correlating
the strip a fanned card leaves visible (its top with the printed index) with the same strip of each
enrolled card; the index corner then decides between the best few. A whole card (a lone card, the
card on top of a fan) is identified by the profile's matcher (`vision.enroll.matcher`), which sees
the whole face, with a second look at its index corner and pips.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.contours import propose
from vision.cards.geometry import CARD_ASPECT, portrait_corners, quad_iou
from vision.detections import CardDetections
from vision.enroll.canon import CARD, rotate_quarter, warp
from vision.enroll.matcher import Matcher
from vision.enroll.store import Profile

STRIP = 0.24  # of the card's height: what a fanned card shows of itself above the next one
MIN_STRIP_SCORE = 0.75  # correlation of a strip under which an offset is not a card's top
MIN_GAP = 0.12  # of the card's height between two fanned cards' tops
MIN_BLOB = 0.002  # of the image area
FAN_MIN = 1.25  # blob length over a card's height above which a blob is a fan, not one card
MAX_FAN = 3.0  # longest fan, in card heights
END_BAND = 0.2  # of a card's height: the band at a fan's end that shows the card on top alone
END_ROWS = 0.12  # of a fan's length: its last rows, where only the card on top lies
PAD = 12  # canonical pixels around a straightened fan
INDEX_MM = (16.0, 12.0)  # height and width of the printed index corner a fanned card shows
INDEX_CANDIDATES = 10  # best strips given a second look at their index corner
INDEX_WEIGHT = 4.0  # the index corner tells ranks apart that the strip does not
SHAPE_SIGMA = 4.0  # pixels of the light field removed from a whole face before it is compared
FACE_INSET = 6  # pixels cut from a whole face template's sides, so it can slide over outline errors
INDEX_MARGIN = 0.03  # by which the index corner must prefer another card to overrule the matcher
SEARCH = 3  # pixels the index corner may sit off where its strip put it
STRIP_INSET = 4  # pixels cut from a template strip's sides, so it can slide over outline errors


@dataclass
class FanCard:
    corners: np.ndarray  # (4, 2) clockwise from the top-left, image px (covered part included)
    label: str
    score: float


def _blobs(image: np.ndarray) -> list[np.ndarray]:
    """Bright regions (card faces and the white borders of backs) on a darker table."""
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = MIN_BLOB * image.shape[0] * image.shape[1]
    return [c for c in contours if cv2.contourArea(c) >= least]


def _rect(contour: np.ndarray) -> tuple[np.ndarray, float, float]:
    """The blob's rotated rectangle as (corners clockwise from the top-left of the upright long side, w, h)."""
    box = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    corners = portrait_corners(box)
    w = float(np.linalg.norm(corners[1] - corners[0]))
    h = float(np.linalg.norm(corners[3] - corners[0]))
    if corners[0][1] + corners[1][1] > corners[2][1] + corners[3][1]:  # keep the top side up in the image
        corners = np.roll(corners, 2, axis=0)
    return corners, w, h


class DeckRecogniser:
    """`predict(image)` like `vision.cards.predict`, but every identity comes from one enrolled deck."""

    def __init__(self, profile: Profile, allowed: Iterable[str] | None = None) -> None:
        if allowed is not None:
            allowed = set(allowed)
            profile = in_play(profile, allowed)
        self.matcher = Matcher(profile)
        self.labels = profile.labels
        crops, owner = profile.arrays["crops"], profile.arrays["crop_owner"].astype(int)
        keep = [i for i, o in enumerate(owner) if not self.labels[o].startswith("back")
                and (allowed is None or self.labels[o] in allowed)]
        self._strip_labels = [self.labels[owner[i]] for i in keep for _ in (0, 2)]
        self._strip_crops = [rotate_quarter(crops[i], t) for i in keep for t in (0, 2)]
        self._templates: dict[int, list[np.ndarray]] = {}

    # -- outlines ---------------------------------------------------------------------------------
    def predict(self, image: np.ndarray) -> CardDetections:
        blobs = [(c, *_rect(c)) for c in _blobs(image)]
        whole = list(propose(image))  # the card pipeline's classical blobs: lone cards and piles
        fans: list[FanCard] = []
        for c, q, w, h in blobs:
            if FAN_MIN < h / max(w * CARD_ASPECT, 1) and h < MAX_FAN * w * CARD_ASPECT:
                fan = self._fan(image, c, q)
                fans += fan[:-1]
                # The fan is read here: outlines found inside it, or over its cards, are its cards again.
                whole = [o for o in whole if cv2.pointPolygonTest(c, tuple(map(float, o.mean(axis=0))), False) < 0
                         and all(quad_iou(o, f.corners) < 0.3 for f in fan)]
                whole += [f.corners for f in fan[-1:]]  # the card on top: identified whole with the lone ones
        codes, corners, conf = self._whole(image, whole)  # one batch: the matcher's projection is the cost
        out_codes = codes + [f.label for f in fans]
        out_corners = corners + [f.corners for f in fans]
        out_conf = conf + [f.score for f in fans]
        keep = [i for i, code in enumerate(out_codes) if code != "unknown"]
        n = len(keep)
        backs = [int(out_codes[i][4:] or 0) if out_codes[i].startswith("back") else -1 for i in keep]
        return CardDetections(["back" if b >= 0 else out_codes[i] for i, b in zip(keep, backs, strict=True)],
                              np.array([out_corners[i] for i in keep], np.float32).reshape(-1, 4, 2),
                              np.array([out_conf[i] for i in keep], np.float32), np.array(backs, np.int16),
                              np.ones(n, bool))

    def _whole(self, image: np.ndarray, outlines: list[np.ndarray]) -> tuple[list[str], list[np.ndarray], list[float]]:
        if not outlines:
            return [], [], []
        found = self.matcher.identify_many(image, np.array(outlines, np.float32))
        codes = [f.label if f.label.startswith("back") else self._index_check(image, f.corners, f.label) for f in found]
        return codes, [f.corners for f in found], [float(np.clip(f.score, 0, 1)) for f in found]

    def _index_check(self, image: np.ndarray, corners: np.ndarray, label: str) -> str:
        """The matcher's answer, unless the printed index says another suit of that rank or rank of that suit.

        The learned metric sees the whole face coarsely; a club and a spade of one rank, or a 4 and a 6 of
        one suit, differ in a few pixels that the index corner shows best.
        """
        if label == "unknown" or label not in self._strip_labels:
            return label
        width = float(np.linalg.norm(corners[1] - corners[0]))
        crop = _soft(warp(image, corners, CARD).astype(np.float32))
        index, faces = self._index_templates(width), self._face_templates(width)
        shapes = _half(_shapes(crop))
        rank, suit = label[:-1], label[-1]
        scores: dict[str, float] = {}
        for k, other in enumerate(self._strip_labels):
            if other[:-1] != rank and other[-1] != suit:
                continue
            inner = index[k][SEARCH:, SEARCH:]
            window = crop[:inner.shape[0] + 2 * SEARCH, :inner.shape[1] + 2 * SEARCH]
            score = float(cv2.matchTemplate(window, inner, cv2.TM_CCOEFF_NORMED).max())
            score += float(cv2.matchTemplate(shapes, faces[k], cv2.TM_CCOEFF_NORMED).max())  # pips: a club or a spade
            scores[other] = max(scores.get(other, -1.0), score)
        best = max(scores, key=lambda lab: scores[lab])
        return best if scores[best] > scores.get(label, -1.0) + INDEX_MARGIN else label

    # -- fans ------------------------------------------------------------------------------------
    def _fan(self, image: np.ndarray, contour: np.ndarray, rect: np.ndarray) -> list[FanCard]:
        """The cards of a fan from its first (topmost) card to the last, which lies on top, whole (its label
        is left empty: the caller identifies it with the lone cards).

        The fan is straightened at the canonical crop's scale (a card CARD.width pixels wide); each
        enrolled card's top strip is slid over it (template correlation), so every offset and a few
        pixels of sideways drift are tried at once. The card on top ends the fan: it is outlined at
        the fan's end and identified whole, even when its top strip (a court card's picture) is unsure.
        """
        width = _end_width(image.shape, contour, rect)
        w = float(np.linalg.norm(rect[1] - rect[0]))
        length = float(np.linalg.norm(rect[3] - rect[0]))
        scale = CARD.width / width
        cw, ch = int(round(w * scale)) + 2 * PAD, int(round(length * scale)) + 2 * PAD
        dst = np.array([[PAD, PAD], [cw - PAD, PAD], [cw - PAD, ch - PAD], [PAD, ch - PAD]], np.float32)
        m = cv2.getPerspectiveTransform(rect.astype(np.float32), dst)
        column = cv2.warpPerspective(image, m, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        column = _soft(column.astype(np.float32))
        templates = self._strip_templates(width)
        th, tw = templates[0].shape[:2]
        if column.shape[0] < th or column.shape[1] < tw:
            return []
        maps = np.stack([cv2.matchTemplate(column, t, cv2.TM_CCOEFF_NORMED) for t in templates])
        per_row = maps.max(axis=2)  # (templates, rows): the best sideways place
        scores = per_row.max(axis=0)
        end = ch - PAD - CARD.height  # where the top of the card on top lies
        gap = int(MIN_GAP * CARD.height)
        scores[max(int(end) - gap, 0):] = -1.0  # near the end only the card on top can start
        picked = _peaks(scores, gap, MIN_STRIP_SCORE)
        inv = np.linalg.inv(m)
        cards = []
        for row in picked:
            k = self._index_look(column, row, per_row[:, row], maps[:, row].argmax(axis=1), width)
            x = int(maps[k, row].argmax())
            quad = _box(x - STRIP_INSET, row - STRIP_INSET, CARD.width, CARD.height)
            corners = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), inv).reshape(4, 2)
            cards.append(FanCard(corners, self._strip_labels[k], float(scores[row])))
        if cards:
            mask = np.zeros(image.shape[:2], np.uint8)
            cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED)
            colmask = cv2.warpPerspective(mask, m, (cw, ch), flags=cv2.INTER_NEAREST)
            top_card = _card_on_top(colmask, int(ch - PAD - END_BAND * CARD.height))
            if top_card is None:
                top_card = _box(PAD, end, CARD.width, CARD.height)
            corners = cv2.perspectiveTransform(top_card.reshape(-1, 1, 2), inv).reshape(4, 2)
            cards.append(FanCard(portrait_corners(corners), "", 0.0))  # read whole by the caller
        return cards

    def _index_look(self, column: np.ndarray, row: int, strip: np.ndarray, xs: np.ndarray, width: float) -> int:
        """Of the best few strips, the one whose printed index corner fits best too (a 4 and a 6 share a top)."""
        order = np.argsort(strip)[::-1][:INDEX_CANDIDATES]
        best, best_score = int(order[0]), -np.inf
        for k in order:
            template = self._index_templates(width)[int(k)]
            th, tw = template.shape[:2]
            y0, x0 = row - STRIP_INSET - SEARCH, int(xs[k]) - STRIP_INSET - SEARCH
            window = column[max(y0, 0):y0 + th + 2 * SEARCH, max(x0, 0):x0 + tw + 2 * SEARCH]
            if window.shape[0] < th or window.shape[1] < tw:
                continue
            index = float(cv2.matchTemplate(window, template, cv2.TM_CCOEFF_NORMED).max())
            score = float(strip[k]) + INDEX_WEIGHT * index
            if score > best_score:
                best, best_score = int(k), score
        return best

    def _index_templates(self, seen_width: float) -> list[np.ndarray]:
        key = -int(round(seen_width))
        if key not in self._templates:
            h, w = (int(round(v * CARD.px_per_mm())) for v in INDEX_MM)
            self._templates[key] = [_sharpened_like(crop, seen_width)[:h, :w].copy() for crop in self._strip_crops]
        return self._templates[key]

    def _face_templates(self, seen_width: float) -> list[np.ndarray]:
        key = 100_000 + int(round(seen_width))
        if key not in self._templates:
            cut = slice(FACE_INSET // 2, -FACE_INSET // 2)
            self._templates[key] = [_half(_shapes(_sharpened_like(crop, seen_width)))[cut, cut].copy()
                                    for crop in self._strip_crops]
        return self._templates[key]

    def _strip_templates(self, seen_width: float) -> list[np.ndarray]:
        """The enrolled faces' top strips (inset a little), made as soft as the camera's view of a card."""
        key = int(round(seen_width))
        if key not in self._templates:
            self._templates[key] = [_strip(crop, seen_width) for crop in self._strip_crops]
        return self._templates[key]


def in_play(profile: Profile, allowed: set[str]) -> Profile:
    """The profile cut down to the cards in play (and the backs): a card not in the game is never an answer."""
    labels = profile.labels
    keep = [i for i, lab in enumerate(labels) if lab in allowed or lab.startswith("back")]
    remap = np.full(len(labels), -1, np.int64)
    remap[keep] = np.arange(len(keep))
    arrays = dict(profile.arrays)
    rows = remap[profile.arrays["owner"].astype(int)] >= 0
    crops = remap[profile.arrays["crop_owner"].astype(int)] >= 0
    for key in ("features", "owner", "turn"):
        arrays[key] = profile.arrays[key][rows]
    arrays["owner"] = remap[arrays["owner"].astype(int)].astype(np.int16)
    arrays["crops"] = profile.arrays["crops"][crops]
    arrays["crop_owner"] = remap[profile.arrays["crop_owner"][crops].astype(int)].astype(np.int16)
    manifest = {**profile.manifest, "labels": [labels[i] for i in keep]}
    return Profile(profile.name, profile.kind, manifest, arrays, profile.images)


def _card_on_top(colmask: np.ndarray, band_top: int) -> np.ndarray | None:
    """The top card's outline in a straightened fan, from the fan's last rows (where nothing else lies):
    their rectangle gives the card's bottom edge and its tilt, the card's shape gives the rest."""
    ys, xs = np.nonzero(colmask[band_top:])
    if len(xs) < 10:
        return None
    pts = np.stack([xs, ys + band_top], axis=1).astype(np.float32)
    box = cv2.boxPoints(cv2.minAreaRect(pts))
    bottom = box[np.argsort(box[:, 1])[2:]]
    bl, br = bottom[np.argsort(bottom[:, 0])]
    edge = br - bl
    length = float(np.linalg.norm(edge))
    if length < 0.5 * CARD.width:
        return None
    up = np.array([edge[1], -edge[0]], np.float32) / length
    if up[1] > 0:
        up = -up
    tall = up * length * CARD_ASPECT
    return np.array([bl + tall, br + tall, br, bl], np.float32)


def _end_width(shape: tuple[int, ...], contour: np.ndarray, rect: np.ndarray) -> float:
    """A fan's card width: the blob's width across its last rows, where only the card on top lies."""
    w = int(round(float(np.linalg.norm(rect[1] - rect[0])))) + 2
    h = int(round(float(np.linalg.norm(rect[3] - rect[0])))) + 2
    mask = np.zeros(shape[:2], np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED)
    dst = np.array([[1, 1], [w - 1, 1], [w - 1, h - 1], [1, h - 1]], np.float32)
    column = cv2.warpPerspective(mask, cv2.getPerspectiveTransform(rect.astype(np.float32), dst), (w, h),
                                 flags=cv2.INTER_NEAREST) > 0
    tail = column[int(h * (1 - END_ROWS)):h - 2]
    widths = tail.sum(axis=1)
    return float(np.median(widths[widths > 0])) if (widths > 0).any() else float(w)


def _shapes(img: np.ndarray) -> np.ndarray:
    """Grey detail without the light falling across the card (a lamp, a tinted photo): the pips' shapes."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return grey - cv2.GaussianBlur(grey, (0, 0), SHAPE_SIGMA)


def _half(img: np.ndarray) -> np.ndarray:
    """Whole faces are compared at half the crop's scale: a table camera's card has no more detail, and it is fast."""
    return cv2.resize(img, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)


def _soft(img: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(img, (0, 0), 1.2)


def _sharpened_like(crop: np.ndarray, seen_width: float) -> np.ndarray:
    """An enrolled crop as soft as a card `seen_width` pixels wide looks once straightened."""
    if seen_width < CARD.width:
        f = seen_width / CARD.width
        small = cv2.resize(crop, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        crop = cv2.resize(small, (CARD.width, CARD.height), interpolation=cv2.INTER_LINEAR)
    return _soft(crop.astype(np.float32))


def _strip(crop: np.ndarray, seen_width: float) -> np.ndarray:
    h = int(round(STRIP * CARD.height))
    return _sharpened_like(crop, seen_width)[STRIP_INSET:h, STRIP_INSET:CARD.width - STRIP_INSET].copy()


def _box(left: float, top: float, w: float, h: float) -> np.ndarray:
    return np.array([[left, top], [left + w, top], [left + w, top + h], [left, top + h]], np.float32)


def _peaks(scores: np.ndarray, gap: int, least: float) -> list[int]:
    """Offsets that are the best within `gap` either side and score at least `least`, in order."""
    out = []
    for i, s in enumerate(scores):
        lo, hi = max(0, i - gap), min(len(scores), i + gap + 1)
        if s >= least and s >= scores[lo:hi].max():
            out.append(i)
    return out
