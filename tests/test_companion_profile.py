"""Deck profiles in the companion: `--profile` is checked before anything starts, the enrollment pages are linked."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli import main
from companion.recognisers import ProfileScoundrel, RecogniserUnavailable, load_profile
from companion.runtime import Companion, Config
from vision.enroll.store import Profile, ProfileError, ProfileStore


@pytest.fixture()
def companion(tmp_path: Path) -> Iterator[Companion]:
    c = Companion(Config(db=tmp_path / "c.db", port=0, setup={"deck": "full"}, recognise=False)).start()
    try:
        yield c
    finally:
        c.stop()


def _get(c: Companion, path: str) -> tuple[int, str]:
    with urllib.request.urlopen(f"http://127.0.0.1:{c.port}{path}", timeout=10) as resp:
        return resp.status, resp.read().decode("utf-8")


def test_the_dashboard_links_the_enrollment_pages(companion: Companion) -> None:
    status, page = _get(companion, "/")
    assert status == 200 and 'href="/enroll"' in page
    status, enroll = _get(companion, "/enroll")
    assert status == 200 and "Enrolled profiles" in enroll


def test_serve_refuses_an_unknown_profile_before_starting(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLE_COMPANION_HOME", str(tmp_path / "home"))
    code = main(["serve", "--source", str(tmp_path), "--profile", "my-deck", "--db", str(tmp_path / "c.db"),
                 "--port", "0", "--no-browser"])
    assert code == 2
    err = capsys.readouterr().err
    assert "companion serve: error:" in err and "my-deck" in err
    assert not (tmp_path / "c.db").exists()


def test_a_profile_is_found_by_name_or_by_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLE_COMPANION_HOME", str(tmp_path))
    store = ProfileStore()
    folder = store.save(Profile("tiles-only", "tiles", {"labels": ["A"]}))
    assert load_profile("tiles-only").kind == "tiles"
    assert load_profile(folder).name == "tiles-only"
    with pytest.raises(ProfileError):
        load_profile(tmp_path / "elsewhere")
    with pytest.raises(RecogniserUnavailable, match="not a deck of cards"):
        ProfileScoundrel("tiles-only")

