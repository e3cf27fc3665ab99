"""Run time: an outline found by a detector, warped to the canonical crop, matched to a profile's templates.

Each (label, turn) has one centroid: the mean of its templates in the profile's learned space, so
matching is a nearest-class-mean (LDA-like) decision. Cards are tried from both ends (a detector's
outline may start at either printed corner); tiles have a centroid per turn, which gives the letter
and the rotation at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.enroll.canon import turn_corners, warp
from vision.enroll.features import BLOCKS, VERSION, describe
from vision.enroll.store import Profile
from vision.enroll.templates import FRAMES, project, redescribe

if TYPE_CHECKING:
    from vision.detections import CardDetections

MIN_SCORE = 0.15  # cosine similarity (learned space) under which an outline is "unknown"
QUERY_TURNS: dict[str, tuple[int, ...]] = {"cards": (0, 2), "strijders": (0, 2), "tiles": (0,)}


@dataclass
class Identity:
    label: str  # "QS", "back0", "K", a Strijders id, or "unknown"
    score: float  # cosine similarity of the best template
    margin: float  # over the best template of another label
    corners: np.ndarray  # (4, 2) the outline started at the object's own top-left
    rotation: int = 0  # tiles: clockwise degrees of the tile relative to the outline's first corner

    @property
    def known(self) -> bool:
        return self.label != "unknown"


class Matcher:
    """Nearest templates by cosine similarity; one per profile, cheap to build and to call."""

    def __init__(self, profile: Profile) -> None:
        if profile.manifest.get("feature_version") != VERSION:
            profile = redescribe(profile)
        self.kind = profile.kind
        self.name = profile.name
        self.labels = profile.labels
        self.frame = FRAMES[self.kind]
        features = profile.arrays["features"].astype(np.float32)
        owner = profile.arrays["owner"].astype(int)
        turn = profile.arrays["turn"].astype(int)
        keys = sorted(set(zip(owner.tolist(), turn.tolist(), strict=True)))
        self.owner = np.array([k[0] for k in keys], int)
        self.turn = np.array([k[1] for k in keys], int)
        cent = np.stack([features[(owner == o) & (turn == t)].mean(axis=0) for o, t in keys])
        self.centroids = cent / np.maximum(np.linalg.norm(cent, axis=1, keepdims=True), 1e-9)
        self.mean = profile.arrays["mean"].astype(np.float32)
        self.projection = profile.arrays["projection"].astype(np.float32)

    def scores(self, crops: list[np.ndarray]) -> np.ndarray:
        """(N, centroids) cosine similarities of canonical crops."""
        blocks = BLOCKS[self.kind]
        q = project(np.stack([describe(c, blocks) for c in crops]), self.mean, self.projection)
        return q @ self.centroids.T

    def identify(self, image: np.ndarray, corners: np.ndarray) -> Identity:
        return self.identify_many(image, np.asarray(corners, np.float32)[None])[0]

    def identify_many(self, image: np.ndarray, outlines: np.ndarray) -> list[Identity]:
        turns = QUERY_TURNS[self.kind]
        if len(outlines) == 0:
            return []
        tried = [turn_corners(o, t) for o in outlines for t in turns]
        sims = self.scores([warp(image, c, self.frame) for c in tried])
        out = []
        for i in range(len(outlines)):
            block = sims[i * len(turns):(i + 1) * len(turns)]
            t, j = np.unravel_index(int(block.argmax()), block.shape)
            out.append(self._identity(block, int(t), int(j), tried[i * len(turns) + int(t)]))
        return out

    def _identity(self, sims: np.ndarray, t: int, j: int, corners: np.ndarray) -> Identity:
        best = float(sims[t, j])
        label = self.labels[self.owner[j]]
        others = sims[:, self.owner != self.owner[j]]
        margin = best - float(others.max()) if others.size else best
        rotation = 90 * int(self.turn[j])
        if best < MIN_SCORE:
            return Identity("unknown", best, margin, corners, 0)
        return Identity(label, best, margin, corners, rotation)


def relabel(image: np.ndarray, detections: CardDetections, matcher: Matcher) -> CardDetections:
    """The card detector's outlines read with a player's deck profile instead of the shipped classifier.

    Every outline (faces and backs) is matched; where the profile knows the card, its label and
    corners replace the detector's; back labels `backN` become code "back" with design N.
    """
    from vision.detections import CardDetections

    if matcher.kind != "cards" or len(detections) == 0:
        return detections
    found = matcher.identify_many(image, detections.corners)
    codes, corners = list(detections.codes), detections.corners.copy()
    conf, backs = detections.confidence.copy(), detections.backs.copy()
    for i, got in enumerate(found):
        if not got.known:
            continue
        corners[i] = got.corners
        conf[i] = float(np.clip(got.score, 0, 1))
        if got.label.startswith("back"):
            codes[i], backs[i] = "back", int(got.label[4:] or 0)
        else:
            codes[i], backs[i] = got.label, -1
    return CardDetections(codes, corners, conf, backs, detections.index_seen.copy())
