"""The JSON API: state, record, events (SSE) and the player's actions. Every POST is validated."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, stream_with_context

from companion.bus import sse_stream
from companion.web.guard import BadRequest, body, session

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/state")
def state() -> Response:
    """The JSON `companion replay` prints for the current game, plus the source status."""
    return jsonify(session().api_state())


@bp.get("/record")
def record() -> Response:
    return jsonify(session().record())


@bp.get("/session")
def snapshot() -> Response:
    return jsonify(session().snapshot())


@bp.get("/games")
def games() -> Response:
    return jsonify(session().store.games())


@bp.get("/games/<int:game_id>/record")
def game_record(game_id: int) -> Response:
    return jsonify(session().record_of(game_id))


@bp.get("/events")
def events() -> Response:
    s = session()
    stream = sse_stream(s.bus, [("state", s.snapshot())])
    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream), mimetype="text/event-stream", headers=headers)


@bp.post("/new-game")
def new_game() -> tuple[Response, int]:
    data = body({"game": (str,), "options": (dict,), "setup": (dict,)}, required=("game",))
    game_id = session().new_game(data["game"], data.get("options", {}), data.get("setup", {}))
    return jsonify(game_id=game_id, state=session().api_state()), 201


@bp.post("/move")
def move() -> Response:
    data = body({"move": (str, list, dict)}, required=("move",))
    violation = session().play(data["move"])
    return jsonify(violation=violation, state=session().api_state())


@bp.post("/undo")
def undo() -> Response:
    body({})
    return jsonify(undone=session().undo(), state=session().api_state())


@bp.post("/confirm")
def confirm() -> Response:
    data = body({"option": (int,)}, required=("option",))
    return jsonify(moves=session().confirm(data["option"]), state=session().api_state())


@bp.post("/correct")
def correct() -> Response:
    data = body({"zone": (str,), "index": (int,), "code": (str,)}, required=("zone", "index", "code"))
    verdict = session().correct(data["zone"], data["index"], data["code"])
    return jsonify(verdict=verdict, state=session().api_state())


@bp.post("/dismiss")
def dismiss() -> Response:
    body({})
    session().dismiss()
    return jsonify(state=session().api_state())


@bp.post("/calibration")
def calibration() -> Response:
    data = body({"corners": (list, type(None))}, required=("corners",))
    corners = data["corners"]
    if corners is not None:
        corners = _corners(corners)
    session().calibrate(corners)
    return jsonify(play_area=corners)


def _corners(value: Any) -> list[list[float]]:
    """Four [x, y] points as fractions (0..1) of the image."""
    ok = isinstance(value, list) and len(value) == 4 and all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, int | float) and not isinstance(v, bool)
                                                     and 0 <= v <= 1 for v in p) for p in value)
    if not ok:
        raise BadRequest("corners must be four [x, y] points with 0 <= x, y <= 1, or null")
    return [[float(x), float(y)] for x, y in value]
