"""The dashboard: a Flask application factory and its blueprints (pages, API, live view)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from companion.live_view import LiveView
from companion.session import Session
from companion.web import api, guard, live, pages

MAX_REQUEST_BYTES = 64 * 1024


def create_app(session: Session, view: LiveView, token: str | None = None, **extra: Any) -> Flask:
    """One app per companion run; `token` is required on every request when set (non-loopback hosts)."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_REQUEST_BYTES, COMPANION_TOKEN=token, JSON_SORT_KEYS=False, **extra)
    app.extensions["companion"] = {"session": session, "view": view}
    guard.install(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(live.bp)
    _register_enrollment(app)
    return app


def _register_enrollment(app: Flask) -> None:
    """The enrollment pages (teach the companion your own deck), where that package is installed."""
    try:
        from companion.web_enroll import enroll_bp
    except ImportError:
        return
    app.register_blueprint(enroll_bp)
    app.extensions["companion"]["enroll"] = True
