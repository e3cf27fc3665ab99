"""The live view: the newest camera frame with overlays, encoded once per frame for every viewer."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import cv2

from companion import calibration, hero, mjpeg, overlay
from companion.session import Session
from companion.sources import LiveSource

IDLE_FRAME_S = 1.0  # without a camera, the placeholder is re-sent this often


class LiveView:
    def __init__(self, session: Session, source: LiveSource | None, gate_state: Callable[[], str] = lambda: "still",
                 quality: int = 75) -> None:
        self.session = session
        self.source = source
        self.gate_state = gate_state
        self.quality = quality
        self._lock = threading.Lock()
        self._cached: tuple[int, bytes] | None = None
        self._board: tuple[int, dict[str, Any] | None] | None = None  # (session version, hero.board)
        self.encoded = 0

    def jpeg(self, after_seq: int = 0, timeout: float = 1.0) -> tuple[int, bytes]:
        """The newest frame after `after_seq` as JPEG (the last one again after `timeout`)."""
        frame = self.source.wait(after_seq, timeout) if self.source is not None else None
        if frame is None and self.source is not None:
            frame = self.source.latest()
        if frame is None:
            text = "no camera" if self.source is None else f"camera {self.source.status()['state']}"
            return after_seq, _encode(overlay.placeholder(text), self.quality)
        with self._lock:
            if self._cached is not None and self._cached[0] == frame.seq:
                return self._cached
            trouble = self._trouble()
            grid, marks = self._table_marks(frame.image.shape)
            image = overlay.draw(frame.image, self.session.detections, trouble, self.gate_state(),
                                 self.source.status() if self.source else {}, self.session.state.play_area,
                                 grid, marks, self.session.pawns)
            self._cached = (frame.seq, _encode(image, self.quality))
            self.encoded += 1
            return self._cached

    def stream(self, stop: Callable[[], bool] = lambda: False) -> Iterator[bytes]:
        """Multipart parts: each new frame once; without new frames, the last one again every second."""
        seq, sent = 0, 0.0
        while not stop():
            new_seq, data = self.jpeg(seq, IDLE_FRAME_S)
            if new_seq == seq and time.monotonic() - sent < IDLE_FRAME_S:
                time.sleep(0.05)
                continue
            seq, sent = new_seq, time.monotonic()
            yield mjpeg.part(data)

    def _table_marks(self, shape: tuple[int, ...]) -> tuple[list[Any], list[dict[str, Any]]]:
        """The auto calibration's grid (unless a manual play area overrides it) and where the hero may go."""
        st = self.session.state
        auto = st.auto_calibration
        grid = calibration.grid_lines(auto, shape) if auto is not None and st.play_area is None else []
        version = self.session.version
        if self._board is None or self._board[0] != version:  # legal moves only when the game changed
            with self.session.lock:
                self._board = (version, hero.board(st.live) if st.live is not None else None)
        marks = hero.camera_marks(self._board[1], self.session.detections, calibration.homography(auto, shape))
        return grid, marks

    def _trouble(self) -> set[str]:
        """Cards lying where the game says they should not: the violation's or the misread's."""
        st, live = self.session.state, self.session.state.live
        cards: set[str] = set()
        if st.violation_view and live is not None and live.table is not None:
            cards |= _misplaced(st.violation_view, live.table.expected(live.match.game))
        if st.pending:
            cards |= _misplaced(st.pending.get("seen", {}), st.pending.get("expected", {}))
        return cards


def _misplaced(seen: dict, expected: dict) -> set[str]:
    out = {c for zone in ("room", "weapon_monsters") for c in seen.get(zone, []) if c not in expected.get(zone, [])}
    if seen.get("weapon") and seen.get("weapon") != expected.get("weapon"):
        out.add(seen["weapon"])
    return out


def _encode(image: object, quality: int) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return buf.tobytes() if ok else b""
