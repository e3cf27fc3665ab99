"""Real photographs with Pascal-VOC boxes of whole cards and rank-only names (`nine` .. `ace`), as in
../shared/data/real-cards-dev: listing, a fixed split into a tuning half and a held-out half, annotations.
Kept free of the synthetic generator so the runtime CLI can import it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

RANK_NAMES: dict[str, str] = {"ace": "A", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                              "seven": "7", "eight": "8", "nine": "9", "ten": "10", "jack": "J", "queen": "Q",
                              "king": "K"}


def read_voc(path: Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(name, (x0, y0, x1, y1)) per object of a VOC annotation."""
    root = ET.parse(path).getroot()
    out = []
    for obj in root.iter("object"):
        box = obj.find("bndbox")
        if box is None:
            continue
        coords = tuple(float(box.findtext(k, "0")) for k in ("xmin", "ymin", "xmax", "ymax"))
        out.append((obj.findtext("name", "").strip().lower(), coords))
    return out  # type: ignore[return-value]


SPLITS = ("all", "tune", "held-out")
SUITS = "CDHS"
UNSURE_SUIT = "?"
SUITS_FILE = Path(__file__).resolve().parents[1] / "datasets" / "cards" / "real-suits.json"


def read_suits(path: Path = SUITS_FILE) -> dict[str, str]:
    """Photo name -> one suit letter per VOC object, in file order (`?`: not shown). The photos name ranks only,
    and a referee needs the suit too: these were read off both halves by eye (`datasets/cards/real-suits.json`)."""
    import json

    try:
        suits = json.loads(path.read_text(encoding="utf-8"))["suits"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not a suits file ({exc})") from None
    for name, letters in suits.items():
        if not isinstance(letters, str) or set(letters) - set(SUITS + UNSURE_SUIT):
            raise ValueError(f"{path}: {name}: suits must be a string of {SUITS} or {UNSURE_SUIT}, got {letters!r}")
    return suits


def photo_suits(name: str, cards: int, suits: dict[str, str] | None) -> str:
    """One suit letter per labelled card of photo `name` (`read_suits`); `?` for each where none is known."""
    letters = (suits or {}).get(name)
    if letters is None:
        return UNSURE_SUIT * cards
    if len(letters) != cards:
        raise ValueError(f"{name}: {len(letters)} suits for {cards} labelled cards")
    return letters


def real_images(folder: Path, split: str = "all") -> list[tuple[Path, Path]]:
    """(image, annotation) pairs, sorted. `tune` (even positions) may be used for fine-tuning; `held-out` (odd
    positions) never is, so figures on it are honest."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}: use one of {', '.join(SPLITS)}")
    pairs = []
    for xml in sorted(folder.glob("*.xml")):
        image = next((p for p in (xml.with_suffix(s) for s in (".JPG", ".jpg", ".jpeg", ".png")) if p.exists()), None)
        if image is not None:
            pairs.append((image, xml))
    return pairs if split == "all" else pairs[SPLITS.index(split) - 1::2]


Box = tuple[float, float, float, float]


def labelled_photos(folder: Path, split: str = "all",
                    limit: int | None = None) -> Iterator[tuple[Path, np.ndarray, list[tuple[str, Box]]]]:
    """(path, BGR image, VOC labels) of each readable photo of `split` (the first `limit`); an unreadable one is
    skipped."""
    for image_path, xml in real_images(folder, split)[:limit]:
        image = cv2.imread(str(image_path))
        if image is not None:
            yield image_path, image, read_voc(xml)
