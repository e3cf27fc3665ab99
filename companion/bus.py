"""Fan-out of server events to the dashboards listening on Server-Sent Events."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from typing import Any

KEEPALIVE_S = 15.0


class EventBus:
    """Each subscriber gets its own bounded queue; a subscriber too slow to keep up is dropped."""

    def __init__(self, backlog: int = 256) -> None:
        self._subscribers: set[queue.Queue[tuple[str, str] | None]] = set()
        self._lock = threading.Lock()
        self._backlog = backlog

    def publish(self, name: str, data: Any) -> None:
        message = (name, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        with self._lock:
            subscribers = list(self._subscribers)
        for q in subscribers:
            try:
                q.put_nowait(message)
            except queue.Full:
                self._drop(q)

    def _drop(self, q: queue.Queue[tuple[str, str] | None]) -> None:
        with self._lock:
            self._subscribers.discard(q)
        try:
            q.put_nowait(None)
        except queue.Full:
            pass

    def subscribe(self) -> queue.Queue[tuple[str, str] | None]:
        q: queue.Queue[tuple[str, str] | None] = queue.Queue(self._backlog)
        with self._lock:
            self._subscribers.add(q)
        return q

    def unsubscribe(self, q: queue.Queue[tuple[str, str] | None]) -> None:
        with self._lock:
            self._subscribers.discard(q)

    def close(self) -> None:
        """Ends every stream (server shutdown)."""
        with self._lock:
            subscribers = list(self._subscribers)
            self._subscribers.clear()
        for q in subscribers:
            try:
                q.put_nowait(None)
            except queue.Full:
                pass

    @property
    def listeners(self) -> int:
        with self._lock:
            return len(self._subscribers)


def sse_stream(bus: EventBus, first: list[tuple[str, Any]]) -> Iterator[str]:
    """The text/event-stream body: the `first` events, then everything published until the client leaves."""
    q = bus.subscribe()
    try:
        yield "retry: 2000\n\n"
        for name, data in first:
            yield _frame(name, json.dumps(data, ensure_ascii=False, separators=(",", ":")))
        while True:
            try:
                message = q.get(timeout=KEEPALIVE_S)
            except queue.Empty:
                yield ": keepalive\n\n"
                continue
            if message is None:
                return
            yield _frame(*message)
    finally:
        bus.unsubscribe(q)


def _frame(name: str, text: str) -> str:
    return f"event: {name}\ndata: {text}\n\n"
