"""Enrollment from the dashboard as a background job: a real Flask server on 127.0.0.1, polled over HTTP,
and the page itself in headless Chromium."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask
from werkzeug.serving import make_server

from companion.enroll_jobs import JobError, Jobs
from companion.web_enroll import JOBS_KEY, enroll_bp
from vision.enroll import synthetic as sy
from vision.enroll.deck import EnrollError
from vision.enroll.progress import Progress
from vision.enroll.store import ProfileStore

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "datasets" / "strijders" / "catalog.json"
POLL_LIMIT_S = 240.0  # a bound on waiting for a job, not a speed figure: the machine is shared


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("shots")
    rng = np.random.default_rng(0)
    for c in json.loads(CATALOG.read_text(encoding="utf-8"))["cards"][:4]:
        cv2.imwrite(str(folder / f"{c['id']}.jpg"), sy.strijders_photo(c, rng, (600, 800)).image)
    return folder


class Server:
    def __init__(self, home: Path) -> None:
        self.app = Flask(__name__)
        self.app.config.update(ENROLL_HOME=str(home), MAX_CONTENT_LENGTH=64 * 1024)
        self.app.register_blueprint(enroll_bp)
        self.http = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.http.server_port}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()
        self.store = ProfileStore(home)

    def get(self, path: str) -> tuple[int, object]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def post(self, path: str, fields: dict[str, str], files: list[tuple[str, str, bytes]]) -> tuple[int, dict]:
        boundary = "----enroll-test-boundary"
        body = b""
        for key, value in fields.items():
            body += f"--{boundary}\r\nContent-Disposition: form-data; name=\"{key}\"\r\n\r\n{value}\r\n".encode()
        for key, filename, data in files:
            body += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{key}\"; filename=\"{filename}\"\r\n"
                     "Content-Type: application/octet-stream\r\n\r\n").encode() + data + b"\r\n"
        body += f"--{boundary}--\r\n".encode()
        kind = f"multipart/form-data; boundary={boundary}"
        req = urllib.request.Request(self.url + path, body, {"Content-Type": kind})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def follow(self, job: str) -> tuple[dict, list[str]]:
        """Poll the job like the page does; its final status and every stage seen on the way."""
        end = time.monotonic() + POLL_LIMIT_S
        stages: list[str] = []
        while time.monotonic() < end:
            status, body = self.get(f"/enroll/api/jobs/{job}")
            assert status == 200, body
            assert isinstance(body, dict)
            if not stages or stages[-1] != body["stage"]:
                stages.append(body["stage"])
            if body["state"] in ("done", "failed"):
                return body, stages
            time.sleep(0.05)
        raise AssertionError(f"job {job} still running after {POLL_LIMIT_S} s: {stages}")

    def close(self) -> None:
        self.http.shutdown()
        self.thread.join(10)
        if JOBS_KEY in self.app.extensions:
            self.app.extensions[JOBS_KEY].shutdown()


@pytest.fixture()
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "profiles")
    yield s
    s.close()


def _shot_files(shots: Path) -> list[tuple[str, str, bytes]]:
    return [("photo", p.name, p.read_bytes()) for p in sorted(shots.iterdir())]


def test_enrollment_runs_as_a_job_the_page_polls(server: Server, shots: Path) -> None:
    status, started = server.post("/enroll/api/strijders", {"name": "ours"}, _shot_files(shots))
    assert status == 202 and started["status_url"] == f"/enroll/api/jobs/{started['job']}"
    final, stages = server.follow(started["job"])
    assert final["state"] == "done" and final["progress"] == 1.0 and final["error"] is None
    assert final["result"]["name"] == "ours" and final["result"]["labels"] == 4
    assert server.store.load("ours").kind == "strijders"
    assert stages[-1] == "done"
    listed = server.get("/enroll/api/jobs")[1]
    assert isinstance(listed, list) and [j["id"] for j in listed] == [started["job"]]


def test_a_failed_job_reports_its_error_and_keeps_the_old_profile(server: Server, shots: Path) -> None:
    status, first = server.post("/enroll/api/strijders", {"name": "kept"}, _shot_files(shots))
    assert status == 202 and server.follow(first["job"])[0]["state"] == "done"
    before = (server.store.path("kept") / "manifest.json").read_bytes()
    blank = cv2.imencode(".png", np.full((600, 800, 3), (40, 90, 30), np.uint8))[1].tobytes()
    status, started = server.post("/enroll/api/strijders", {"name": "kept", "force": "1"},
                                  [("photo", "heks.png", blank)])
    assert status == 202
    final, _ = server.follow(started["job"])
    assert final["state"] == "failed" and final["result"] is None
    assert final["error"].startswith("heks: no card found")
    assert (server.store.path("kept") / "manifest.json").read_bytes() == before
    assert server.store.names() == ["kept"]


def test_bad_uploads_are_refused_before_any_job(server: Server) -> None:
    status, body = server.post("/enroll/api/tiles", {"name": "x"}, [("photo", "a.jpg", b"not an image")])
    assert status == 400 and "not a picture" in body["error"]
    status, body = server.post("/enroll/api/cards", {"name": "x", "grid": "three"}, [("photo", "a.jpg", b"x")])
    assert status == 400 and "grid must be one, two or video" in body["error"]
    assert server.get("/enroll/api/jobs")[1] == []
    status, body = server.get("/enroll/api/jobs/nosuchjob")
    assert status == 404 and "no enrollment job 'nosuchjob'" in body["error"]


def test_progress_only_grows_through_the_stages(shots: Path) -> None:
    from vision.enroll.strijders import enroll_catalog

    seen: list[tuple[str, float]] = []
    images = [(p.stem, cv2.imread(str(p))) for p in sorted(shots.iterdir())]
    enroll_catalog("p", images, progress=Progress(lambda stage, f: seen.append((stage, f))).part(0.0, 0.95))
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions) and 0.0 <= fractions[0] and fractions[-1] <= 0.95
    stages = [s for s, _ in seen]
    assert stages[0] == "finding the card in photo 1 of 4" and "templates of boer (1 of 4)" in stages
    assert "describing the templates" in stages and stages[-1] == "learning this deck's metric"


def test_jobs_one_at_a_time_one_per_name_and_crashes_reported() -> None:
    jobs = Jobs((EnrollError,), keep=2)
    release = threading.Event()
    seen: list[tuple[str, float]] = []

    def slow(progress: Progress) -> dict:
        progress("halfway", 0.5)
        seen.append(("halfway", 0.5))
        assert release.wait(30)
        return {"ok": True}

    first = jobs.submit("cards", "deck", slow)
    with pytest.raises(JobError, match="'deck' is already being taught"):
        jobs.submit("cards", "deck", slow)

    def refused(progress: Progress) -> dict:
        raise EnrollError("not found: QS; lay them apart")

    def broken(progress: Progress) -> dict:
        raise ZeroDivisionError("division by zero")

    second = jobs.submit("cards", "other", refused)
    third = jobs.submit("tiles", "ed", broken)
    assert jobs.get(second.id).state == "queued"  # the worker is busy with the first job
    release.set()
    assert jobs.wait(first.id, 30).status()["result"] == {"ok": True}
    assert jobs.wait(second.id, 30).error == "not found: QS; lay them apart"
    crashed = jobs.wait(third.id, 30)
    assert crashed.state == "failed" and crashed.error is not None
    assert "ZeroDivisionError: division by zero" in crashed.error and "nothing was saved" in crashed.error
    assert seen == [("halfway", 0.5)]
    jobs.submit("cards", "deck", lambda p: {})  # finished jobs beyond `keep` are forgotten, newest kept
    jobs.wait(jobs.all()[-1].id, 30)
    with pytest.raises(JobError, match="no enrollment job"):
        jobs.get(first.id)
    jobs.shutdown()


def test_the_page_shows_progress_then_the_result_or_the_error(server: Server, shots: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args, headless=True)
        try:
            page = browser.new_page()
            page.goto(f"{server.url}/enroll/strijders")
            page.fill("input[name=name]", "browser-deck")
            page.set_input_files("input[name=photo]", [str(f) for f in sorted(shots.iterdir())])
            page.click("form button")
            expect(page.locator("#result")).to_contain_text('Learned strijders profile "browser-deck": 4 labels',
                                                             timeout=POLL_LIMIT_S * 1000)
            assert page.url == f"{server.url}/enroll/strijders"  # the form did not navigate away
            assert server.store.names() == ["browser-deck"]
            blank = np.full((400, 300, 3), 90, np.uint8)
            page.set_input_files("input[name=photo]", files=[{"name": "heks.png", "mimeType": "image/png",
                                                              "buffer": cv2.imencode(".png", blank)[1].tobytes()}])
            page.fill("input[name=name]", "second")
            page.click("form button")
            expect(page.locator("#result.error")).to_contain_text("Error: heks: no card found",
                                                                  timeout=POLL_LIMIT_S * 1000)
            expect(page.locator("#result")).to_contain_text("Nothing was saved")
            expect(page.locator("form button")).to_be_enabled()
            assert server.store.names() == ["browser-deck"]
            page.goto(f"{server.url}/enroll")
            expect(page.locator("#profiles tbody tr")).to_have_count(1)
        finally:
            browser.close()
