"""The dashboard's HTTP API on a real server (127.0.0.1), a real SQLite file, real requests."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.runtime import Companion, Config
from engine.registry import available_games

DECK = ["5D", "8S", "7H", "QC", "3S", "9H"]


@pytest.fixture()
def companion(tmp_path: Path) -> Iterator[Companion]:
    c = Companion(Config(db=tmp_path / "c.db", port=0, setup={"deck": DECK}, recognise=False)).start()
    yield c
    c.stop()


def call(c: Companion, path: str, body: Any = None, *, raw: bytes | None = None, headers: dict[str, str] | None = None,
         method: str | None = None) -> tuple[int, Any]:
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    hdrs = {"Content-Type": "application/json"} if body is not None else {}
    hdrs.update(headers or {})
    req = urllib.request.Request(f"http://127.0.0.1:{c.port}{path}", data=data, headers=hdrs, method=method)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.loads(resp.read() or b"null")
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


def test_state_is_what_companion_replay_prints_plus_the_source(companion: Companion) -> None:
    companion.session.observe({"room": ["5D", "8S", "7H", "QC"]})
    assert call(companion, "/api/move", {"move": "equip 5D"})[0] == 200
    assert call(companion, "/api/move", {"move": "fight QC weapon"})[0] == 200
    status, state = call(companion, "/api/state")
    _, record = call(companion, "/api/record")
    replay = subprocess.run([sys.executable, "-m", "companion", "replay", "-"], input=json.dumps(record),
                            capture_output=True, text=True, check=True)
    assert status == 200 and state.pop("source") == {"state": "none"}
    assert state == json.loads(replay.stdout)
    assert record["moves"] == ["equip 5D", "fight QC weapon"] and state["life"] == 13
    _, games = call(companion, "/api/games")
    assert call(companion, f"/api/games/{games[0]['id']}/record") == (200, record)


@pytest.mark.parametrize(("path", "body", "status", "words"), [
    ("/api/move", {"move": "fly away"}, 400, "cannot parse"),
    ("/api/move", {}, 400, "missing field 'move'"),
    ("/api/move", {"move": "run", "extra": 1}, 400, "unknown field"),
    ("/api/move", [1, 2], 400, "JSON object"),
    ("/api/undo", {}, 409, "no move to undo"),
    ("/api/confirm", {"option": 0}, 409, "nothing awaits"),
    ("/api/confirm", {"option": "0"}, 400, "must be int"),
    ("/api/correct", {"zone": "room", "index": 0}, 400, "missing field 'code'"),
    ("/api/dismiss", {}, 409, "nothing awaits"),
    ("/api/new-game", {"game": "chess"}, 400, "unknown game"),
    ("/api/new-game", {"game": "scoundrel", "setup": {"deck": ["5D", "5D"]}}, 400, "duplicate card 5D"),
    ("/api/new-game", {"game": "scoundrel", "options": {"weapon_rule": "sharp"}}, 400, "weapon_rule"),
    ("/api/calibration", {"corners": [[0, 0], [1, 0], [1, 1]]}, 400, "four [x, y] points"),
    ("/api/calibration", {"corners": [[0, 0], [1, 0], [1, 1], [0, 2]]}, 400, "four [x, y] points"),
])
def test_every_post_is_validated_with_a_clear_4xx(companion: Companion, path: str, body: Any, status: int,
                                                  words: str) -> None:
    got, answer = call(companion, path, body)
    assert got == status and words in answer["error"]
    assert companion.session.record()["moves"] == []


def test_wrong_content_type_size_method_and_origin_are_refused(companion: Companion) -> None:
    assert call(companion, "/api/undo", raw=b"{}", headers={"Content-Type": "text/plain"})[0] == 415
    big = json.dumps({"move": "x" * 100_000}).encode()
    assert call(companion, "/api/move", raw=big, headers={"Content-Type": "application/json"})[0] == 413
    assert call(companion, "/api/move", method="GET")[0] == 405
    status, answer = call(companion, "/api/move", {"move": "run"}, headers={"Origin": "http://evil.example"})
    assert status == 403 and "not accepted" in answer["error"]
    assert call(companion, "/api/nothing")[0] == 404


def test_a_new_game_and_calibration_are_stored_and_every_known_game_is_offered(companion: Companion) -> None:
    status, answer = call(companion, "/api/new-game", {"game": "scoundrel", "setup": {"seed": 7}})
    assert status == 201 and answer["state"]["dungeon_left"] == 40
    assert call(companion, "/api/calibration", {"corners": [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]]})[0] == 200
    _, snap = call(companion, "/api/session")
    assert snap["play_area"][2] == [0.9, 0.9] and snap["games"] == available_games()
    assert [g["game"] for g in call(companion, "/api/games")[1]][:2] == ["scoundrel", "scoundrel"]


def test_server_sent_events_push_each_change(companion: Companion) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{companion.port}/api/events", timeout=10) as stream:
        first = _next_event(stream)
        assert first["state"]["life"] == 20
        call(companion, "/api/move", {"move": "run"})
        second = _next_event(stream)
    assert second["moves"] == ["run"] and second["version"] > first["version"]


def _next_event(stream: Any) -> dict[str, Any]:
    data = None
    for line in stream:
        text = line.decode().rstrip("\n")
        if text.startswith("data: "):
            data = json.loads(text[6:])
        elif text == "" and data is not None:
            return data
    raise AssertionError("the stream ended")


def test_a_non_loopback_host_needs_the_token(tmp_path: Path) -> None:
    c = Companion(Config(db=tmp_path / "c.db", host="0.0.0.0", port=0, recognise=False)).start()
    try:
        assert c.token and f"token={c.token}" in c.url
        status, answer = call(c, "/api/state")
        assert status == 403 and "token" in answer["error"]
        assert call(c, f"/api/state?token={c.token}")[0] == 200
        assert call(c, "/api/state", headers={"X-Companion-Token": c.token})[0] == 200
        assert call(c, "/api/state", headers={"X-Companion-Token": c.token + "x"})[0] == 403
        with urllib.request.urlopen(f"http://127.0.0.1:{c.port}/?token={c.token}", timeout=10) as resp:
            cookie = resp.headers["Set-Cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        assert call(c, "/api/state", headers={"Cookie": cookie.split(";")[0]})[0] == 200
    finally:
        c.stop()


def test_live_view_serves_jpeg_frames(companion: Companion) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{companion.port}/live.jpg", timeout=10) as resp:
        data = resp.read()
    assert resp.headers["Content-Type"] == "image/jpeg" and data[:2] == b"\xff\xd8"
