"""Stage 2: read the printed index, helped by the face. Each card outline gives upright index crops of its two
printed corners (180 degrees apart; the second is read only when the first and the face leave the card unsure)
and one crop of its whole face; two small CNNs classify them into the 52 cards, the joker, or "none" (a face read
as a court card is read again, larger, by a third). The index
is what a player reads; the face (pip count, pip colour, picture) still shows on a card so small in the frame
that its index letters are a few pixels tall, so the two readings are multiplied (a product of experts) and
each settles what the other leaves open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from vision.cards.detect import MODELS, runnable, session
from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W, face_crop, index_crop, rotate_corners
from vision.cards.labels import CARD_CODES, CROP_CLASSES, NONE_CLASS
from vision.cards.memo import picture_memo

# The readers run as int8 copies of the trained float models (`vision.train.quantize`: about 2 times faster idle,
# 3 under load; the same cards read; `models/cards.md`, session 16)
CLASSIFIER = MODELS / "cards-index.int8.onnx"
FACE_READER = MODELS / "cards-face.int8.onnx"
COURT_READER = MODELS / "cards-face-court.int8.onnx"  # the face reader at COURT_FACE_W x COURT_FACE_H, for courts
COURTS = np.array([c[:-1] in ("J", "Q", "K") for c in CROP_CLASSES])  # the classes a court reading is read for
SURE_READING = 0.9  # a card read this surely from its first corner and face is not read at its other corner
FACE_WEIGHT = 1.0  # exponent of the face reader's probabilities in the product with the index's
COURT_SHARE = 0.85  # the court reader's share of a court face's reading (the face reader's is the rest): on the
# faces of generator seeds 11-13 it reads courts right 95% of the time, the face reader 70% (session 18, with its
# reader of seeds 11-13: selection sets 65 -> 61 errors, the ten measurement seeds 106 -> 104 against an even share;
# session 21, with session 20's suit-tuned face reader: 0.75 -> 0.85 selection sets 64 -> 61, ten seeds 87 -> 86,
# printed courts alike, 1.0 gave 60 and 88; `models/cards.md`)
ZOOMS = (1.0, 1.6)  # crop scales tried per corner: 1.6 takes in a real deck's larger index ("10" cut to "1")
ZOOM_CARD_PX = 55.0  # the first corner of a card left unsure is read at the other zooms only if it is this wide
# (px): a smaller card's index is unreadable and its zoomed crop read as garbage. Selection sets: seed 777 card
# error 8.3% with every card zoomed, 7.8% with this; the real tune half's rank of all cards 87.8% without the
# zoom, 88.9% with it (89.3% zooming every card this wide, at 19 ms on the standard scene)


@cache
def _classifier(path: str):  # noqa: ANN202
    if not Path(path).exists():
        raise FileNotFoundError(f"card classifier model missing: {path}")
    return session(runnable(Path(path)))


def classify(crops: np.ndarray, model: Path = CLASSIFIER) -> np.ndarray:
    """Class probabilities (N, len(CROP_CLASSES)) for uint8 crops (N, H, W, 3)."""
    if len(crops) == 0:
        return np.zeros((0, len(CROP_CLASSES)), np.float32)
    sess = _classifier(str(model))
    blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255.0
    logits = sess.run(None, {sess.get_inputs()[0].name: blob})[0]
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


Crop = tuple[Callable[..., np.ndarray], tuple[Any, ...]]  # a crop function and its arguments after the corners


def read_crops(image: np.ndarray, quads: Sequence[np.ndarray], crop: Crop | Sequence[Crop],
               model: Path = CLASSIFIER) -> np.ndarray:
    """`classify` of each quad's crop (`crop`: one for all, or one per quad), in one run. Within a picture's reading
    (`memo.one_picture`) a quad this model read through the same crop before is not read again: the readers
    give a crop the same reading alone as in any batch (the int8 readers bit for bit)."""
    crops = [crop] * len(quads) if len(crop) and callable(crop[0]) else list(crop)
    if len(crops) != len(quads):
        raise ValueError(f"read_crops: {len(quads)} quads but {len(crops)} crops")
    memo = picture_memo(image)
    if memo is None or not len(quads):
        return classify(_cut(image, quads, crops), model)
    keys = [(str(model), fn, args, np.asarray(q, np.float32).tobytes())
            for q, (fn, args) in zip(quads, crops, strict=True)]
    first = {k: i for i, k in reversed(list(enumerate(keys))) if k not in memo}
    if first:
        at = sorted(first.values())
        read = classify(_cut(image, [quads[i] for i in at], [crops[i] for i in at]), model)
        memo.update((keys[i], probs) for i, probs in zip(at, read, strict=True))
    return np.stack([memo[k] for k in keys])


def _cut(image: np.ndarray, quads: Sequence[np.ndarray], crops: Sequence[Crop]) -> np.ndarray:
    if not len(quads):
        return np.zeros((0, 1, 1, 3), np.uint8)
    return np.stack([fn(image, q, *args) for q, (fn, args) in zip(quads, crops, strict=True)])


def read_cards(image: np.ndarray, outlines: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Codes ("none" when neither index nor face is readable), confidences, and outlines turned to start at the
    printed top-left (the corner whose index read best). Where the first corner (at the first zoom) and the face
    do not read the card surely, the first corner is read at the other zooms (cards at least ZOOM_CARD_PX wide)
    and the second corner at every zoom."""
    n = len(outlines)
    if n == 0:
        return [], np.zeros(0, np.float32), np.zeros((0, 4, 2), np.float32)
    index, face, use_turned = _index_and_face(image, outlines)
    codes, conf = fuse(index, face)
    turned = np.stack([rotate_corners(o, 2) for o in outlines])
    corners = np.where(use_turned[:, None, None], turned, outlines).astype(np.float32)
    return codes, conf.astype(np.float32), corners


def card_odds(image: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """(N, len(CARD_CODES)): how likely each outline holds each card, index and face read as `read_cards` reads
    them: the next-best cards of a reading that cannot be right."""
    if len(outlines) == 0:
        return np.zeros((0, len(CARD_CODES)), np.float32)
    fused, seen = _fused(*_index_and_face(image, outlines)[:2])
    return (fused[:, :len(CARD_CODES)] * seen[:, None]).astype(np.float32)


def _index_and_face(image: np.ndarray, outlines: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The index reading of each outline's best view (`_best_corner`), its face reading, and whether that view
    is the turned outline's (the other printed corner)."""
    n = len(outlines)
    turned = np.stack([rotate_corners(o, 2) for o in outlines])
    face = read_faces(image, outlines)
    z = len(ZOOMS)
    corners_of = np.stack([outlines, turned])  # view v looks at corner v // z, at zoom ZOOMS[v % z]
    p = np.zeros((2 * z, n, len(CROP_CLASSES)), np.float32)
    p[:, :, NONE_CLASS] = 1.0  # a view not read counts as showing no index
    _read_views(image, corners_of, [(0, k) for k in range(n)], p)
    _, sure = fuse(_best_corner(p)[0], face)
    unsure = np.nonzero(sure < SURE_READING)[0]  # a standard deck prints the same index at both corners
    big = np.linalg.norm(outlines[:, 1] - outlines[:, 0], axis=1) >= ZOOM_CARD_PX
    _read_views(image, corners_of, [(v, k) for v in range(1, 2 * z) for k in unsure if v % z == 0 or big[k]], p)
    index, best_view = _best_corner(p)
    return index, face, best_view >= z


def _best_corner(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The index reading (card, class) of each card's best view of (view, card, class), its "none" the least of
    any view's (no index at either corner), and which view that is."""
    cards = p.copy()
    cards[:, :, NONE_CLASS] = 0.0
    best_view = cards.max(axis=2).argmax(axis=0)
    index = p[best_view, np.arange(p.shape[1])]
    index[:, NONE_CLASS] = p[:, :, NONE_CLASS].min(axis=0)
    return index, best_view


def _read_views(image: np.ndarray, corners_of: np.ndarray, views: list[tuple[int, int]], p: np.ndarray) -> None:
    """Fill p[view, card] with the class probabilities of each (view, card) asked, in one run: view v reads the
    index at the top-left of corners_of[v // len(ZOOMS)] (the outlines as given, then turned) at zoom
    ZOOMS[v % len(ZOOMS)]."""
    if not views:
        return
    z = len(ZOOMS)
    read = read_crops(image, [corners_of[v // z][k] for v, k in views],
                      [(index_crop, (ZOOMS[v % z],)) for v, _ in views])
    for (v, k), probs in zip(views, read, strict=True):
        p[v, k] = probs


def fuse(index: np.ndarray, face: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Codes and confidences from the index's and the face's class probabilities (N, classes) (`_fused`); the
    card is "none" only when both see nothing."""
    fused, seen = _fused(index, face)
    best = fused.argmax(axis=1)
    names = [c for c in CROP_CLASSES if c != "none"]
    codes = [names[b] if seen[i] >= 0.5 else "none" for i, b in enumerate(best)]
    return codes, (fused[np.arange(len(best)), best] * seen).astype(np.float32)


def _fused(index: np.ndarray, face: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(N, classes less "none") how likely each card is, and (N,) how likely either reader sees a card at all.
    Each reader's opinion of which card it is counts as much as it believes it sees one (a tiny index says
    "none" and then has no say; a mostly covered face neither)."""
    opinions = []
    for p, weight in ((index, 1.0), (face, FACE_WEIGHT)):
        nothing = p[:, NONE_CLASS:NONE_CLASS + 1]
        which = np.delete(p, NONE_CLASS, axis=1)
        which = which / np.maximum(1e-9, which.sum(axis=1, keepdims=True))
        opinions.append(((1.0 - nothing) * which + nothing / which.shape[1]) ** weight)
    fused = opinions[0] * opinions[1]
    fused /= fused.sum(axis=1, keepdims=True)
    return fused, 1.0 - index[:, NONE_CLASS] * face[:, NONE_CLASS]


def read_faces(image: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """Class probabilities (N, classes) of each outline's whole face, read either way up. A face read as a court
    card is read again through a larger crop by the court reader, and the two readings' weighted geometric mean
    counts (`with_court`): in a map a court's letter and suit are a few pixels tall, and the small crop keeps two
    thirds of the card's own pixels (session 12: selection sets 144 -> 116 errors; session 13, tuned on more
    courts: 90 -> 76; `models/cards.md`)."""
    faces = read_crops(image, list(outlines), (face_crop, ()), FACE_READER)
    court = COURTS[faces.argmax(axis=1)]
    if court.any():
        courts = list(np.asarray(outlines)[court])
        faces[court] = with_court(faces[court], read_crops(image, courts, (face_crop, ((COURT_FACE_W, COURT_FACE_H),)),
                                                           COURT_READER))
    return faces


def with_court(face: np.ndarray, court: np.ndarray) -> np.ndarray:
    """The face and court readers' class probabilities (N, classes) of court faces as one reading: their weighted
    geometric mean, the court reader weighing COURT_SHARE. It reads a court's few-pixel letter and picture from a
    larger crop, so where the two disagree it is the likelier right. Its "none" is replaced by the face reader's
    and its reading made whole again: tuned on printed courts (session 19), it says "none" surely to a real court
    seen through an outline off the card, which then went unread (real tune half: a queen; the ten measurement
    seeds 103 -> 101 errors, the selection sets 58 -> 59). Where it reads no card at all, its reading stays
    "none": a pip card the face reader took for a court (keeping the face reader's "none" and scaling its card
    readings up to the rest lost a ten read as a queen)."""
    court = court.copy()
    court[:, NONE_CLASS] = face[:, NONE_CLASS]
    court /= court.sum(axis=1, keepdims=True)
    both = np.clip(face, 1e-9, 1.0) ** (1.0 - COURT_SHARE) * np.clip(court, 1e-9, 1.0) ** COURT_SHARE
    return both / both.sum(axis=1, keepdims=True)
