"""How well enrollment works: enroll from photos, then identify other photos of the same deck or edition.

`python -m vision.enroll.evaluate [--quick]` prints one JSON object:
- `cards`: a deck in styles the card recogniser never saw, enrolled from one synthetic grid photo,
  identified on play scenes (any turn, other tables, overlap, blur, glare, JPEG) from outlines with
  3% corner noise and a random end first, as a detector gives them;
- `tiles`: an edition of our own colours enrolled from one grid photo, letter + rotation on boards
  (`tiles_other_decor`: the same with board tiles whose houses and dots differ from the enrolled copy's);
- `strijders`: the example catalog's cards rendered, enrolled from one photo each, found in scenes;
- `real_pinochle`: rank identity on the real photos in `../shared/data/real-cards-dev` (when present),
  enrolled from a few of them (boxes cropped, the card outline found inside the box).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.enroll import synthetic as sy
from vision.enroll.canon import jittered, turn_corners
from vision.enroll.deck import enroll_photos
from vision.enroll.edition import enroll_edition
from vision.enroll.grids import deck_grids, tile_grid
from vision.enroll.locate import largest_quad, portrait, quad_of_contour
from vision.enroll.matcher import Matcher
from vision.enroll.strijders import enroll_catalog
from vision.enroll.templates import Sample, build
from vision.tiles.catalog import canonical_rotation
from vision.tiles.styles import STYLES

ROOT = Path(__file__).resolve().parents[2]
REAL_CARDS = ROOT.parent / "shared" / "data" / "real-cards-dev"
CATALOG = ROOT / "datasets" / "strijders" / "catalog.json"
OUTLINE_NOISE = 0.03  # corner noise, fraction of the short side (what a detector's outline errs by)
MIN_VISIBLE = 0.9  # cards counted in a scene: at least this much of them shows
WIDTH_BINS: tuple[tuple[str, float], ...] = (("<60px", 60.0), ("60-90px", 90.0), (">=90px", float("inf")))


def _rate(ok: int, n: int) -> float:
    return round(ok / n, 4) if n else 0.0


def cards(style: int, seed: int, scenes: int, cards_per_scene: int = 12, grid: str = "one") -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    backs = (0, 1)
    layouts = ["two-a", "two-b"] if grid == "two" else ["one"]
    photos = [(sy.deck_photo(style, deck_grids(len(backs))[g], backs, rng).image, g) for g in layouts]
    start = time.perf_counter()
    profile, _ = enroll_photos("eval", photos, backs=len(backs), allow_missing=True)  # a card not found counts wrong
    enroll_s = time.perf_counter() - start
    matcher = Matcher(profile)
    ok = n = 0
    errors: Counter[str] = Counter()
    by_width: dict[str, list[int]] = {name: [0, 0] for name, _ in WIDTH_BINS}
    start = time.perf_counter()
    for _ in range(scenes):
        image, found = sy.play_scene(style, rng, cards_per_scene, backs=backs)
        keep = [(label, c) for label, c, visible in found if visible >= MIN_VISIBLE]
        outlines = np.stack([turn_corners(jittered(c, rng, OUTLINE_NOISE), 2 * int(rng.integers(2))) for _, c in keep])
        for (label, c), got in zip(keep, matcher.identify_many(image, outlines), strict=True):
            n += 1
            ok += got.label == label
            width = float(np.linalg.norm(c[1] - c[0]))
            tally = by_width[next(name for name, top in WIDTH_BINS if width < top)]
            tally[0] += got.label == label
            tally[1] += 1
            if got.label != label:
                errors[f"{label}->{got.label}"] += 1
    return {"style": style, "grid": grid, "not_enrolled": profile.manifest["missing"], "cards": n,
            "accuracy": _rate(ok, n),
            "accuracy_by_card_width": {k: {"cards": v[1], "accuracy": _rate(*v)} for k, v in by_width.items()},
            "enroll_s": round(enroll_s, 1), "ms_per_card": round(1000 * (time.perf_counter() - start) / max(n, 1), 1),
            "errors": dict(errors.most_common(8))}


OTHER_DECOR_PX = 160  # board tiles painted at this size get other houses and dots than the enrolled tiles


def tiles(style_name: str, seed: int, boards: int, tiles_per_board: int = 16,
          tile_px: int = sy.TILE_PX) -> dict[str, Any]:
    style = sy.AUTUMN if style_name == "autumn" else STYLES[style_name]
    rng = np.random.default_rng(seed)
    photo = sy.edition_photo(style, tile_grid(), rng)
    start = time.perf_counter()
    profile, _ = enroll_edition("eval", [photo.image], allow_missing=True)  # a tile not found counts as wrong
    enroll_s = time.perf_counter() - start
    matcher = Matcher(profile)
    ok = letter_ok = n = 0
    errors: Counter[str] = Counter()
    for _ in range(boards):
        image, found = sy.board_scene(style, rng, tiles_per_board, tile_px=tile_px)
        outlines = np.stack([jittered(c, rng, OUTLINE_NOISE) for _, _, c in found])
        for (letter, rotation, _), got in zip(found, matcher.identify_many(image, outlines), strict=True):
            n += 1
            same_letter = got.label == letter
            right = same_letter and canonical_rotation(letter, got.rotation) == canonical_rotation(letter, rotation)
            letter_ok += same_letter
            ok += right
            if not right:
                errors[f"{letter}@{rotation}->{got.label}@{got.rotation}"] += 1
    return {"edition": style_name, "decor": "same" if tile_px == sy.TILE_PX else "other",
            "not_enrolled": profile.manifest["missing"], "tiles": n,
            "letter_rotation": _rate(ok, n), "letter": _rate(letter_ok, n),
            "enroll_s": round(enroll_s, 1), "errors": dict(errors.most_common(8))}


def strijders(seed: int, scenes: int) -> dict[str, Any]:
    catalog = json.loads(CATALOG.read_text(encoding="utf-8"))["cards"]
    rng = np.random.default_rng(seed)
    shots = [(str(c["id"]), sy.strijders_photo(c, rng).image) for c in catalog]
    start = time.perf_counter()
    profile, _ = enroll_catalog("eval", shots, [str(c["id"]) for c in catalog])
    enroll_s = time.perf_counter() - start
    matcher = Matcher(profile)
    ok = n = 0
    errors: Counter[str] = Counter()
    for _ in range(scenes):
        picked = [catalog[i] for i in rng.choice(len(catalog), 5, replace=False)]
        image, found = sy.strijders_scene(picked, rng)
        outlines = np.stack([turn_corners(jittered(c, rng, OUTLINE_NOISE), 2 * int(rng.integers(2))) for _, c in found])
        for (card_id, _), got in zip(found, matcher.identify_many(image, outlines), strict=True):
            n += 1
            ok += got.label == card_id
            if got.label != card_id:
                errors[f"{card_id}->{got.label}"] += 1
    return {"catalog": len(catalog), "cards": n, "accuracy": _rate(ok, n), "enroll_s": round(enroll_s, 1),
            "errors": dict(errors.most_common(8))}


def real_boxes(folder: Path) -> list[tuple[str, str, tuple[int, int, int, int]]]:
    """(file, rank, box) per labelled card of the real photos."""
    with (folder / "labels.csv").open(encoding="utf-8") as f:
        return [(r["filename"], r["class"], (int(r["xmin"]), int(r["ymin"]), int(r["xmax"]), int(r["ymax"])))
                for r in csv.DictReader(f)]


def card_in_box(image: np.ndarray, box: tuple[int, int, int, int]) -> np.ndarray:
    """The card's own outline inside a labelled box (found as the largest quad), else the box itself."""
    x0, y0, x1, y1 = box
    pad = int(0.06 * max(x1 - x0, y1 - y0))
    h, w = image.shape[:2]
    cx0, cy0, cx1, cy1 = max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad)
    least = 0.45 * (x1 - x0) * (y1 - y0)
    crop = image[cy0:cy1, cx0:cx1]
    try:
        quad = largest_quad(crop) + np.array([cx0, cy0], np.float32)
        if cv2.contourArea(quad) > least:
            return portrait(quad)
    except LookupError:
        pass
    quad = _paper_quad(crop)
    if quad is not None and cv2.contourArea(quad) > least:
        return portrait(quad + np.array([cx0, cy0], np.float32))
    return portrait(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32))


def _paper_quad(crop: np.ndarray) -> np.ndarray | None:
    """The card as the bright, grey-white paper in the box (a textured carpet defeats the cloth model):
    Otsu on brightness less saturation, the largest blob, its corners or else its rotated rectangle."""
    hsv = cv2.cvtColor(cv2.GaussianBlur(crop, (5, 5), 0), cv2.COLOR_BGR2HSV).astype(np.float32)
    paper = np.clip(hsv[:, :, 2] - hsv[:, :, 1], 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(paper, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    k = max(3, int(0.04 * min(crop.shape[:2])) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    blob = max(contours, key=cv2.contourArea)
    quad = quad_of_contour(blob)
    return quad if quad is not None else cv2.boxPoints(cv2.minAreaRect(blob)).astype(np.float32)


def real_pinochle(folder: Path = REAL_CARDS, per_rank: int = 8, seed: int = 0) -> dict[str, Any] | None:
    """Rank identity on real photos: enroll `per_rank` boxes of each rank (from their own photos), test the rest."""
    if not (folder / "labels.csv").is_file():
        return None
    rows = real_boxes(folder)
    rng = np.random.default_rng(seed)
    files = sorted({f for f, _, _ in rows})
    rng.shuffle(files)
    by_rank: dict[str, list[int]] = {}
    for i, (_, rank, _) in enumerate(rows):
        by_rank.setdefault(rank, []).append(i)
    enroll_files: set[str] = set()
    for rank in sorted(by_rank):  # whole photos go to enrollment until each rank has per_rank boxes there
        for f in files:
            have = sum(1 for i in by_rank[rank] if rows[i][0] in enroll_files)
            if have >= per_rank:
                break
            if any(rows[i][0] == f for i in by_rank[rank]):
                enroll_files.add(f)
    images: dict[str, np.ndarray] = {}

    def image_of(name: str) -> np.ndarray:
        if name not in images:
            images[name] = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
        return images[name]

    samples = []
    for f, rank, box in rows:
        if f in enroll_files:
            img = image_of(f)
            samples.append(Sample(rank, img, card_in_box(img, box)))
    start = time.perf_counter()
    profile = build("real", "cards", samples, {"source": "real-cards-dev"})
    enroll_s = time.perf_counter() - start
    matcher = Matcher(profile)
    ok = n = 0
    errors: Counter[str] = Counter()
    for f, rank, box in rows:
        if f in enroll_files:
            continue
        img = image_of(f)
        got = matcher.identify(img, card_in_box(img, box))
        n += 1
        ok += got.label == rank
        if got.label != rank:
            errors[f"{rank}->{got.label}"] += 1
    return {"enrolled_boxes": len(samples), "enrolled_photos": len(enroll_files), "tested_boxes": n,
            "rank_accuracy": _rate(ok, n), "enroll_s": round(enroll_s, 1), "errors": dict(errors.most_common(8))}


def run(quick: bool) -> dict[str, Any]:
    scenes, boards = (6, 4) if quick else (40, 20)
    styles = sy.UNSEEN_STYLES[:1] if quick else sy.UNSEEN_STYLES
    out: dict[str, Any] = {"cards": [cards(s, 100 + i, scenes) for i, s in enumerate(styles)]}
    if not quick:
        out["cards_two_photos"] = cards(styles[0], 7, scenes // 2, grid="two")
    editions = ("autumn",) if quick else ("autumn", "pastel")
    out["tiles"] = [tiles(name, 200 + i, boards) for i, name in enumerate(editions)]
    if not quick:  # the harder test of earlier rounds: board tiles whose decor differs from the enrolled copy's
        out["tiles_other_decor"] = [tiles(name, 200 + i, boards, tile_px=OTHER_DECOR_PX)
                                    for i, name in enumerate(editions)]
    out["strijders"] = strijders(300, scenes)
    real = real_pinochle()
    if real is not None:
        out["real_pinochle"] = real
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.enroll.evaluate", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small run (about a minute)")
    parser.add_argument("--only", choices=("cards", "tiles", "strijders", "real"), help="one part only")
    args = parser.parse_args(argv)
    if args.only == "real":
        result: Any = real_pinochle()
    elif args.only:
        result = {"cards": lambda: cards(sy.UNSEEN_STYLES[0], 100, 6 if args.quick else 40),
                  "tiles": lambda: tiles("autumn", 200, 4 if args.quick else 20),
                  "strijders": lambda: strijders(300, 6 if args.quick else 40)}[args.only]()
    else:
        result = run(args.quick)
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
