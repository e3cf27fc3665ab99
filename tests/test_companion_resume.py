"""`companion serve` killed with SIGKILL mid-game restarts with `--resume` in exactly the state it showed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

from companion.demo_render import DEMO_DIR, DEMO_NAME

VIDEO = DEMO_DIR / f"{DEMO_NAME}.mp4"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(db: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    cmd = [sys.executable, "-m", "companion", "serve", "--source", str(VIDEO), "--db", str(db), "--port", str(port),
           "--no-browser", "--setup", json.dumps({"deck": ["5D", "8S", "7H", "QC", "3S", "9H", "2C"]}), *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            get(port, "/api/state")
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError(f"the server did not start: {proc.communicate()}")


def get(port: int, path: str) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as resp:
        return json.loads(resp.read())


def post(port: int, path: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(),
                                 {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=5) as resp:
        return json.loads(resp.read())


def without_source(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in state.items() if k != "source"}


def test_kill_9_mid_game_then_resume_loses_nothing(tmp_path: Path) -> None:
    db, port = tmp_path / "companion.db", free_port()
    proc = start(db, port)
    try:
        dungeon = get(port, "/api/record")["setup"]["dungeon"]
        room = get(port, "/api/state")["room"]
        assert room == dungeon[:4]
        post(port, "/api/move", {"move": "run"})
        room = get(port, "/api/state")["room"]
        moves = [m for m in get(port, "/api/session")["legal_moves"] if m != "run"][:2]
        for move in moves:
            post(port, "/api/move", {"move": move})
        before_state, before_record = get(port, "/api/state"), get(port, "/api/record")
        before_log = [e["text"] for e in get(port, "/api/session")["log"]]
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    proc = start(db, port, "--resume")
    try:
        assert without_source(get(port, "/api/state")) == without_source(before_state)
        assert get(port, "/api/record") == before_record and before_record["moves"] == ["run", *moves]
        assert [e["text"] for e in get(port, "/api/session")["log"]][:len(before_log)] == before_log
        post(port, "/api/undo", {})
        assert get(port, "/api/record")["moves"] == ["run", *moves[:1]]
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[str]) -> None:
    """Ctrl-C, as a player would: the server must stop even when its parent shell ignores SIGINT."""
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate(timeout=10)
        raise AssertionError(f"companion serve did not stop within 30 s of SIGINT; stderr: {err[-2000:]}") from None
    assert proc.returncode == 0
