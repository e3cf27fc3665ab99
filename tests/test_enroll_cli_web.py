"""`companion enroll ...` and the dashboard's enrollment pages, end to end on synthetic photos."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from companion.web_enroll import JOBS_KEY, enroll_bp
from vision.enroll import synthetic as sy
from vision.enroll.grids import deck_grids
from vision.enroll.store import ProfileStore

ROOT = Path(__file__).resolve().parents[1]
CATALOG = ROOT / "datasets" / "strijders" / "catalog.json"


def companion(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TABLE_COMPANION_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "companion", "enroll", *args], capture_output=True, text=True,
                          timeout=300, cwd=ROOT, env=env)


@pytest.fixture(scope="module")
def cards() -> list[dict[str, object]]:
    return json.loads(CATALOG.read_text(encoding="utf-8"))["cards"][:4]


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory, cards: list[dict[str, object]]) -> Path:
    folder = tmp_path_factory.mktemp("shots")
    rng = np.random.default_rng(0)
    for c in cards:
        cv2.imwrite(str(folder / f"{c['id']}.jpg"), sy.strijders_photo(c, rng, (600, 800)).image)
    return folder


def test_cli_strijders_list_export_import_remove(tmp_path: Path, shots: Path) -> None:
    home = tmp_path / "home"
    done = companion(home, "strijders", "ours", "--shots", str(shots), "--catalog", str(CATALOG))
    assert done.returncode == 0, done.stderr
    assert "enrolled strijders profile 'ours': 4 labels" in done.stdout and "no photo yet for" in done.stdout
    assert (home / "profiles" / "ours" / "manifest.json").is_file()
    again = companion(home, "strijders", "ours", "--shots", str(shots))
    assert again.returncode == 2 and "exists; add --force" in again.stderr and again.stdout == ""
    listed = companion(home, "list", "--json")
    assert [r["name"] for r in json.loads(listed.stdout)] == ["ours"]
    assert companion(home, "export", "ours", str(tmp_path / "ours.zip")).returncode == 0
    assert companion(home, "import", str(tmp_path / "ours.zip"), "--name", "copy").returncode == 0
    assert companion(home, "remove", "ours").returncode == 0
    assert [r["name"] for r in json.loads(companion(home, "list", "--json").stdout)] == ["copy"]
    found = companion(home, "identify", "copy", str(next(shots.iterdir())))
    assert found.returncode == 0 and json.loads(found.stdout)[0]["label"] == next(shots.iterdir()).stem


def test_cli_cards_from_a_grid_photo(tmp_path: Path) -> None:
    photo = sy.deck_photo(sy.UNSEEN_STYLES[2], deck_grids(1)["one"], (0,), np.random.default_rng(4))
    cv2.imwrite(str(tmp_path / "grid.jpg"), photo.image)
    done = companion(tmp_path, "cards", "deck", "--photo", str(tmp_path / "grid.jpg"))
    assert done.returncode == 0, done.stderr
    assert "53 labels" in done.stdout
    assert ProfileStore(tmp_path / "profiles").load("deck").manifest["missing"] == []


@pytest.mark.parametrize(("args", "message"), [
    (("remove", "nothing"), "no profile named 'nothing'"),
    (("cards", "x"), "give the deck as --photo"),
    (("cards", "x", "--photo", "/no/such.jpg"), "cannot read /no/such.jpg"),
    (("cards", "../bad", "--photo", "a.jpg"), "bad profile name"),
    (("export", "x", "out.txt"), "must end in .zip"),
    (("import", "/no/such.zip"), "cannot read"),
    (("strijders", "x", "--shots", "/no/such/folder"), "is not a folder"),
])
def test_cli_errors_exit_2(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    done = companion(tmp_path, *args)
    assert done.returncode == 2 and message in done.stderr and done.stdout == ""


@pytest.fixture()
def client(tmp_path: Path):  # noqa: ANN201 - flask test client
    app = Flask(__name__)
    app.config.update(ENROLL_HOME=str(tmp_path / "profiles"), MAX_CONTENT_LENGTH=64 * 1024)  # as the dashboard sets
    app.register_blueprint(enroll_bp)
    return app.test_client()


def test_pages_render(client) -> None:  # noqa: ANN001
    cards_page = client.get("/enroll/cards?backs=2").get_data(as_text=True)
    assert cards_page.count("<td class=\"back\">") == 2 and "Q<" not in cards_page and "K♠" in cards_page
    tiles_page = client.get("/enroll/tiles").get_data(as_text=True)
    assert tiles_page.count("/enroll/tile/") == 24
    png = client.get("/enroll/tile/D.png")
    assert png.status_code == 200 and cv2.imdecode(np.frombuffer(png.data, np.uint8), 1).shape == (96, 96, 3)
    assert client.get("/enroll/tile/Z.png").status_code == 404
    assert "catalog" in client.get("/enroll/strijders").get_data(as_text=True)
    assert client.get("/enroll").status_code == 200 and client.get("/enroll/api/profiles").json == []


def test_upload_strijders_then_export_import_remove(client, shots: Path) -> None:  # noqa: ANN001
    files = [(io.BytesIO(p.read_bytes()), p.name) for p in sorted(shots.iterdir())]
    catalog = (io.BytesIO(CATALOG.read_bytes()), "catalog.json")
    r = client.post("/enroll/api/strijders", data={"name": "web", "photo": files, "catalog": catalog},
                    content_type="multipart/form-data")
    assert r.status_code == 202, r.json  # the upload is bigger than the app's 64 KB limit: these routes allow more
    job = client.application.extensions[JOBS_KEY].wait(r.json["job"], 240)
    result = client.get(r.json["status_url"]).json["result"]
    assert job.state == "done" and result["labels"] == 4 and len(result["missing"]) == 20
    assert [p["name"] for p in client.get("/enroll/api/profiles").json] == ["web"]
    assert client.get("/enroll/api/profiles/web/preview.png").status_code == 200
    exported = client.get("/enroll/api/profiles/web/export")
    assert exported.status_code == 200 and exported.mimetype == "application/zip"
    r = client.post("/enroll/api/import", data={"file": (io.BytesIO(exported.data), "web.zip"), "name": "web2"},
                    content_type="multipart/form-data")
    assert r.json == {"imported": "web2"}
    assert client.post("/enroll/api/profiles/web/remove").json == {"removed": "web"}
    assert [p["name"] for p in client.get("/enroll/api/profiles").json] == ["web2"]


def test_upload_errors_are_json(client, shots: Path) -> None:  # noqa: ANN001
    r = client.post("/enroll/api/cards", data={"name": "x", "photo": (io.BytesIO(b"not an image"), "a.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and "not a picture" in r.json["error"]
    r = client.post("/enroll/api/cards", data={"name": "x", "backs": "9"}, content_type="multipart/form-data")
    assert r.status_code == 400 and "backs must be 1 to 4" in r.json["error"]
    r = client.post("/enroll/api/tiles", data={"name": "../x", "photo": (io.BytesIO(b"x"), "a.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 400
    r = client.post("/enroll/api/import", data={"file": (io.BytesIO(b"junk"), "a.zip")},
                    content_type="multipart/form-data")
    assert r.status_code == 400 and "not a zip" in r.json["error"]
    assert client.post("/enroll/api/profiles/none/remove").status_code == 400
