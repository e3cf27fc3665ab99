"""From located samples (label, photo, corners) to a profile's arrays, and back to a matcher's table.

Arrays: `crops` (one canonical crop per sample, what the dashboard shows and what re-describes a
profile when the descriptor changes), `features` (float16, the mean of the templates of one label
and turn in the learned space), `owner` (the label index of each row), `turn` (quarter turns the
templates were rotated by; tiles only), and the learned metric: `mean`, `projection` (int8) and
`projection_scale` (one float per column).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import cv2
import numpy as np

from vision.enroll.canon import CARD, TILE, Frame, rotate_quarter, variants
from vision.enroll.features import VERSION, describe_many
from vision.enroll.progress import SILENT, Progress
from vision.enroll.store import Profile

FRAMES: dict[str, Frame] = {"cards": CARD, "strijders": CARD, "tiles": TILE}
VARIANTS = 16  # templates per sample: the crop and jittered, degraded copies
COMPONENTS = 600  # dimensions kept by the profile's learned projection
SHRINK = 0.05  # of the mean within-class variance added to every direction before whitening
DESCRIBE_CHUNK = 256  # templates described between two progress reports
TURNS: dict[str, tuple[int, ...]] = {"cards": (0,), "strijders": (0,), "tiles": (0, 1, 2, 3)}


@dataclass
class Sample:
    label: str
    image: np.ndarray
    corners: np.ndarray  # (4, 2) clockwise from the object's top-left as it should be read


def build(name: str, kind: str, samples: list[Sample], manifest: dict[str, object], seed: int = 0,
          count: int = VARIANTS, progress: Progress = SILENT) -> Profile:
    """The profile: crops, jittered templates (each turn for tiles), described."""
    frame = FRAMES[kind]
    rng = np.random.default_rng(seed)
    labels = sorted({s.label for s in samples}, key=lambda lab: _order(lab, manifest))
    index = {lab: i for i, lab in enumerate(labels)}
    crops, rows, owner, turn = [], [], [], []
    shown = Counter(s.label for s in samples)
    for k, s in enumerate(samples):  # several photos of one card (video frames) share its template budget
        progress(f"templates of {s.label} ({k + 1} of {len(samples)})", 0.5 * k / max(1, len(samples)))
        views = variants(s.image, s.corners, frame, max(3, count // shown[s.label]), rng)
        crops.append(views[0])
        for q in TURNS[kind]:
            rows += [rotate_quarter(v, q) for v in views]
            owner += [index[s.label]] * len(views)
            turn += [q] * len(views)
    chunks = range(0, len(rows), DESCRIBE_CHUNK)
    described = np.concatenate([_described(rows[i:i + DESCRIBE_CHUNK], kind, progress, 0.5 + 0.3 * i / len(rows))
                                for i in chunks]) if rows else describe_many(rows, kind)
    progress("learning this deck's metric", 0.8)
    mean, projection = learn_projection(described, np.array(owner) * 4 + np.array(turn))  # a turn is its own class
    quantised, scale = quantise(projection)
    means, mean_owner, mean_turn = class_means(project(described, mean, unquantise(quantised, scale)),
                                               np.array(owner), np.array(turn))
    arrays = {"crops": np.stack(crops), "crop_owner": np.array([index[s.label] for s in samples], np.int16),
              "features": means.astype(np.float16), "owner": mean_owner.astype(np.int16),
              "turn": mean_turn.astype(np.int16), "mean": mean, "projection": quantised, "projection_scale": scale}
    full = {**manifest, "labels": labels, "feature_version": VERSION, "samples": len(samples)}
    return Profile(name, kind, full, arrays, {"preview": mosaic(arrays["crops"], arrays["crop_owner"])})


def _described(rows: list[np.ndarray], kind: str, progress: Progress, done: float) -> np.ndarray:
    progress("describing the templates", done)
    return describe_many(rows, kind)


def learn_projection(x: np.ndarray, owner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The profile's own metric: principal directions, then whitened against the spread within each label.

    The jittered, degraded copies of one card spread along what a camera changes; whitening shrinks
    those directions, so what tells this deck's cards apart (4 or 5 pips, spade or club) weighs more.
    """
    mean = x.mean(axis=0)
    centred = x - mean
    gram = centred.astype(np.float64) @ centred.T.astype(np.float64)  # rows << dimensions: the small side
    vals, vecs = np.linalg.eigh(gram)
    top = np.argsort(vals)[::-1][:min(COMPONENTS, len(vals))]
    top = top[vals[top] > 1e-6 * max(vals.max(), 1e-12)]
    basis = (centred.T @ vecs[:, top]) / np.sqrt(vals[top])  # (D, k), orthonormal principal directions
    z = centred @ basis
    within = np.zeros((basis.shape[1],) * 2, np.float64)
    for label in np.unique(owner):
        d = z[owner == label] - z[owner == label].mean(axis=0)
        within += d.T @ d
    within /= max(1, len(z) - len(np.unique(owner)))
    within += SHRINK * np.trace(within) / len(within) * np.eye(len(within))
    # Any W with W'SW = I gives the same cosines up to a rotation; inverse Cholesky is the cheap one (no eigh).
    whiten = np.linalg.inv(np.linalg.cholesky(within)).T
    return mean.astype(np.float32), (basis @ whiten).astype(np.float32)


def quantise(projection: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The projection as int8 with one scale per column: a quarter of float32's bytes, the same answers
    (measured: card identity unchanged on 1,098 cards of 4 styles), so a profile stays a few MB."""
    scale = (np.abs(projection).max(axis=0) / 127.0).astype(np.float32)
    scale[scale == 0] = 1.0
    return np.round(projection / scale).astype(np.int8), scale


def unquantise(projection: np.ndarray, scale: np.ndarray | None) -> np.ndarray:
    """The stored projection as float32 (profiles saved before quantising have no scale)."""
    p = projection.astype(np.float32)
    return p * scale.astype(np.float32) if scale is not None else p


def class_means(features: np.ndarray, owner: np.ndarray, turn: np.ndarray) -> tuple[np.ndarray, ...]:
    """One mean per (label, turn): all the matcher uses of the templates, so all a profile keeps of them."""
    keys = sorted(set(zip(owner.tolist(), turn.tolist(), strict=True)))
    means = np.stack([features[(owner == o) & (turn == t)].mean(axis=0) for o, t in keys])
    return means, np.array([k[0] for k in keys]), np.array([k[1] for k in keys])


def project(x: np.ndarray, mean: np.ndarray, projection: np.ndarray) -> np.ndarray:
    """Whitened, unit-length features. In the projection's own precision: a float64 query would make numpy
    convert the whole (features x dims) projection on every call, twenty times the product's cost."""
    y = (np.atleast_2d(x).astype(projection.dtype) - mean) @ projection
    return (y / np.maximum(np.linalg.norm(y, axis=1, keepdims=True), 1e-9)).astype(np.float32)


def _order(label: str, manifest: dict[str, object]) -> int:
    wanted = manifest.get("expected", [])
    return wanted.index(label) if isinstance(wanted, list) and label in wanted else 10_000


def redescribe(profile: Profile, seed: int = 0) -> Profile:
    """Templates rebuilt from the stored crops (for profiles saved with an older descriptor)."""
    frame = FRAMES[profile.kind]
    crops, owner_of = profile.arrays["crops"], profile.arrays["crop_owner"]
    corners = frame.corners
    labels = profile.labels
    samples = [Sample(labels[int(o)], c, corners) for c, o in zip(crops, owner_of, strict=True)]
    manifest = {k: v for k, v in profile.manifest.items() if k not in ("labels", "feature_version", "samples")}
    manifest["expected"] = labels
    return build(profile.name, profile.kind, samples, manifest, seed)


def mosaic(crops: np.ndarray, owner: np.ndarray, columns: int = 13) -> np.ndarray:
    """One picture of every enrolled crop, for the dashboard and `companion enroll list`."""
    if len(crops) == 0:
        return np.zeros((8, 8, 3), np.uint8)
    first = {}
    for i, o in enumerate(owner):
        first.setdefault(int(o), i)
    picked = [crops[i] for _, i in sorted(first.items())]
    h, w = picked[0].shape[:2]
    scale = 64.0 / w
    small = [cv2.resize(c, (64, int(round(h * scale))), interpolation=cv2.INTER_AREA) for c in picked]
    rows = []
    for r in range(0, len(small), columns):
        row = small[r:r + columns]
        row += [np.zeros_like(small[0])] * (columns - len(row))
        rows.append(np.concatenate(row, axis=1))
    return np.concatenate(rows, axis=0)
