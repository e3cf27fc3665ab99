"""Pictures in: photo files, uploaded bytes, a few sharp frames of a short video, a folder of named shots."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES: tuple[str, ...] = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
MAX_PIXELS = 40_000_000  # a phone photo is at most about 50 MP; bigger is refused, not decoded


class MediaError(ValueError):
    """A picture or video that cannot be read; the message names it."""


def decode(data: bytes, name: str = "upload") -> np.ndarray:
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise MediaError(f"{name}: not a picture OpenCV can read (use JPEG or PNG)")
    if img.shape[0] * img.shape[1] > MAX_PIXELS:
        raise MediaError(f"{name}: picture too large ({img.shape[1]} x {img.shape[0]})")
    return img


def read_image(path: str | Path) -> np.ndarray:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise MediaError(f"cannot read {p}: {exc.strerror or exc}") from None
    return decode(data, str(p))


def sharpness(image: np.ndarray) -> float:
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_32F).var())


def read_video(path: str | Path, frames: int = 8) -> list[np.ndarray]:
    """The sharpest frame of each of `frames` equal stretches of the video (a slow pan over the grid)."""
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise MediaError(f"cannot open video {path}")
    chosen: list[tuple[float, np.ndarray]] = []
    try:
        total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) or 0
        stretch = max(1, total // frames) if total else 15
        best: tuple[float, np.ndarray] | None = None
        i = 0
        while True:
            ok, frame = cap.read()
            if not ok:
                break
            if i % 3 == 0:  # every third frame is plenty to find the sharp ones
                s = sharpness(frame)
                if best is None or s > best[0]:
                    best = (s, frame)
            i += 1
            if i % stretch == 0 and best is not None:
                chosen.append(best)
                best = None
        if best is not None and len(chosen) < frames:
            chosen.append(best)
    finally:
        cap.release()
    if not chosen:
        raise MediaError(f"{path}: no frames could be read")
    return [f for _, f in chosen[:frames]]


def named_images(folder: str | Path) -> list[tuple[str, Path]]:
    """(file stem, path) for each picture in a folder, sorted by name: `QS.jpg`, `heks.png`."""
    p = Path(folder)
    if not p.is_dir():
        raise MediaError(f"{p} is not a folder")
    found = sorted((f.stem, f) for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES and f.is_file())
    if not found:
        raise MediaError(f"{p} holds no pictures ({', '.join(IMAGE_SUFFIXES)})")
    return found
