"""Motion JPEG over HTTP: reading a phone's IP-camera stream, and the multipart framing the live view serves."""

from __future__ import annotations

import urllib.request
from typing import Any

import cv2
import numpy as np

BOUNDARY = "tcframe"
CONTENT_TYPE = f"multipart/x-mixed-replace; boundary={BOUNDARY}"
MAX_BUFFER = 8 * 1024 * 1024  # drop a stream that sends this much without one whole JPEG


def part(jpeg: bytes) -> bytes:
    """One multipart chunk of the live view stream."""
    head = f"--{BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
    return head + jpeg + b"\r\n"


class MjpegReader:
    """Frames from an HTTP camera: a multipart MJPEG stream, or a JPEG snapshot URL polled again and again.

    JPEGs are cut out of the byte stream by their start and end markers, which every camera app's
    framing agrees on even where their multipart headers differ.
    """

    def __init__(self, url: str, timeout: float = 5.0) -> None:
        self.url = url
        self.timeout = timeout
        self._resp: Any = None
        self._buf = b""
        self._snapshot = False
        self._open()

    def _open(self) -> None:
        resp = urllib.request.urlopen(self.url, timeout=self.timeout)  # noqa: S310 - the user's own camera
        kind = resp.headers.get("Content-Type", "")
        self._snapshot = kind.startswith("image/")
        if not (self._snapshot or kind.startswith("multipart/")):
            resp.close()
            raise OSError(f"{self.url} sends {kind or 'no content type'}, not MJPEG or JPEG")
        self._resp, self._buf = resp, b""

    def read(self) -> np.ndarray | None:
        """The next frame, or None when the stream broke (the caller reconnects)."""
        try:
            if self._snapshot:
                if self._resp is None:
                    self._open()
                data, self._resp = self._resp.read(), None
                self._resp = None
                return _decode(data)
            return self._next_part()
        except (OSError, ValueError):
            self.close()
            return None

    def _next_part(self) -> np.ndarray | None:
        while True:
            start = self._buf.find(b"\xff\xd8")
            end = self._buf.find(b"\xff\xd9", start + 2) if start >= 0 else -1
            if start >= 0 and end >= 0:
                jpeg, self._buf = self._buf[start:end + 2], self._buf[end + 2:]
                image = _decode(jpeg)
                if image is not None:
                    return image
                continue
            if len(self._buf) > MAX_BUFFER:
                raise ValueError("no JPEG in the stream")
            chunk = self._resp.read1(65536) if self._resp is not None else b""
            if not chunk:
                raise OSError("the stream ended")
            self._buf = self._buf[start:] if start > 0 else self._buf
            self._buf += chunk

    def close(self) -> None:
        if self._resp is not None:
            try:
                self._resp.close()
            except OSError:
                pass
        self._resp = None


def _decode(data: bytes) -> np.ndarray | None:
    if not data:
        return None
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
