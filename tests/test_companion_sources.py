"""Camera sources: a video file and a folder of images as cameras, an HTTP MJPEG camera that vanishes and returns."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.demo_render import DEMO_DIR, DEMO_NAME, SIZE
from companion.runtime import Companion, Config
from companion.sources import LiveSource, parse_source

VIDEO = DEMO_DIR / f"{DEMO_NAME}.mp4"


def wait_for(predicate, timeout: float = 10.0) -> bool:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_source_text_names_its_kind(tmp_path: Path) -> None:
    assert parse_source("0").kind == "webcam"
    assert parse_source("rtsp://10.0.0.5/stream").kind == "url"
    assert parse_source("http://phone.local:8080/video").kind == "url"
    assert parse_source(str(tmp_path)).kind == "folder"
    assert parse_source(str(VIDEO)).kind == "file"
    with pytest.raises(ValueError, match="no camera index"):
        parse_source(str(tmp_path / "missing.mp4"))


def test_a_video_file_plays_to_its_end_keeping_only_the_latest_frame() -> None:
    statuses: list[str] = []
    source = LiveSource(parse_source(str(VIDEO)), speed=0, start_pos=1000,
                        on_status=lambda s: statuses.append(s["state"]))
    source.start()
    assert wait_for(lambda: source.finished)
    frame = source.latest()
    status = source.status()
    source.stop()
    cap = cv2.VideoCapture(str(VIDEO))
    total = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    cap.release()
    assert frame is not None and frame.pos == total - 1 and frame.image.shape == (SIZE[1], SIZE[0], 3)
    assert status["frames"] == total - 1000 and status["state"] == "ended"
    assert statuses[:2] == ["live", "ended"]


def test_a_folder_of_images_is_a_camera(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i:03d}.png"), np.full((40, 60, 3), 80 * i, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    source = LiveSource(parse_source(str(tmp_path)), folder_fps=100).start()
    assert wait_for(lambda: source.finished)
    frame = source.latest()
    source.stop()
    assert frame is not None and frame.pos == 2 and int(frame.image[0, 0, 0]) == 160


class Camera:
    """A phone-like HTTP MJPEG camera on a fixed port that can be switched off and on."""

    def __init__(self, port: int = 0) -> None:
        self.alive = threading.Event()
        camera = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's name
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                try:
                    for jpeg in camera.frames():
                        self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + jpeg + b"\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *args: object) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.alive.set()
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def frames(self) -> Iterator[bytes]:
        n = 0
        while self.alive.is_set():
            image = np.full((48, 64, 3), (n * 7) % 255, np.uint8)
            yield cv2.imencode(".jpg", image)[1].tobytes()
            n += 1
            time.sleep(0.03)

    def off(self) -> None:
        self.alive.clear()
        self.server.shutdown()
        self.server.server_close()


def test_an_ip_camera_that_vanishes_is_reconnected_and_the_game_is_untouched(tmp_path: Path) -> None:
    camera = Camera()
    url = f"http://127.0.0.1:{camera.port}/video"
    companion = Companion(Config(db=tmp_path / "c.db", source=url, port=0, recognise=False)).start()
    companion.source.backoff = (0.2, 0.4)
    try:
        session = companion.session
        assert wait_for(lambda: session.api_state()["source"]["state"] == "live")
        session.play("run")
        before = {k: v for k, v in session.api_state().items() if k != "source"}
        camera.off()
        assert wait_for(lambda: session.api_state()["source"]["state"] == "lost")
        time.sleep(0.5)
        lost = session.api_state()
        assert lost["source"]["reconnects"] >= 1
        camera = Camera(camera.port)
        assert wait_for(lambda: session.api_state()["source"]["state"] == "live")
        frames = session.api_state()["source"]["frames"]
        assert wait_for(lambda: session.api_state()["source"]["frames"] > frames + 5)
        assert {k: v for k, v in session.api_state().items() if k != "source"} == before
        kinds = [(e.kind, e.data.get("state")) for e in companion.store.events(session.state.game_id)]
        assert ("source", "lost") in kinds and kinds.index(("source", "lost")) < len(kinds) - 1
        assert any("camera lost" in line["text"] for line in session.snapshot()["log"])
    finally:
        companion.stop()
        camera.off()
