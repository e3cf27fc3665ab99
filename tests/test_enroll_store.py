"""The profile store: names, save/load, the home folder, export and import as one .zip, bad archives."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from vision.enroll.store import HOME_ENV, Profile, ProfileError, ProfileStore, default_root


def _profile(name: str = "deck1") -> Profile:
    arrays = {"features": np.arange(12, dtype=np.float16).reshape(3, 4), "owner": np.array([0, 1, 1], np.int16)}
    images = {"preview": np.full((8, 10, 3), 200, np.uint8)}
    return Profile(name, "cards", {"labels": ["AS", "2S"], "created": "today"}, arrays, images)


def test_save_load_list_remove(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(_profile())
    assert store.names() == ["deck1"] and store.names("tiles") == []
    loaded = store.load("deck1")
    assert loaded.kind == "cards" and loaded.labels == ["AS", "2S"]
    assert np.array_equal(loaded.arrays["features"], _profile().arrays["features"])
    assert loaded.arrays["features"].dtype == np.float16
    assert loaded.images["preview"].shape == (8, 10, 3)
    assert store.summaries() == [{"name": "deck1", "kind": "cards", "labels": 2, "created": "today", "source": "",
                                  "missing": []}]
    with pytest.raises(ProfileError, match="exists"):
        store.save(_profile())
    store.remove("deck1")
    assert store.names() == []
    with pytest.raises(ProfileError, match="no profile named"):
        store.load("deck1")


def test_home_env_and_argument(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    assert default_root() == tmp_path / "home" / "profiles"
    ProfileStore().save(_profile())
    assert (tmp_path / "home" / "profiles" / "deck1" / "manifest.json").is_file()
    monkeypatch.delenv(HOME_ENV)
    assert default_root() == Path.home() / ".table-companion" / "profiles"
    assert ProfileStore(tmp_path / "other").root == tmp_path / "other"


@pytest.mark.parametrize("name", ["", "../x", "a/b", ".hidden", "x" * 65, "spaces here"])
def test_bad_names(tmp_path: Path, name: str) -> None:
    with pytest.raises(ProfileError, match="bad profile name"):
        ProfileStore(tmp_path).save(_profile(name))


def test_export_import_round_trip(tmp_path: Path) -> None:
    a, b = ProfileStore(tmp_path / "a"), ProfileStore(tmp_path / "b")
    a.save(_profile())
    data = a.export_zip("deck1", tmp_path / "deck1.zip")
    assert (tmp_path / "deck1.zip").read_bytes() == data
    assert b.import_zip(tmp_path / "deck1.zip") == "deck1"
    assert b.import_zip(data, name="copy") == "copy"
    assert np.array_equal(b.load("copy").arrays["owner"], np.array([0, 1, 1]))
    with pytest.raises(ProfileError, match="exists"):
        b.import_zip(data)
    assert b.import_zip(data, overwrite=True) == "deck1"


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, content in files.items():
            zf.writestr(name, content)
    return buf.getvalue()


@pytest.mark.parametrize(("files", "message"), [
    ({"x/readme.txt": b"hi"}, "no manifest.json"),
    ({"x/manifest.json": b"{nope"}, "not valid JSON"),
    ({"x/manifest.json": json.dumps({"kind": "chess"}).encode()}, "kind must be"),
    ({"../../evil/manifest.json": b"{}"}, "unexpected path"),
    ({"x/manifest.json": json.dumps({"kind": "cards", "name": "x", "arrays": ["features"]}).encode()},
     "lacks the array"),
    ({"x/manifest.json": json.dumps({"kind": "cards", "name": "x", "arrays": ["../up"]}).encode()}, "bad array"),
])
def test_import_refuses_bad_archives(tmp_path: Path, files: dict[str, bytes], message: str) -> None:
    with pytest.raises(ProfileError, match=message):
        ProfileStore(tmp_path).import_zip(_zip(files))
    assert ProfileStore(tmp_path).names() == []


def test_import_refuses_non_zip_and_pickles(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="not a zip"):
        ProfileStore(tmp_path).import_zip(b"plain text")
    buf = io.BytesIO()
    np.save(buf, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    manifest = json.dumps({"kind": "cards", "name": "p", "arrays": ["features"]}).encode()
    with pytest.raises(ProfileError, match="not a plain .npy"):
        ProfileStore(tmp_path).import_zip(_zip({"p/manifest.json": manifest, "p/features.npy": buf.getvalue()}))


def test_arrays_in_one_compressed_bundle_and_format_1_still_read(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    folder = store.save(_profile())
    assert sorted(f.name for f in folder.iterdir()) == ["arrays.npz", "manifest.json", "preview.png"]
    old = tmp_path / "old"  # a profile saved before the bundle: one .npy per array
    old.mkdir()
    manifest = {"name": "old", "kind": "cards", "format": 1, "labels": ["AS", "2S"], "arrays": ["features", "owner"]}
    (old / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    for key, arr in _profile().arrays.items():
        np.save(old / f"{key}.npy", arr)
    loaded = store.load("old")
    assert np.array_equal(loaded.arrays["owner"], np.array([0, 1, 1])) and loaded.arrays["features"].shape == (3, 4)
    assert ProfileStore(tmp_path / "b").import_zip(store.export_zip("old")) == "old"


def test_import_refuses_pickles_inside_the_bundle(tmp_path: Path) -> None:
    buf = io.BytesIO()
    np.savez(buf, features=np.array([{"a": 1}], dtype=object))
    manifest = json.dumps({"kind": "cards", "name": "p", "arrays": ["features"]}).encode()
    with pytest.raises(ProfileError, match="not a plain array"):
        ProfileStore(tmp_path).import_zip(_zip({"p/manifest.json": manifest, "p/arrays.npz": buf.getvalue()}))
    with pytest.raises(ProfileError, match="cannot read arrays.npz"):
        ProfileStore(tmp_path).import_zip(_zip({"p/manifest.json": manifest, "p/arrays.npz": b"junk"}))
    assert ProfileStore(tmp_path).names() == []
