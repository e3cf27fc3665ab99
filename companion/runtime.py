"""One running companion: store, session, camera, referee loop, live view and web server wired together.

`companion serve`, `companion demo`, the benchmark and the tests all start it the same way.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

from companion.gating import GateConfig, StillnessGate
from companion.live_view import LiveView
from companion.loop import LoopThread, RefereeLoop
from companion.recognisers import Recogniser, RecogniserUnavailable, recogniser_for
from companion.session import Session
from companion.sources import LiveSource, SourceSpec, parse_source
from companion.store import Store
from companion.web import create_app

DEFAULT_PORT = 8765
PAWN_CHANGE = 0.0005  # share of the gate's frame a pawn's step changes: about 0.001 for an 18 mm pawn at 2 px/mm


def default_db() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "table-companion" / "companion.db"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass
class Config:
    db: Path = field(default_factory=default_db)
    source: str | None = None
    game: str = "scoundrel"
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=lambda: {"deck": "full"})
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    resume: bool = False
    speed: float = 1.0
    recognise: bool = True
    profile: str | None = None  # an enrolled deck (name or folder) the recogniser identifies cards with
    pawns: dict[str, list[float]] | None = None  # Superheld: the heroes' pawn colours (Lab by name, hero 1 first)
    token: str | None = None
    gate: GateConfig = field(default_factory=GateConfig)


def gate_for(config: Config) -> GateConfig:
    """The stillness gate's settings; with pawns looked for, a change as small as a pawn's step is a new view."""
    if config.pawns is None:
        return config.gate
    return replace(config.gate, change_fraction=min(config.gate.change_fraction, PAWN_CHANGE))


class Companion:
    def __init__(self, config: Config, recogniser: Recogniser | None = None) -> None:
        self.config = config
        self.store = Store(config.db)
        self.session = Session(self.store)
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        self.closing = threading.Event()
        resumed = config.resume and self.session.resume()
        if not resumed:
            self.session.new_game(config.game, config.options, config.setup)
        self.spec: SourceSpec | None = parse_source(config.source) if config.source else None
        start_pos = 0
        if resumed and self.spec is not None and self.spec.finite and self.session.state.last_pos is not None:
            start_pos = self.session.state.last_pos + 1  # a video resumes where the stored game left it
        self.source = LiveSource(self.spec, speed=config.speed, start_pos=start_pos,
                                 on_status=self.session.set_source) if self.spec else None
        if self.source is not None:
            self.session.source_probe = self.source.status
        self.recogniser = recogniser if recogniser is not None else self._recogniser()
        if self.warning and not resumed:
            self.session.note(f"{self.warning}; play the moves on the dashboard")
        self.loop = RefereeLoop(self.session, self.recogniser, StillnessGate(gate_for(config)))
        self.loop_thread = LoopThread(self.loop, self.source) if self.source else None
        self.view = LiveView(self.session, self.source, lambda: self.loop.gate.state)
        token = config.token
        if token is None and not is_loopback(config.host):
            token = secrets.token_urlsafe(16)
        self.token = token
        self.app = create_app(self.session, self.view, token)
        self.app.extensions["companion"]["closing"] = self.closing
        self._server = make_server(config.host, config.port, self.app, threaded=True)
        self.port = self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever, name="web", daemon=True)

    def _recogniser(self) -> Recogniser | None:
        live = self.session.state.live
        if not self.config.recognise or live is None or live.table is None:
            return None
        try:
            return recogniser_for(live.name, self.config.profile, self.config.setup.get("deck"), self.config.pawns)
        except RecogniserUnavailable as exc:
            self.warning = str(exc)
            return None

    warning: str | None = None

    @property
    def url(self) -> str:
        host = self.config.host
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        shown = f"[{shown}]" if ":" in shown else shown
        query = f"/?token={self.token}" if self.token else "/"
        return f"http://{shown}:{self.port}{query}"

    def start(self) -> Companion:
        self._thread.start()
        if self.source is not None:
            self.source.start()
        if self.loop_thread is not None:
            self.loop_thread.start()
        return self

    def stop(self) -> None:
        if not self._thread.is_alive():
            self.store.close()
            return
        self.closing.set()
        if self.loop_thread is not None:
            self.loop_thread.stop()
        if self.source is not None:
            self.source.stop()
        self.session.bus.close()
        self._server.shutdown()
        self._thread.join(timeout=5)
        self.store.close()
