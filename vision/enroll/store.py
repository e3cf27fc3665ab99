"""Named profiles on disk: one folder each, a JSON manifest, the arrays (one compressed `arrays.npz`;
profiles of format 1 kept one `.npy` per array, still read) and a preview (.png).

The store lives in `~/.table-companion/profiles/` unless `TABLE_COMPANION_HOME` (or a `root`
argument) says otherwise, so what a player taught survives restarts and can travel as one .zip.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import tempfile
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

HOME_ENV = "TABLE_COMPANION_HOME"
MANIFEST = "manifest.json"
KINDS: tuple[str, ...] = ("cards", "tiles", "strijders")
NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
FORMAT_VERSION = 2  # 2: arrays in one compressed arrays.npz; 1: one .npy per array
ARRAYS_FILE = "arrays.npz"
# Import limits: a profile is a few MB; refuse archives that would unpack to much more.
MAX_MEMBERS = 64
MAX_UNPACKED_BYTES = 200 * 1024 * 1024
ARRAY_SUFFIX, IMAGE_SUFFIX = ".npy", ".png"


class ProfileError(ValueError):
    """A profile that cannot be found, read, written or imported; the message is for the player."""


@dataclass
class Profile:
    """What one enrollment learned: labels of the templates, their arrays, and free-form facts."""

    name: str
    kind: str
    manifest: dict[str, Any] = field(default_factory=dict)
    arrays: dict[str, np.ndarray] = field(default_factory=dict)
    images: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def labels(self) -> list[str]:
        return list(self.manifest.get("labels", []))


def default_root() -> Path:
    """Where profiles live: `$TABLE_COMPANION_HOME/profiles` or `~/.table-companion/profiles`."""
    home = os.environ.get(HOME_ENV)
    base = Path(home).expanduser() if home else Path.home() / ".table-companion"
    return base / "profiles"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_PATTERN.match(name) or name in (".", ".."):
        raise ProfileError(f"bad profile name {name!r}: use 1-64 letters, digits, '-', '_' or '.', "
                           "starting with a letter or digit")
    return name


class ProfileStore:
    """The profile folder. Every write goes to a temporary folder first, then is renamed into place."""

    def __init__(self, root: str | Path | None = None) -> None:
        self.root = Path(root).expanduser() if root is not None else default_root()

    def path(self, name: str) -> Path:
        return self.root / check_name(name)

    def names(self, kind: str | None = None) -> list[str]:
        if not self.root.is_dir():
            return []
        found = []
        for child in sorted(self.root.iterdir()):
            if not (child / MANIFEST).is_file() or not NAME_PATTERN.match(child.name):
                continue
            if kind is None or self.manifest(child.name).get("kind") == kind:
                found.append(child.name)
        return found

    def exists(self, name: str) -> bool:
        return (self.path(name) / MANIFEST).is_file()

    def manifest(self, name: str) -> dict[str, Any]:
        path = self.path(name) / MANIFEST
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ProfileError(f"no profile named {name!r} in {self.root}") from None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ProfileError(f"profile {name!r} has an unreadable manifest: {exc}") from None
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise ProfileError(f"profile {name!r}: manifest must be an object with kind one of {', '.join(KINDS)}")
        return data

    def summaries(self) -> list[dict[str, Any]]:
        """One line of facts per profile, for `companion enroll list` and the dashboard."""
        out = []
        for name in self.names():
            m = self.manifest(name)
            out.append({"name": name, "kind": m["kind"], "labels": len(m.get("labels", [])),
                        "created": m.get("created", ""), "source": m.get("source", ""),
                        "missing": m.get("missing", [])})
        return out

    def save(self, profile: Profile, overwrite: bool = False) -> Path:
        check_name(profile.name)
        if profile.kind not in KINDS:
            raise ProfileError(f"unknown profile kind {profile.kind!r}")
        target = self.path(profile.name)
        if target.exists() and not overwrite:
            raise ProfileError(f"a profile named {profile.name!r} exists; remove it or choose another name")
        self.root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{profile.name}-", dir=self.root))
        try:
            manifest = {**profile.manifest, "name": profile.name, "kind": profile.kind, "format": FORMAT_VERSION,
                        "arrays": sorted(profile.arrays), "images": sorted(profile.images)}
            (tmp / MANIFEST).write_text(json.dumps(manifest, indent=1, ensure_ascii=False), encoding="utf-8")
            np.savez_compressed(tmp / ARRAYS_FILE, **{_file_key(k): a for k, a in profile.arrays.items()})
            for key, img in profile.images.items():
                if not cv2.imwrite(str(tmp / f"{_file_key(key)}{IMAGE_SUFFIX}"), img):
                    raise ProfileError(f"cannot write image {key!r}")
            if target.exists():
                shutil.rmtree(target)
            tmp.rename(target)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
        return target

    def load(self, name: str) -> Profile:
        manifest = self.manifest(name)
        folder = self.path(name)
        arrays, images = {}, {}
        packed = _open_npz(folder / ARRAYS_FILE, name) if (folder / ARRAYS_FILE).is_file() else None
        for key in manifest.get("arrays", []):
            try:
                if packed is not None:
                    arrays[key] = packed[_file_key(key)]
                else:
                    arrays[key] = np.load(folder / f"{_file_key(key)}{ARRAY_SUFFIX}", allow_pickle=False)
            except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
                raise ProfileError(f"profile {name!r}: cannot read array {key!r}: {exc}") from None
        for key in manifest.get("images", []):
            img = cv2.imread(str(folder / f"{_file_key(key)}{IMAGE_SUFFIX}"), cv2.IMREAD_COLOR)
            if img is not None:
                images[key] = img
        return Profile(name, manifest["kind"], manifest, arrays, images)

    def remove(self, name: str) -> None:
        folder = self.path(name)
        if not (folder / MANIFEST).is_file():
            raise ProfileError(f"no profile named {name!r} in {self.root}")
        shutil.rmtree(folder)

    def export_zip(self, name: str, dest: str | Path | None = None) -> bytes:
        """The profile as one .zip (its folder's files under `NAME/`); written to `dest` when given."""
        self.manifest(name)
        folder = self.path(name)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for item in sorted(folder.iterdir()):
                if item.is_file():
                    zf.write(item, f"{name}/{item.name}")
        data = buf.getvalue()
        if dest is not None:
            Path(dest).write_bytes(data)
        return data

    def import_zip(self, source: str | Path | bytes, name: str | None = None, overwrite: bool = False) -> str:
        """Unpack an exported profile (optionally under another name); returns the name it got."""
        raw = source if isinstance(source, bytes) else _read_bytes(Path(source))
        try:
            zf = zipfile.ZipFile(io.BytesIO(raw))
        except zipfile.BadZipFile:
            raise ProfileError("not a zip file") from None
        with zf:
            files = _checked_members(zf)
            manifest = _read_manifest(zf, files)
            new_name = check_name(name or str(manifest.get("name", "")))
            packed = files.get(ARRAYS_FILE)
            if packed is not None:
                if packed.file_size > MAX_UNPACKED_BYTES:
                    raise ProfileError(f"{ARRAYS_FILE} is too large; not a profile")
                bundle = _open_npz(io.BytesIO(zf.read(packed)), str(manifest.get("name", "")))
                arrays = {k: _npz_array(bundle, k) for k in manifest.get("arrays", [])}
            else:
                arrays = {k: _zip_array(zf, files, k) for k in manifest.get("arrays", [])}
            images = {k: _zip_image(zf, files, k) for k in manifest.get("images", [])}
        manifest = {k: v for k, v in manifest.items() if k not in ("arrays", "images")}
        self.save(Profile(new_name, manifest["kind"], manifest, arrays, images), overwrite=overwrite)
        return new_name


def _file_key(key: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9_.-]{1,64}", key) or key.startswith("."):
        raise ProfileError(f"bad array or image key {key!r}")
    return key


def _open_npz(source: Path | io.BytesIO, name: str) -> Any:
    """The arrays bundle, refused when it would unpack to more than a profile can hold."""
    try:
        bundle = np.load(source, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile) as exc:
        raise ProfileError(f"profile {name!r}: cannot read {ARRAYS_FILE}: {exc}") from None
    if not isinstance(bundle, np.lib.npyio.NpzFile):
        raise ProfileError(f"profile {name!r}: {ARRAYS_FILE} is not an .npz bundle")
    if sum(i.file_size for i in bundle.zip.infolist()) > MAX_UNPACKED_BYTES:
        raise ProfileError(f"profile {name!r}: {ARRAYS_FILE} unpacks to more than 200 MB; not a profile")
    return bundle


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise ProfileError(f"cannot read {path}: {exc.strerror or exc}") from None


def _checked_members(zf: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """Base name -> member; refuses too many members, too much data and nested folders."""
    infos = [i for i in zf.infolist() if not i.is_dir()]
    if len(infos) > MAX_MEMBERS:
        raise ProfileError(f"the archive holds {len(infos)} files; a profile has at most {MAX_MEMBERS}")
    if sum(i.file_size for i in infos) > MAX_UNPACKED_BYTES:
        raise ProfileError("the archive unpacks to more than 200 MB; not a profile")
    files: dict[str, zipfile.ZipInfo] = {}
    for info in infos:
        parts = [p for p in info.filename.replace("\\", "/").split("/") if p]
        if len(parts) > 2 or any(p in ("..", ".") for p in parts):
            raise ProfileError(f"unexpected path in the archive: {info.filename!r}")
        files[parts[-1]] = info
    return files


def _read_manifest(zf: zipfile.ZipFile, files: dict[str, zipfile.ZipInfo]) -> dict[str, Any]:
    if MANIFEST not in files:
        raise ProfileError(f"the archive has no {MANIFEST}; not an exported profile")
    try:
        manifest = json.loads(zf.read(files[MANIFEST]).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProfileError(f"{MANIFEST} is not valid JSON: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("kind") not in KINDS:
        raise ProfileError(f"{MANIFEST}: kind must be one of {', '.join(KINDS)}")
    for key in ("arrays", "images"):
        if not isinstance(manifest.get(key, []), list):
            raise ProfileError(f"{MANIFEST}: {key} must be a list")
    return manifest


def _zip_array(zf: zipfile.ZipFile, files: dict[str, zipfile.ZipInfo], key: str) -> np.ndarray:
    member = files.get(f"{_file_key(key)}{ARRAY_SUFFIX}")
    if member is None:
        raise ProfileError(f"the archive lacks the array {key!r} its manifest names")
    try:
        return np.load(io.BytesIO(zf.read(member)), allow_pickle=False)
    except ValueError as exc:
        raise ProfileError(f"array {key!r} is not a plain .npy array: {exc}") from None


def _npz_array(bundle: Any, key: str) -> np.ndarray:
    try:
        return bundle[_file_key(key)]
    except KeyError:
        raise ProfileError(f"{ARRAYS_FILE} lacks the array {key!r} its manifest names") from None
    except ValueError as exc:
        raise ProfileError(f"array {key!r} is not a plain array: {exc}") from None


def _zip_image(zf: zipfile.ZipFile, files: dict[str, zipfile.ZipInfo], key: str) -> np.ndarray:
    member = files.get(f"{_file_key(key)}{IMAGE_SUFFIX}")
    if member is None:
        raise ProfileError(f"the archive lacks the image {key!r} its manifest names")
    img = cv2.imdecode(np.frombuffer(zf.read(member), np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise ProfileError(f"image {key!r} is not a PNG")
    return img
