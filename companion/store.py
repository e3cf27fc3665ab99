"""The companion's SQLite event store: every event is committed before anyone is shown it.

One database holds every game. A game's state is the fold of its events, so a server killed at any
moment restarts (`--resume`) in exactly the state it last showed.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started REAL NOT NULL,
    game TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER REFERENCES games(id),
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    pos INTEGER
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game_id, id);
"""


@dataclass(frozen=True, slots=True)
class Event:
    id: int
    game_id: int | None
    t: float
    kind: str
    data: dict[str, Any]
    pos: int | None = None  # the source frame that caused it, where there is one

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game_id": self.game_id, "t": self.t, "kind": self.kind, "data": self.data,
                "pos": self.pos}


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL survives a killed process
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def new_game(self, game: str) -> int:
        with self._lock:
            cur = self._db.execute("INSERT INTO games (started, game) VALUES (?, ?)", (time.time(), game))
            return int(cur.lastrowid or 0)

    def append(self, game_id: int | None, kind: str, data: dict[str, Any], pos: int | None = None) -> Event:
        """Commit one event and return it; only then may it change what the dashboard shows."""
        t = time.time()
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        with self._lock:
            cur = self._db.execute(
                "INSERT INTO events (game_id, t, kind, data, pos) VALUES (?, ?, ?, ?, ?)",
                (game_id, t, kind, text, pos),
            )
            return Event(int(cur.lastrowid or 0), game_id, t, kind, data, pos)

    def events(self, game_id: int) -> list[Event]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, game_id, t, kind, data, pos FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ).fetchall()
        return [Event(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5]) for r in rows]

    def latest_game(self) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT max(id) FROM games").fetchone()
        return row[0] if row and row[0] is not None else None

    def games(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.started, g.game, count(e.id) FROM games g LEFT JOIN events e ON e.game_id = g.id "
                "GROUP BY g.id ORDER BY g.id DESC"
            ).fetchall()
        return [{"id": r[0], "started": r[1], "game": r[2], "events": r[3]} for r in rows]
