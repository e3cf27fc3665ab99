"""Camera sources: a webcam index, an RTSP or HTTP (MJPEG) URL, a video file, a folder of images.

One reader thread per source keeps only the latest frame, so a slow reader never falls behind the
table. A source that drops is reopened with growing pauses; its state is reported, the game is not
touched. Files play at their own frame rate (or faster, `speed`) as if they were a camera.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.mjpeg import MjpegReader

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
FOLDER_FPS = 2.0
CONNECTING, LIVE, LOST, ENDED, STOPPED = "connecting", "live", "lost", "ended", "stopped"


@dataclass(frozen=True, slots=True)
class SourceSpec:
    kind: str  # webcam | url | file | folder
    target: str | int

    @property
    def finite(self) -> bool:
        return self.kind in ("file", "folder")


def parse_source(text: str) -> SourceSpec:
    """Read `--source`: `0` (webcam), `rtsp://…` / `http://…` (IP camera), a video file or an image folder."""
    text = text.strip()
    if text.isdigit():
        return SourceSpec("webcam", int(text))
    if text.split("://", 1)[0].lower() in ("rtsp", "rtsps", "http", "https", "rtmp") and "://" in text:
        return SourceSpec("url", text)
    path = Path(text).expanduser()
    if path.is_dir():
        return SourceSpec("folder", str(path))
    if path.is_file():
        return SourceSpec("file", str(path))
    raise ValueError(f"no camera index, URL, video file or image folder named {text!r}")


class Capture(Protocol):
    fps: float | None
    length: int | None  # frames in a finite source

    def read(self) -> np.ndarray | None: ...

    def seek(self, pos: int) -> None: ...

    def close(self) -> None: ...


class CvCapture:
    """Webcams, RTSP and video files through OpenCV."""

    def __init__(self, target: str | int) -> None:
        self._cap = cv2.VideoCapture(target)
        if not self._cap.isOpened():
            self._cap.release()
            raise OSError(f"cannot open {target!r}")
        fps = self._cap.get(cv2.CAP_PROP_FPS)
        self.fps = fps if fps and 0 < fps < 240 else None
        count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT))
        self.length = count if isinstance(target, str) and count > 0 and not _is_url(target) else None

    def read(self) -> np.ndarray | None:
        ok, frame = self._cap.read()
        return frame if ok else None

    def seek(self, pos: int) -> None:
        self._cap.set(cv2.CAP_PROP_POS_FRAMES, pos)

    def close(self) -> None:
        self._cap.release()


class FolderCapture:
    """The images of a folder in name order, one frame each."""

    def __init__(self, folder: str, fps: float = FOLDER_FPS) -> None:
        root = Path(folder)
        if not root.is_dir():
            raise OSError(f"{folder} is not a folder")
        self._files = sorted(p for p in root.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise OSError(f"{folder} holds no images")
        self.fps: float | None = fps
        self.length: int | None = len(self._files)
        self._next = 0

    def read(self) -> np.ndarray | None:
        if self._next >= len(self._files):
            return None
        image = cv2.imread(str(self._files[self._next]), cv2.IMREAD_COLOR)
        self._next += 1
        return image

    def seek(self, pos: int) -> None:
        self._next = max(0, pos)

    def close(self) -> None:
        self._files = []


class UrlCapture:
    """HTTP cameras through the MJPEG reader; anything else (RTSP, HLS) through OpenCV."""

    def __init__(self, url: str) -> None:
        self.fps: float | None = None
        self.length: int | None = None
        self._inner: Any = MjpegReader(url) if url.lower().startswith("http") else CvCapture(url)

    def read(self) -> np.ndarray | None:
        return self._inner.read()

    def seek(self, pos: int) -> None:
        return None

    def close(self) -> None:
        self._inner.close()


def open_capture(spec: SourceSpec, folder_fps: float = FOLDER_FPS) -> Capture:
    if spec.kind == "folder":
        return FolderCapture(str(spec.target), folder_fps)
    if spec.kind == "url":
        return UrlCapture(str(spec.target))
    return CvCapture(spec.target)


def _is_url(target: str) -> bool:
    return "://" in target


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int  # counts every frame the source delivered
    pos: int  # frame index in a finite source (same as seq for a camera)
    t: float  # media time: pos / fps for files, the clock for cameras
    wall: float  # time.monotonic() when it arrived
    image: np.ndarray


class LiveSource:
    """A source read by its own thread; `latest()` and `wait()` give the newest frame only."""

    def __init__(self, spec: SourceSpec, *, speed: float = 1.0, loop: bool = False, start_pos: int = 0,
                 backoff: tuple[float, float] = (0.5, 8.0), folder_fps: float = FOLDER_FPS,
                 on_status: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.spec = spec
        self.speed = speed
        self.loop = loop
        self.backoff = backoff
        self.folder_fps = folder_fps
        self.on_status = on_status
        self._pos = start_pos
        self._seq = 0
        self._frame: Frame | None = None
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"source-{spec.kind}", daemon=True)
        self._status: dict[str, Any] = {"kind": spec.kind, "source": str(spec.target), "state": CONNECTING,
                                        "message": "", "frames": 0, "reconnects": 0, "fps": None, "position": 0}
        self._rate: list[float] = []
        self.arrivals: deque[tuple[int, float]] = deque(maxlen=20000)  # (pos, monotonic) of every frame read

    # -- the consumer's side --------------------------------------------------------------------
    def start(self) -> LiveSource:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def latest(self) -> Frame | None:
        with self._cond:
            return self._frame

    def wait(self, after_seq: int, timeout: float = 1.0) -> Frame | None:
        """The newest frame with seq > after_seq, or None after `timeout` seconds without one."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while (self._frame is None or self._frame.seq <= after_seq) and not self._stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(left)
            frame = self._frame
            return frame if frame is not None and frame.seq > after_seq else None

    def status(self) -> dict[str, Any]:
        with self._cond:
            return dict(self._status)

    @property
    def finished(self) -> bool:
        return self._status["state"] in (ENDED, STOPPED)

    # -- the reader thread ------------------------------------------------------------------------
    def _set(self, state: str, message: str = "", **extra: Any) -> None:
        with self._cond:
            changed = state != self._status["state"] or message != self._status["message"]
            self._status.update(state=state, message=message, **extra)
            status = dict(self._status)
            self._cond.notify_all()
        if changed and self.on_status is not None:
            self.on_status(status)

    def _run(self) -> None:
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                cap = open_capture(self.spec, self.folder_fps)
            except OSError as exc:
                self._set(LOST, f"{exc}; retrying in {delay:.1f} s", reconnects=self._status["reconnects"] + 1)
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            if self._pos:
                cap.seek(self._pos)
            outcome = self._pump(cap)
            cap.close()
            if outcome == ENDED:
                if self.loop:
                    self._pos = 0
                    continue
                self._set(ENDED, "the video is over")
                return
            if outcome == STOPPED:
                break
            delay = self.backoff[0] if outcome == "read-some" else min(delay * 2, self.backoff[1])
            self._set(LOST, f"the source dropped; reconnecting in {delay:.1f} s",
                      reconnects=self._status["reconnects"] + 1)
            self._stop.wait(delay)
        self._set(STOPPED, "")

    def _pump(self, cap: Capture) -> str:
        """Read until the source fails, ends or we stop; pace files at their frame rate."""
        fps = cap.fps or (30.0 if self.spec.kind == "file" else None)
        start_pos, start_wall = self._pos, time.monotonic()
        got_any = False
        while not self._stop.is_set():
            image = cap.read()
            if image is None:
                if cap.length is not None and self._pos >= cap.length - 1:
                    return ENDED
                if self.spec.kind == "folder":
                    return ENDED
                return "read-some" if got_any else LOST
            if not got_any:
                self._set(LIVE, "", fps=fps)
            got_any = True
            now = time.monotonic()
            t = self._pos / fps if self.spec.finite and fps else now
            self._publish(Frame(self._seq + 1, self._pos, t, now, image))
            self._pos += 1
            if self.spec.finite and fps and self.speed > 0:
                due = start_wall + (self._pos - start_pos) / (fps * self.speed)
                self._stop.wait(max(0.0, due - time.monotonic()))
        return STOPPED

    def _publish(self, frame: Frame) -> None:
        with self._cond:
            self._seq = frame.seq
            self._frame = frame
            self.arrivals.append((frame.pos, frame.wall))
            self._rate.append(frame.wall)
            self._rate = [w for w in self._rate if frame.wall - w < 2.0]
            rate = (len(self._rate) - 1) / (self._rate[-1] - self._rate[0]) if len(self._rate) > 2 else None
            self._status.update(frames=self._status["frames"] + 1, position=frame.pos,
                                fps=round(rate, 1) if rate else self._status["fps"])
            self._cond.notify_all()
