"""Who may call the dashboard and what a call may carry: token, origin, size, JSON shape; errors as JSON."""

from __future__ import annotations

import hmac
from typing import Any

from flask import Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.session import ActionError, Session
from engine.game import RecordError

COOKIE = "companion_token"


class BadRequest(Exception):
    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def session() -> Session:
    return current_app.extensions["companion"]["session"]


def install(app: Flask) -> None:
    app.before_request(_check_access)
    app.after_request(_remember_token)

    @app.errorhandler(BadRequest)
    def _bad(exc: BadRequest) -> tuple[Response, int]:
        return jsonify(error=str(exc)), exc.status

    @app.errorhandler(ActionError)
    def _action(exc: ActionError) -> tuple[Response, int]:
        return jsonify(error=str(exc)), exc.status

    @app.errorhandler(RecordError)
    def _record(exc: RecordError) -> tuple[Response, int]:
        return jsonify(error=str(exc), where=exc.where), 400

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> tuple[Response, int]:
        return jsonify(error=exc.description or exc.name), exc.code or 500


def _given_token() -> str:
    return request.args.get("token") or request.headers.get("X-Companion-Token") or request.cookies.get(COOKIE) or ""


def _check_access() -> tuple[Response, int] | None:
    token = current_app.config.get("COMPANION_TOKEN")
    if token and not hmac.compare_digest(_given_token().encode(), token.encode()):
        return jsonify(error="this dashboard needs its access token (printed when the companion started)"), 403
    if request.method == "POST":
        origin = request.headers.get("Origin")
        if origin and origin.rstrip("/") != request.host_url.rstrip("/"):
            return jsonify(error=f"requests from {origin} are not accepted"), 403
    return None


def _remember_token(response: Response) -> Response:
    token = current_app.config.get("COMPANION_TOKEN")
    if token and request.args.get("token") == token:
        response.set_cookie(COOKIE, token, httponly=True, samesite="Strict")
    return response


def body(fields: dict[str, tuple[type, ...]], required: tuple[str, ...] = ()) -> dict[str, Any]:
    """The request's JSON object, checked: only `fields`, each of its types, `required` present."""
    if not request.is_json:
        raise BadRequest("send a JSON object with Content-Type: application/json", 415)
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise BadRequest(f"unknown field(s) {unknown}; expected {sorted(fields)}")
    for name in required:
        if name not in data:
            raise BadRequest(f"missing field {name!r}")
    for name, value in data.items():
        kinds = fields[name]
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join("null" if k is type(None) else k.__name__ for k in kinds)
            raise BadRequest(f"field {name!r} must be {names}")
    return data
