"""Card detections as parallel numpy arrays (as `supervision.Detections` does): cheap to filter and slice."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass
class CardDetections:
    """N cards: `codes[i]` is "QS" or "back"; corners clockwise from the printed top-left, image pixels.

    `backs[i]` is the back design (0 or 1 for the two Superheld decks, -1 for a face-up card);
    `index_seen[i]` tells whether the code was read from a printed index (False: outline only).
    """

    codes: list[str] = field(default_factory=list)
    corners: np.ndarray = field(default_factory=lambda: np.zeros((0, 4, 2), np.float32))
    confidence: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.float32))
    backs: np.ndarray = field(default_factory=lambda: np.zeros((0,), np.int16))
    index_seen: np.ndarray = field(default_factory=lambda: np.zeros((0,), bool))

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, keep: Any) -> CardDetections:
        """Select by boolean mask or index array, like numpy."""
        idx = np.arange(len(self))[keep]
        idx = np.atleast_1d(idx)
        return CardDetections([self.codes[i] for i in idx], self.corners[idx], self.confidence[idx],
                              self.backs[idx], self.index_seen[idx])

    @property
    def centres(self) -> np.ndarray:
        return self.corners.mean(axis=1) if len(self) else np.zeros((0, 2), np.float32)

    @property
    def face_down(self) -> np.ndarray:
        return np.array([c == "back" for c in self.codes], bool)

    @classmethod
    def merge(cls, parts: list[CardDetections]) -> CardDetections:
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls()
        return cls([c for p in parts for c in p.codes], np.concatenate([p.corners for p in parts]),
                   np.concatenate([p.confidence for p in parts]), np.concatenate([p.backs for p in parts]),
                   np.concatenate([p.index_seen for p in parts]))

    def to_json(self) -> list[dict[str, Any]]:
        out = []
        for i, code in enumerate(self.codes):
            item: dict[str, Any] = {
                "code": code,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners[i]],
                "confidence": round(float(self.confidence[i]), 3),
            }
            if code == "back":
                item["back"] = int(self.backs[i])
            out.append(item)
        return out
