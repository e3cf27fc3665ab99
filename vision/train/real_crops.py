"""Index crops from real photographs with rank-only boxes, for fine-tuning the index classifier.

Each annotated card is found again by the classical outline finder (`vision.cards.contours`); both of its
printed corners are cut (real decks print the index at two opposite corners) through slightly jittered
outlines. The label is a set of classes: the card's own code where its suit is known (`datasets/cards/real-suits.json`,
only its tune half is used), else the four suits of the box's rank, as the photos name ranks only. A rank-only
label let the readers give the real deck's spades the clubs' code and its diamonds the hearts' (session 20: rank and
suit right for 62% of the tune half's found cards).
Outlines that match no box are cut too and labelled "none": the junk a real table offers (books, papers).
Only the `tune` half of the photos is used, so the `held-out` half stays an honest test.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

import numpy as np

from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W, face_crop, index_crop, rotate_corners
from vision.cards.labels import CROP_CLASSES, NONE_CLASS
from vision.real_photos import RANK_NAMES, SUITS_FILE, UNSURE_SUIT, labelled_photos, photo_suits, read_suits

MATCH_IOU = 0.5


def rank_mask(rank: str, suit: str = UNSURE_SUIT) -> np.ndarray:
    """The classes a label allows: that rank in its suit, or in each suit where the suit is unknown."""
    return np.array([c[:-1] == rank and suit in (UNSURE_SUIT, c[-1]) for c in CROP_CLASSES], bool)


CUTS = {"index": index_crop, "face": face_crop,  # what is cut of each outline, at both printed corners
        "court": partial(face_crop, size=(COURT_FACE_W, COURT_FACE_H))}


def collect(folder: Path, split: str = "tune", jitters: int = 3, corner_jitter: float = 0.02,
            seed: int = 6, kind: str = "index", suits: Path | None = SUITS_FILE) -> tuple[np.ndarray, np.ndarray]:
    """(crops uint8 (N, H, W, 3), allowed-class masks (N, classes)); `kind` "face" cuts whole faces,
    "court" them at the court reader's size; `suits` (None: ranks only) names the cards' suits where known."""
    cut = CUTS[kind]
    from vision.evaluate import outlined

    rng = np.random.default_rng(seed)
    none = np.zeros(len(CROP_CLASSES), bool)
    none[NONE_CLASS] = True
    crops: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    known = read_suits(suits) if suits is not None and suits.exists() else {}
    for path, image, names in labelled_photos(folder, split):
        quads, matches = outlined(image, [box for _, box in names], MATCH_IOU)
        labels: list[np.ndarray] = [none] * len(quads)
        for (name, _), k, suit in zip(names, matches, photo_suits(path.name, len(names), known), strict=True):
            if k is not None and name in RANK_NAMES:
                labels[k] = rank_mask(RANK_NAMES[name], suit)
        for quad, mask in zip(quads, labels, strict=True):
            width = float(np.linalg.norm(quad[1] - quad[0]))
            for j in range(jitters):
                noisy = quad + (rng.normal(0, corner_jitter * width, quad.shape) if j else 0.0)
                for k in (0, 2):
                    crops.append(cut(image, rotate_corners(noisy.astype(np.float32), k)))
                    masks.append(mask)
    if not crops:
        raise FileNotFoundError(f"no annotated photos found in {folder}")
    return np.stack(crops), np.stack(masks)


