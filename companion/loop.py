"""The referee loop: frames from a source, through the stillness gate and the recogniser, into the session."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np

from companion.calibration import AutoCalibrator
from companion.gating import StillnessGate
from companion.recognisers import Recogniser
from companion.session import Session
from companion.sources import Frame, LiveSource


@dataclass(frozen=True, slots=True)
class Commit:
    """One stable frame read, with the times the latency benchmark needs."""

    pos: int
    arrived: float  # monotonic time the frame arrived from the source
    published: float  # monotonic time the session had stored and pushed the outcome
    verdict: str
    moves: int  # record moves after it


class RefereeLoop:
    def __init__(self, session: Session, recogniser: Recogniser | None, gate: StillnessGate | None = None) -> None:
        self.session = session
        self.recogniser = recogniser
        self.gate = gate or StillnessGate()
        self.commits: deque[Commit] = deque(maxlen=2000)
        self.stable: deque[tuple[int, float, float]] = deque(maxlen=2000)  # (pos, arrived, committed) per read
        self.frames = 0
        self._area: Any = None
        self._config = self.gate.config
        self.calibrator = AutoCalibrator()

    def step(self, frame: Frame) -> Commit | None:
        """Gate one frame; read and referee it when it is a new stable view."""
        self.frames += 1
        area = self.session.state.play_area
        if area != self._area:
            self._area = area
            self.gate.set_play_area(area)
        self._follow_table()
        if not self.gate.feed(frame.image, frame.t):
            return None
        self.stable.append((frame.pos, frame.wall, time.monotonic()))
        if self.recogniser is None:
            return None
        reading = self.recogniser.read(frame.image)
        self.session.detections = reading.cards
        self.session.pawns = reading.pawns
        if getattr(self.recogniser, "card_outlines", True):  # the table is measured from 63 x 88 mm cards only
            self.calibrator.update(self.session, reading.cards, frame.image.shape)
        verdict = self.session.observe(reading.observation, frame.pos)
        live = self.session.state.live
        moves = len(live.match.record.moves) if live is not None else 0
        commit = Commit(frame.pos, frame.wall, time.monotonic(), verdict, moves)
        self.commits.append(commit)
        return commit

    def _follow_table(self) -> None:
        """A table whose smallest change is small (a meeple set down) lowers the share a new view must differ by."""
        live = self.session.state.live
        small = getattr(live.table, "change_fraction", None) if live is not None else None
        fraction = min(self._config.change_fraction, small) if small is not None else self._config.change_fraction
        if fraction != self.gate.config.change_fraction:
            self.gate.config = replace(self.gate.config, change_fraction=fraction)

    def run_file(self, path: str, start_pos: int = 0,
                 seen: Callable[[np.ndarray], np.ndarray] | None = None) -> int:
        """Every frame of a video file, as fast as the machine goes (tests, `demo --check`); returns frames.
        `seen`: each frame as the camera shows it (`demo --check --jpeg ...`: a worse camera's)."""
        cap = cv2.VideoCapture(path)
        if not cap.isOpened():
            raise OSError(f"cannot open {path}")
        fps = cap.get(cv2.CAP_PROP_FPS) or 25.0
        if start_pos:
            cap.set(cv2.CAP_PROP_POS_FRAMES, start_pos)
        pos = start_pos
        try:
            while True:
                ok, image = cap.read()
                if not ok:
                    return pos
                self.step(Frame(pos + 1, pos, pos / fps, time.monotonic(), seen(image) if seen else image))
                pos += 1
        finally:
            cap.release()


class LoopThread:
    """Runs a RefereeLoop on a LiveSource's newest frames until stopped or the source ends."""

    def __init__(self, loop: RefereeLoop, source: LiveSource) -> None:
        self.loop = loop
        self.source = source
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="referee-loop", daemon=True)
        self.error: str | None = None

    def start(self) -> LoopThread:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    @property
    def gate_state(self) -> str:
        return self.loop.gate.state

    def _run(self) -> None:
        seq = 0
        while not self._stop.is_set():
            frame = self.source.wait(seq, timeout=0.5)
            if frame is None:
                if self.source.finished:
                    return
                continue
            seq = frame.seq
            try:
                self.loop.step(frame)
            except Exception as exc:  # noqa: BLE001 - a bad frame must not stop the referee; it is reported
                self.error = f"{type(exc).__name__}: {exc}"
