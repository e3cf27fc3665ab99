"""Run time: an outline found by a detector, warped to the canonical crop, matched to a profile's templates.

Each (label, turn) has one centroid: the mean of its templates in the profile's learned space, so
matching is a nearest-class-mean (LDA-like) decision. Cards are tried from both ends (a detector's
outline may start at either printed corner); tiles have a centroid per turn, which gives the letter
and the rotation at once. A number card's suit is then judged again on its pips (`suits`): spade or
club, heart or diamond.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.enroll import verify
from vision.enroll.canon import rotate_quarter, turn_corners, warp
from vision.enroll.features import BLOCKS, VERSION, describe
from vision.enroll.store import Profile
from vision.enroll.suits import SuitCheck
from vision.enroll.templates import FRAMES, class_means, project, redescribe, unquantise

if TYPE_CHECKING:
    from vision.detections import CardDetections

MIN_SCORE = 0.3  # mean of the metric's cosine and the correlation, under which an outline is "unknown"
QUERY_TURNS: dict[str, tuple[int, ...]] = {"cards": (0, 2), "strijders": (0, 2), "tiles": (0,)}


@dataclass
class Identity:
    label: str  # "QS", "back0", "K", a Strijders id, or "unknown"
    score: float  # mean of the learned metric's cosine and the template correlation, -1..1
    margin: float  # over the best template of another label
    corners: np.ndarray  # (4, 2) the outline started at the object's own top-left
    rotation: int = 0  # tiles: clockwise degrees of the tile relative to the outline's first corner

    @property
    def known(self) -> bool:
        return self.label != "unknown"


class Matcher:
    """Nearest class mean in the profile's learned space, then a second look; one per profile."""

    def __init__(self, profile: Profile) -> None:
        if profile.manifest.get("feature_version") != VERSION:
            profile = redescribe(profile)
        self.kind = profile.kind
        self.name = profile.name
        self.labels = profile.labels
        self.frame = FRAMES[self.kind]
        arrays = profile.arrays
        cent, owner, turn = class_means(arrays["features"].astype(np.float32), arrays["owner"].astype(int),
                                        arrays["turn"].astype(int))  # older profiles keep every template's row
        keys = list(zip(owner.tolist(), turn.tolist(), strict=True))
        self.owner, self.turn = owner.astype(int), turn.astype(int)
        self.centroids = cent / np.maximum(np.linalg.norm(cent, axis=1, keepdims=True), 1e-9)
        self.mean = arrays["mean"].astype(np.float32)
        self.projection = unquantise(arrays["projection"], arrays.get("projection_scale"))
        crops, crop_owner = profile.arrays["crops"], profile.arrays["crop_owner"].astype(int)
        self.greys = [[verify.grey(rotate_quarter(c, t)) for c in crops[crop_owner == o]] for o, t in keys]
        first = {self.labels[o]: crops[i] for i, o in reversed(list(enumerate(crop_owner.tolist())))}
        self.suits = SuitCheck(first) if self.kind == "cards" else SuitCheck({})

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
        crops = [warp(image, c, self.frame) for c in tried]
        sims = self.scores(crops)
        out = []
        for i in range(len(outlines)):
            rows = slice(i * len(turns), (i + 1) * len(turns))
            block = self._second_look(sims[rows], crops[rows])
            t, j = np.unravel_index(int(block.argmax()), block.shape)
            got = self._identity(block, int(t), int(j), tried[i * len(turns) + int(t)])
            out.append(self._suit_checked(got, crops[i * len(turns) + int(t)]))
        return out

    def _suit_checked(self, got: Identity, crop: np.ndarray) -> Identity:
        """The reading with its suit judged again on the pips; switched to the sibling when they say so."""
        sibling = self.suits.sibling(got.label)
        if sibling is None or self.suits.vote(crop, got.label) >= 0:
            return got
        return Identity(sibling, got.score, 0.0, got.corners, got.rotation)

    def _second_look(self, sims: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
        """The best few (turn, centroid) pairs of distinct labels, re-scored with template correlation."""
        order = np.argsort(sims, axis=None)[::-1]
        picked: list[tuple[int, int]] = []
        labels: set[int] = set()
        for flat in order:
            t, j = np.unravel_index(int(flat), sims.shape)
            if self.owner[j] in labels:
                continue
            picked.append((int(t), int(j)))
            labels.add(int(self.owner[j]))
            if len(picked) == verify.CANDIDATES:
                break
        out = np.full_like(sims, -np.inf)
        greys = [verify.grey(c) for c in crops]
        for t, j in picked:
            ncc = max(verify.correlation(greys[t], g) for g in self.greys[j])
            out[t, j] = sims[t, j] + verify.WEIGHT * ncc
        return out

    def _identity(self, scored: np.ndarray, t: int, j: int, corners: np.ndarray) -> Identity:
        """`scored` holds the re-scored candidates (-inf elsewhere), scaled back to -1..1 here."""
        best = float(scored[t, j]) / (1 + verify.WEIGHT)
        label = self.labels[self.owner[j]]
        others = scored[:, self.owner != self.owner[j]]
        finite = others[np.isfinite(others)]
        margin = best - float(finite.max()) / (1 + verify.WEIGHT) if finite.size else best
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
