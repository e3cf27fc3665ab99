"""The dashboard page itself."""

from __future__ import annotations

from flask import Blueprint, current_app, render_template

bp = Blueprint("pages", __name__, template_folder="templates", static_folder="static", static_url_path="/static")


@bp.get("/")
def index() -> str:
    return render_template("index.html", enroll=bool(current_app.extensions["companion"].get("enroll")))
