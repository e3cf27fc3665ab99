"""The live view: MJPEG stream and single snapshots."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, stream_with_context

from companion import mjpeg
from companion.live_view import LiveView

bp = Blueprint("live", __name__)


def _view() -> LiveView:
    return current_app.extensions["companion"]["view"]


@bp.get("/live.mjpg")
def stream() -> Response:
    view = _view()
    closing = current_app.extensions["companion"].get("closing")
    stop = closing.is_set if closing is not None else (lambda: False)
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(view.stream(stop)), mimetype=mjpeg.CONTENT_TYPE, headers=headers)


@bp.get("/live.jpg")
def snapshot() -> Response:
    _, data = _view().jpeg(0, timeout=0.0)
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})
