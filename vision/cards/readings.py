"""What the later steps of the card pipeline share: sets of readings (kept, dropped, one per place), how
they lie on each other, and reading outlines placed anywhere."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.backs import back_designs
from vision.cards.detect import Boxes
from vision.cards.geometry import index_crop, mean_sides, pairwise_iou, points_in_quads, portrait_corners
from vision.cards.identity import SURE_READING, fuse, read_crops, read_faces
from vision.cards.labels import CARD_CODES, NONE_CLASS
from vision.cards.outline import refine
from vision.detections import CardDetections

MIN_CONFIDENCE = 0.5
PROPOSAL_SCORE = 0.5  # detector-like score given to a classical blob
MIN_READ = 0.4  # a reading less sure than this is no reading (40 synthetic scenes, seed 777: 7 of 71 wrong codes,
# 5 of 11 false cards and 2 of 482 right codes lie below it)
NEAR_FACES = 4  # a card's size near a point is its nearest faces' (`_card_size`)
SHAPE_OFF = 0.12  # off a map, an outline whose sides' ratio is this far off a card's is read again as a card
# (`_read_card_shaped`; real tune half: the same from 0.06 to 0.18)


def _top_turn(a: np.ndarray, b: np.ndarray) -> float:
    """Degrees (0-180) between two outlines' printed top sides."""
    u, v = a[1] - a[0], b[1] - b[0]
    return float(np.degrees(abs(np.arctan2(u[0] * v[1] - u[1] * v[0], u @ v))))


def _without(cards: CardDetections, drop: list[int]) -> CardDetections:
    """The cards less those at the indices `drop`."""
    return cards[np.setdiff1d(np.arange(len(cards)), drop)] if drop else cards


def _code_once(cards: CardDetections, iou: float = 0.3) -> CardDetections:
    """Off a map, of two readings of one code whose outlines overlap the surer is kept: a deck holds each card once,
    and a stack walked one strip off reads the card on top again through an outline 22 mm from its own (session
    20's readers: a 4C read twice in a weapon stack). Cards that merely overlap keep their own codes."""
    keep = np.ones(len(cards), bool)
    codes = np.array(cards.codes, dtype=object)
    for code in {c for c in cards.codes if c in CARD_CODES}:
        same = np.nonzero(codes == code)[0]
        keep[same] = False
        keep[same[_surest_apart(cards[same], iou)]] = True
    return cards if keep.all() else cards[keep]


def _unique(dets: CardDetections, iou: float = 0.5) -> CardDetections:
    """One reading per card: of overlapping outlines keep the most confident."""
    kept = _surest_apart(dets, iou)
    return dets[kept] if len(kept) else CardDetections()


def _surest_apart(dets: CardDetections, iou: float) -> np.ndarray:
    """Indices (sorted) of the readings kept when, surest first, each overlapping one kept by `iou` is dropped."""
    overlaps = pairwise_iou(dets.corners, dets.corners)
    kept: list[int] = []
    for i in np.argsort(-dets.confidence):
        if not (overlaps[i, kept] >= iou).any():
            kept.append(int(i))
    return np.array(sorted(kept), int)


def _outlines(image: np.ndarray, boxes: Boxes) -> np.ndarray:
    return np.array([portrait_corners(refine(image, q)) for q in boxes.quads], np.float32).reshape(-1, 4, 2)


def _scaled(quads: np.ndarray, factor: float) -> np.ndarray:
    """Quads (N, 4, 2) scaled by `factor` about their centres."""
    q = np.asarray(quads, np.float32).reshape(-1, 4, 2)
    centres = q.mean(axis=1, keepdims=True)
    return centres + (q - centres) * factor


def _apart(cards: CardDetections, seen: CardDetections) -> CardDetections:
    """The cards that lie on none of the `seen` ones (no overlap of note, centre outside)."""
    return cards[~_lies_on(cards.corners, seen.corners)] if len(cards) else cards


def _covered_share(quad: np.ndarray, covers: list[np.ndarray]) -> float:
    """How much of `quad`'s area lies inside one or more of the convex `covers`, counted on its pixels."""
    q = np.asarray(quad, np.float32)
    x0, y0 = np.floor(q.min(axis=0)).astype(int)
    x1, y1 = np.ceil(q.max(axis=0)).astype(int)
    own = np.zeros((y1 - y0 + 1, x1 - x0 + 1), np.uint8)
    cv2.fillConvexPoly(own, np.round(q - [x0, y0]).astype(np.int32), 1)
    covered = np.zeros_like(own)
    for c in covers:
        cv2.fillConvexPoly(covered, np.round(np.asarray(c, np.float32) - [x0, y0]).astype(np.int32), 1)
    return float((own & covered).sum()) / max(float(own.sum()), 1.0)


def _inside_share(quad: np.ndarray, other: np.ndarray) -> float:
    """How much of `quad`'s area lies inside `other` (both convex)."""
    area, _ = cv2.intersectConvexConvex(np.asarray(quad, np.float32), np.asarray(other, np.float32))
    return float(area) / max(float(cv2.contourArea(np.asarray(quad, np.float32))), 1e-6)


def _best_placed(image: np.ndarray, ways: list[np.ndarray]) -> np.ndarray:
    """(N, 4, 2): of each candidate (an outline, or (M, 4, 2) placements of one), the placement whose printed
    index reads as a card most surely, all indices read in one run: only those are read with their face."""
    sets = [np.asarray(w, np.float32).reshape(-1, 4, 2) for w in ways]
    several = [i for i, w in enumerate(sets) if len(w) > 1]
    if several:
        flat = np.concatenate([sets[i] for i in several])
        p = read_crops(image, list(flat), (index_crop, (1.0,)))
        score = np.delete(p, NONE_CLASS, axis=1).max(axis=1)
        start = 0
        for i in several:
            n = len(sets[i])
            sets[i] = sets[i][int(np.argmax(score[start:start + n]))][None]
            start += n
    return np.concatenate(sets).astype(np.float32)


def read_cards_first(image: np.ndarray, outlines: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Read only the printed top-left index of each outline (the other corner is a guess, often covered), with
    its face: a fan's top card rebuilt from one index shows its whole face, a lower card's face says nothing."""
    index = read_crops(image, list(outlines), (index_crop, (1.0,)))
    face = np.zeros_like(index)
    face[:, NONE_CLASS] = 1.0
    shows = index[:, NONE_CLASS] < 0.5  # only an index that shows is worth its face (the cost of most candidates)
    if shows.any():
        face[shows] = read_faces(image, outlines[shows])
    codes, conf = fuse(index, face)
    return codes, conf, outlines


def _in_image(quad: np.ndarray, image: np.ndarray) -> bool:
    return bool(((quad >= 0) & (quad < [image.shape[1], image.shape[0]])).all())


def _face_up(codes: list[str], corners: np.ndarray, confidence: np.ndarray, picked: list[int]) -> CardDetections:
    """The readings `picked` of outlines read (codes, corners, confidences) as face-up cards."""
    n = len(picked)
    return CardDetections([codes[j] for j in picked], corners[picked].reshape(-1, 4, 2),
                          confidence[picked].astype(np.float32), np.full(n, -1, np.int16), np.ones(n, bool))


def _card_size(faces: CardDetections, near: np.ndarray | None = None) -> tuple[float, float] | None:
    """The median short and long side (px) of the faces read surely, or None where none is; `near`: of the
    NEAR_FACES of them nearest this point only (a map seen in perspective has larger cards near the camera)."""
    sure = faces.corners[faces.confidence >= SURE_READING]
    if not len(sure):
        return None
    if near is not None:
        sure = sure[np.argsort(np.linalg.norm(sure.mean(axis=1) - near, axis=1))[:NEAR_FACES]]
    short, long = np.median([mean_sides(portrait_corners(q)) for q in sure], axis=0)
    return float(short), float(long)


def _face_down(corners: np.ndarray, confidence: np.ndarray, colours: np.ndarray) -> CardDetections:
    """Backs with these outlines, confidences and `centre_colours` (which tell their design)."""
    n = len(corners)
    return CardDetections(["back"] * n, np.asarray(corners, np.float32).reshape(-1, 4, 2),
                          np.asarray(confidence, np.float32), back_designs(colours), np.zeros(n, bool))


def _lying_on(quads: np.ndarray, others: np.ndarray) -> np.ndarray:
    """(N, M): quad i lies on other j: they overlap (IoU 0.3) or i's centre is inside j."""
    return (pairwise_iou(quads, others) >= 0.3) | points_in_quads(np.asarray(quads).reshape(-1, 4, 2).mean(axis=1),
                                                                  others)


def _lies_on(quads: np.ndarray, others: np.ndarray) -> np.ndarray:
    """(N,): each quad lies on one of the others."""
    return _lying_on(quads, others).any(axis=1)
