"""The companion's one live game: observations and player actions in, stored events out.

Every change goes the same way: validate, commit the event to SQLite, fold it into the state, then
tell the dashboards. Nothing changes the game without an event, so nothing changes silently and a
restart replays to the same state.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from companion import announce, calibration, hero
from companion.bus import EventBus
from companion.live_game import LiveGame
from companion.referee import Verdict, explain, retraction
from companion.store import Event, Store
from companion.table_state import TableState
from engine.cards import CardError, parse_card
from engine.game import RecordError
from engine.registry import available_games

LOG_LENGTH = 200


class ActionError(Exception):
    """A player action that does not fit the current state (HTTP 409), or bad input (400)."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class Session:
    def __init__(self, store: Store, max_depth: int = 2) -> None:
        self.store = store
        self.bus = EventBus()
        self.lock = threading.RLock()
        self.max_depth = max_depth
        self.state = TableState()
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_LENGTH)
        self.source: dict[str, Any] = {"state": "none"}
        self.source_probe: Callable[[], dict[str, Any]] | None = None  # the camera's live status, frame counts
        self.detections: list[dict[str, Any]] = []  # the last recognised cards, for the live view's overlay
        self.pawns: list[dict[str, Any]] = []  # the pawns seen with them (Reading.pawns), for the overlay too
        self.version = 0
        self.announcements: deque[dict[str, Any]] = deque(maxlen=20)
        self._announce_id = 0
        self._camera_moves: list[str] = []  # the moves the camera's last explained view was taken for (`retraction`)

    # -- set-up -------------------------------------------------------------------------------
    def resume(self) -> bool:
        """Restore the latest game of the database exactly; False when there is none."""
        game_id = self.store.latest_game()
        if game_id is None:
            return False
        with self.lock:
            events = self.store.events(game_id)
            state = TableState()
            self.log.clear()
            for event in events:
                state.apply(event)
                self._log(state, event)
            state.game_id = game_id
            self.state = state
            self._camera_moves = []
            self.version += 1
        self._publish([])
        return True

    def new_game(self, game: str, options: dict[str, Any], setup: dict[str, Any]) -> int:
        if game not in available_games():
            raise ActionError(f"unknown game {game!r}; known: {', '.join(available_games())}", 400)
        LiveGame(game, options, setup)  # raises RecordError (400) before anything is stored
        with self.lock:
            game_id = self.store.new_game(game)
            self.state = TableState()
            self.state.game_id = game_id
            self.log.clear()
            self._camera_moves = []
            self._emit("new_game", {"game": game, "options": options, "setup": setup})
        self._publish([f"new game: {game}"])
        return game_id

    # -- the camera ---------------------------------------------------------------------------
    def observe(self, obs: dict[str, Any], pos: int | None = None) -> str:
        """A stable observation from the referee loop; returns what the referee made of it."""
        with self.lock:
            live = self.state.live
            if live is None or live.table is None:
                return "unrefereed"
            try:
                view = live.table.parse_view(obs)
            except ValueError:
                return "unreadable"
            seen = view.to_json()
            if seen == self.state.violation_view:
                return "violation-standing"
            if self.state.pending is not None and self.state.pending["seen"] == seen:
                return "pending"
            verdict = explain(live, view, self.state.confirmed, self.max_depth, self._misread_view(live))
            said = []
            if verdict.kind == "misread":
                instead = retraction(live, view, self._camera_moves, self.max_depth)
                if instead is not None:  # the last view's moves were a still's misreading: taken back
                    said, verdict = self._take_back(len(self._camera_moves), pos), instead
            said += self._settle(verdict, view, pos, "camera")
        self._publish(said)
        return verdict.kind

    def _settle(self, verdict: Verdict, view: Any, pos: int | None, origin: str) -> list[str]:
        live = self.state.live
        assert live is not None and live.table is not None
        seen = view.to_json()
        said: list[str] = []
        if verdict.moves or verdict.kind == "violation":
            self._camera_moves = list(verdict.moves) if origin == "camera" and verdict.kind == "moves" else []
        if verdict.kind in ("same", "moves"):
            for card, slot in verdict.reveals:
                self._emit("reveal", {"card": card, "slot": slot}, pos)
            said += self._play_all(verdict.moves, origin, pos)
            room = sorted(live.table.confirmed(view))
            if room != sorted(self.state.confirmed) or self.state.violation_view is not None:
                self._emit("table", {"room": room, "violation_view": None}, pos)
            self._resolve("explained", pos)
        elif verdict.kind == "violation":
            for card, slot in verdict.reveals:  # a face-down tile laid against the rules is still seen
                self._emit("reveal", {"card": card, "slot": slot}, pos)
            said += self._play_all(verdict.moves, origin, pos)
            self._emit("table", {"room": sorted(self.state.confirmed), "violation_view": seen}, pos)
            self._resolve("violation named", pos)
        else:
            expected = live.table.expected(live.match.game)
            self._emit("pending", {"kind": verdict.kind, "seen": seen, "expected": expected,
                                   "options": [_option_json(o) for o in verdict.options],
                                   "message": verdict.message}, pos)
            said.append("probable misread, please check" if verdict.kind == "misread" else "which move was it?")
        return said

    def _play_all(self, moves: list[str], origin: str, pos: int | None) -> list[str]:
        said = []
        live = self.state.live
        assert live is not None
        revealed_by = getattr(live.table, "revealed_by", None)  # a face-down tile named by the move that lays it
        for raw in moves:
            for card, slot in revealed_by(live.match.game, raw) if revealed_by is not None else []:
                self._emit("reveal", {"card": card, "slot": slot}, pos)
            self._emit("move", {"move": raw, "origin": origin}, pos)
            violation = self._last_violation()
            said.append(announce.after_move(live.name, live.to_json(), raw, violation))
        return said

    def _take_back(self, count: int, pos: int | None) -> list[str]:
        """The last `count` moves undone (stored as undo events, the camera's)."""
        live = self._live()
        said = []
        for raw in reversed(live.match.record.moves[-count:]):
            self._emit("undo", {"move": raw, "origin": "camera"}, pos)
            said.append(f"taken back: {raw}")
        self._camera_moves = []
        return said

    def _resolve(self, how: str, pos: int | None = None) -> None:
        if self.state.pending is not None:
            self._emit("resolve", {"how": how}, pos)

    # -- the player ---------------------------------------------------------------------------
    def play(self, raw: Any, origin: str = "player") -> dict[str, Any] | None:
        with self.lock:
            live = self._live()
            live.match.parse(raw, len(live.match.record.moves))  # RecordError -> 400, nothing stored
            said = self._play_all([raw], origin, None)
            self._camera_moves = []
            self._resolve("move played")
            violation = self._last_violation()
        self._publish(said)
        return violation

    def undo(self) -> Any:
        with self.lock:
            live = self._live()
            if not live.match.record.moves:
                raise ActionError("there is no move to undo")
            raw = live.match.record.moves[-1]
            self._emit("undo", {"move": raw})
            self._camera_moves = []
            if self.state.violation_view is not None:
                self._emit("table", {"room": sorted(self.state.confirmed), "violation_view": None})
            self._resolve("undone")
        self._publish([f"undone: {raw}"])
        return raw

    def confirm(self, option: int) -> list[str]:
        with self.lock:
            live, pending = self._live(), self._pending()
            options = pending["options"]
            if not 0 <= option < len(options):
                raise ActionError(f"option must be between 0 and {len(options) - 1}", 400)
            chosen = options[option]
            for card, slot in chosen["reveals"]:
                self._emit("reveal", {"card": card, "slot": slot})
            said = self._play_all(chosen["moves"], "confirmed", None)
            self._camera_moves = []
            assert live.table is not None
            room = sorted(live.table.settled(pending["seen"], live.match.game))
            self._emit("table", {"room": room, "violation_view": None})
            self._resolve("confirmed")
        self._publish(said)
        return chosen["moves"]

    def correct(self, zone: str, index: int, code: str) -> str:
        """The player names a card the camera misread; the corrected table is refereed again."""
        with self.lock:
            live, pending = self._live(), self._pending()
            seen = {k: (list(v) if isinstance(v, list) else v) for k, v in pending["seen"].items()}
            assert live.table is not None
            if zone not in live.table.zones:
                if not live.table.zones:
                    raise ActionError(f"{live.name} is set right by confirming a suggested move, playing or undoing "
                                      "one, not by correcting a card", 400)
                raise ActionError(f"zone must be one of {', '.join(live.table.zones)}", 400)
            try:
                card = parse_card(code).code
            except CardError as exc:
                raise ActionError(str(exc), 400) from None
            if zone == "weapon":
                if index != 0:
                    raise ActionError("the weapon zone holds one card: index must be 0", 400)
                seen["weapon"] = card
            else:
                if not 0 <= index < len(seen[zone]):
                    raise ActionError(f"{zone} has {len(seen[zone])} card(s); index {index} is out of range", 400)
                seen[zone][index] = card
            self._emit("correction", {"zone": zone, "index": index, "code": card})
            view = live.table.parse_view(seen)
            verdict = explain(live, view, self.state.confirmed, self.max_depth)
            said = self._settle(verdict, view, None, "corrected")
        self._publish(said)
        return verdict.kind

    def dismiss(self) -> None:
        with self.lock:
            self._pending()
            self._resolve("dismissed")
        self._publish([])

    def calibrate(self, corners: list[list[float]] | None) -> None:
        """The player's play area (None clears it and returns to the calibration measured from the cards)."""
        with self.lock:
            self._live()
            self._emit("calibration", {"source": "manual", "corners": corners})
        self._publish([])

    def calibrate_auto(self, data: dict[str, Any]) -> None:
        """A homography measured from the cards (companion.calibration decides when it is worth storing)."""
        with self.lock:
            if self.state.game_id is None:
                return
            self._emit("calibration", data)
        self._publish([])

    def note(self, text: str) -> None:
        """Something the player should know that changes nothing (e.g. the camera cannot referee yet)."""
        with self.lock:
            if self.state.game_id is not None:
                self._emit("note", {"text": text})
        self._publish([])

    def set_source(self, status: dict[str, Any]) -> None:
        """A change of the camera's state is an event too (stored only when the state word changes)."""
        with self.lock:
            changed = status.get("state") != self.source.get("state")
            self.source = dict(status)
            if changed and self.state.game_id is not None:
                self._emit("source", {"state": status.get("state"), "message": status.get("message", "")})
        if changed:
            said = [f"camera {status.get('state')}"] if status.get("state") in ("lost", "live") else []
            self._publish(said)

    # -- views --------------------------------------------------------------------------------
    def api_state(self) -> dict[str, Any]:
        """What `companion replay` prints for the current game, plus the source status."""
        with self.lock:
            live = self.state.live
            out = live.to_json() if live is not None else {"game": None, "status": "no-game"}
            out["source"] = self.source_status()
            return out

    def source_status(self) -> dict[str, Any]:
        return self.source_probe() if self.source_probe is not None else dict(self.source)

    def record(self) -> dict[str, Any]:
        with self.lock:
            return self._live().record().to_json()

    def record_of(self, game_id: int) -> dict[str, Any]:
        events = self.store.events(game_id)
        if not events:
            raise ActionError(f"no game {game_id}", 404)
        live = TableState.from_events(events).live
        assert live is not None
        return live.record().to_json()

    def snapshot(self) -> dict[str, Any]:
        """Everything the dashboard draws, pushed on every change."""
        with self.lock:
            live, st = self.state.live, self.state
            table = None
            if live is not None and live.table is not None:
                table = {"expected": live.table.expected(live.match.game), "confirmed": sorted(st.confirmed),
                         "violation_view": st.violation_view, "choices": live.table.choices()}
            return {
                "version": self.version,
                "game_id": st.game_id,
                "game": live.name if live else None,
                "state": live.to_json() if live else None,
                "moves": list(live.match.record.moves) if live else [],
                "legal_moves": live.match.legal_moves() if live else [],
                "camera_referees": bool(live and live.table is not None),
                "table": table,
                "pending": st.pending,
                "play_area": st.play_area,
                "calibration": calibration.status(st.play_area, st.auto_calibration),
                "board": hero.board(live) if live is not None else None,
                "source": self.source_status(),
                "log": list(self.log)[-60:],
                "announcements": list(self.announcements),
                "games": available_games(),
            }

    # -- internals ----------------------------------------------------------------------------
    def _live(self) -> LiveGame:
        if self.state.live is None:
            raise ActionError("no game yet: start one first")
        return self.state.live

    def _misread_view(self, live: LiveGame) -> Any:
        """The view awaiting the player, as the table reads it (None when nothing awaits, or it no longer reads)."""
        if self.state.pending is None or live.table is None:
            return None
        try:
            return live.table.parse_view(self.state.pending["seen"])
        except ValueError:
            return None

    def _pending(self) -> dict[str, Any]:
        if self.state.pending is None:
            raise ActionError("nothing awaits confirmation")
        return self.state.pending

    def _last_violation(self) -> dict[str, Any] | None:
        live = self.state.live
        if live is None or not live.match.violations:
            return None
        last = live.match.violations[-1]
        return last.to_json() if last.move == len(live.match.record.moves) - 1 else None

    def _emit(self, kind: str, data: dict[str, Any], pos: int | None = None) -> Event:
        event = self.store.append(self.state.game_id, kind, data, pos)  # committed first
        self.state.apply(event)
        self._log(self.state, event)
        self.version += 1
        return event

    def _log(self, state: TableState, event: Event) -> None:
        violation = None
        if event.kind == "move" and state.live is not None:
            v = state.live.match.violations
            if v and v[-1].move == len(state.live.match.record.moves) - 1:
                violation = v[-1].to_json()
        line = announce.log_line(event, violation)
        if line is not None:
            self.log.append({"id": event.id, "t": event.t, "kind": event.kind, "text": line,
                             "violation": violation is not None or event.kind == "pending"})

    def _publish(self, said: list[str]) -> None:
        with self.lock:
            for text in said:
                self._announce_id += 1
                self.announcements.append({"id": self._announce_id, "text": text})
            snapshot = self.snapshot()
        self.bus.publish("state", snapshot)


def _option_json(option: dict[str, Any]) -> dict[str, Any]:
    return {"moves": list(option["moves"]), "reveals": [list(p) for p in option["reveals"]],
            **({"distance": option["distance"]} if "distance" in option else {})}


__all__ = ["ActionError", "RecordError", "Session"]
