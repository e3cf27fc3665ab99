"""Stable-frame gating: read the table only when no hand is over it and the image has stopped moving.

Frames are compared small and grey. Motion is a change from the previous frame; a hand or arm is a
change from the last committed frame that reaches the edge of the play area (arms come in from the
side of the table, cards never touch it). A frame is committed for reading once everything has been
still for `still_s` and it differs from the last committed one.

The room's light may change between two views (a lamp put out, a cloud, the camera's exposure): the last committed
frame is compared in the new light (`_in_light_of`), and the change level falls with the light, as a dimmer view
shows less contrast.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MOVING, HAND, SETTLING, STILL = "moving", "hand", "settling", "still"
LIGHT_CHANGE = 0.05  # a change of the play area's grey, as a share, that is the room's light (`_in_light_of`)
LIGHT_FLOOR = 16  # grey levels: darker reference pixels say little of the light's change
LEAST_LEVEL = 0.5  # the change level (`GateConfig.level`) falls with the room's light to this share of it at most


@dataclass(frozen=True, slots=True)
class GateConfig:
    width: int = 160  # analysis width in pixels
    still_s: float = 0.12  # stillness needed before a change is committed (4 frames at 30 fps)
    level: int = 18  # grey-level difference that counts as a change
    motion_fraction: float = 0.002  # share of changed pixels (frame to frame) that means movement
    arm_fraction: float = 0.004  # a change touching the play area's edge this big is an arm
    change_fraction: float = 0.0015  # share of pixels a committed frame must differ from the last one
    arm_timeout_s: float = 3.0  # an edge change that never moves is the table, not an arm


class StillnessGate:
    def __init__(self, config: GateConfig | None = None) -> None:
        self.config = config or GateConfig()
        self.state = SETTLING
        self._prev: np.ndarray | None = None
        self._ref: np.ndarray | None = None
        self._still_since: float | None = None
        self._arm_since: float | None = None
        self._done = False  # the current still period was already judged
        self._roi: np.ndarray | None = None
        self._band: np.ndarray | None = None
        self._area: list[list[float]] | None = None
        self._light = 1.0  # the room's light against the first view's, as the views committed since showed it

    def set_play_area(self, corners: list[list[float]] | None) -> None:
        """Four corners as fractions of the image, or None for the whole image."""
        self._area = corners
        self._roi = self._band = None

    def feed(self, frame: np.ndarray, t: float) -> bool:
        """True when `frame` is a new stable view of the table that should be read."""
        small = self._small(frame)
        prev, self._prev = self._prev, small
        if prev is None:
            self._still_since, self.state = t, SETTLING
            return False
        roi, band = self._masks(small.shape)
        level = self.config.level * min(1.0, max(self._light, LEAST_LEVEL))  # a dimmer room shows less contrast
        moving = _changed(small, prev, level, roi) > self.config.motion_fraction
        # the last committed view in this frame's light: what the arm and the change are judged against
        ref, gain = _in_light_of(self._ref, small, roi) if self._ref is not None else (None, 1.0)
        arm = ref is not None and self._arm(small, ref, roi, band, level)
        if arm and not moving:
            self._arm_since = self._arm_since if self._arm_since is not None else t
            arm = t - self._arm_since < self.config.arm_timeout_s
        else:
            self._arm_since = None
        if moving or arm:
            self.state = MOVING if moving else HAND
            self._still_since, self._done = None, False
            return False
        if self._still_since is None:
            self._still_since = t
        if t - self._still_since < self.config.still_s:
            self.state = SETTLING
            return False
        self.state = STILL
        if self._done:
            return False
        self._done = True
        if ref is not None:
            if _changed(small, ref, level, roi) < self.config.change_fraction:
                return False  # a hand passed and left everything as it was (or the room's light alone changed)
            self._light *= gain
        self._ref = small
        return True

    def _small(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        size = (self.config.width, max(1, round(h * self.config.width / w)))
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        return cv2.GaussianBlur(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), (3, 3), 0)

    def _masks(self, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        if self._roi is None or self._roi.shape != shape[:2]:
            h, w = shape[:2]
            roi = np.zeros((h, w), np.uint8)
            if self._area:
                pts = np.array([[x * (w - 1), y * (h - 1)] for x, y in self._area], np.int32)
                cv2.fillConvexPoly(roi, pts, 1)
            else:
                roi[:] = 1
            edge = np.zeros_like(roi)
            edge[[0, -1], :] = 1
            edge[:, [0, -1]] = 1
            inner = cv2.erode(roi, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT, borderValue=0)
            self._roi, self._band = roi, ((roi > 0) & ((inner == 0) | (edge > 0))).astype(np.uint8)
        assert self._band is not None
        return self._roi, self._band

    def _arm(self, small: np.ndarray, ref: np.ndarray, roi: np.ndarray, band: np.ndarray, level: float) -> bool:
        diff = ((cv2.absdiff(small, ref) > level) & (roi > 0)).astype(np.uint8)
        if diff.sum() < self.config.arm_fraction * diff.size:
            return False
        diff = cv2.dilate(diff, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(diff, connectivity=8)
        touching = set(np.unique(labels[band > 0]).tolist()) - {0}
        return any(stats[i, cv2.CC_STAT_AREA] >= self.config.arm_fraction * diff.size for i in touching)


def _in_light_of(ref: np.ndarray, small: np.ndarray, roi: np.ndarray) -> tuple[np.ndarray, float]:
    """The reference frame brought to this frame's light, and that gain, where the light changed by LIGHT_CHANGE or more
    (else the reference itself and 1): a lamp put out changes every pixel at once, the edge band too, and was taken
    for an arm until `arm_timeout_s`. The gain is the median of the play area's pixels' own grey ratios, where the
    reference is not near black: what changed on the table (a card laid, a hand over it) is a minority of them, and
    stays a change in the new light."""
    lit = (roi > 0) & (ref >= LIGHT_FLOOR)
    if not lit.any():
        return ref, 1.0
    gain = float(np.median(small[lit].astype(np.float32) / ref[lit].astype(np.float32)))
    if abs(gain - 1.0) < LIGHT_CHANGE:
        return ref, 1.0
    return np.clip(np.round(ref.astype(np.float32) * gain), 0, 255).astype(np.uint8), gain


def _changed(a: np.ndarray, b: np.ndarray, level: float, roi: np.ndarray) -> float:
    """Share of the play area whose grey level changed by more than `level`."""
    changed = (cv2.absdiff(a, b) > level) & (roi > 0)
    return float(changed.sum()) / max(1, int(roi.sum()))
