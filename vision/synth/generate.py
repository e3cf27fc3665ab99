"""Write a synthetic data set from a config (datasets/cards/*.yaml): YOLO-OBB scenes, index crops and face crops.

    python -m vision.synth.generate datasets/cards/synth.yaml OUT_DIR [--shard K --shards N]

Detector classes: 0 face-up card (whole outline), 1 face-down card, 2 index corner. A card is labelled
only when enough of it shows (`min_card_visible`), an index only when nearly all of it shows. Index
crops (for the classifier) are cut through slightly wrong outlines, as the detector will give them;
crops of covered or upside-down corners are labelled "none". Face crops (the whole card, for the face
reader) are cut the same way; mostly covered faces, backs and card-sized quads off the cards are labelled "none".
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import yaml

from vision.cards.geometry import (
    CARD_H_MM,
    CARD_W_MM,
    FACE_H,
    FACE_W,
    face_crop,
    index_crop,
    pairwise_iou,
    portrait_corners,
    rotate_corners,
)
from vision.cards.labels import CROP_CLASSES, NONE_CLASS
from vision.synth import court_art
from vision.synth.cards import BIG_INDEX
from vision.synth.layouts import LAYOUTS
from vision.synth.scene import CardTruth, compose

DET_CLASSES: tuple[str, ...] = ("card", "back", "index")


def load_config(path: str | Path) -> dict[str, Any]:
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def make_scene(cfg: dict[str, Any], rng: np.random.Generator) -> tuple[np.ndarray, list[CardTruth], dict]:
    """One scene as the config's mix of layouts, sizes, styles and hands asks."""
    names = list(cfg["layouts"])
    weights = np.array([cfg["layouts"][n] for n in names], np.float64)
    name = names[int(rng.choice(len(names), p=weights / weights.sum()))]
    style = 0 if rng.random() < cfg.get("style0_share", 0.2) else int(rng.integers(1, cfg.get("styles", 200)))
    if style and cfg.get("big_index_share", 0.0) and rng.random() < cfg["big_index_share"]:
        style += BIG_INDEX
    if style and cfg.get("court_art_share", 0.0) and rng.random() < cfg["court_art_share"]:
        style += court_art.COURT_ART  # printed court pictures
    placements, truth = LAYOUTS[name](rng, style=style)
    sizes = cfg.get("sizes", [[1280, 720]])
    size = tuple(sizes[int(rng.integers(len(sizes)))])
    hands = int(rng.random() < cfg.get("hand_share", 0.3))
    fill = tuple(cfg.get("fill", [0.5, 0.95]))
    image, truths, _ = compose(placements, rng, size, hands=hands, max_tilt=cfg.get("max_tilt", 0.45), fill=fill)
    return image, truths, truth


def obb_lines(truths: list[CardTruth], shape: tuple[int, int], cfg: dict[str, Any]) -> list[str]:
    """YOLO-OBB label lines: class and four normalised corners."""
    h, w = shape
    lines = []
    for t in truths:
        if t.visible >= cfg.get("min_card_visible", 0.45):
            lines.append(label_line(0 if t.code != "back" else 1, t.corners, w, h))
        for quad, vis in zip(t.index_quads, t.index_visible, strict=True):
            if vis >= cfg.get("min_index_visible", 0.85):
                lines.append(label_line(2, quad, w, h))
    return lines


def label_line(cls: int, quad: np.ndarray, w: int, h: int) -> str:
    """One YOLO-OBB label: class and four corners normalised by the image size (clipped when well outside)."""
    q = np.asarray(quad, np.float64) / [w, h]
    if (q < -0.02).any() or (q > 1.02).any():
        q = q.clip(0, 1)
    return f"{cls} " + " ".join(f"{v:.5f}" for v in q.reshape(-1))


def crops_of(image: np.ndarray, truths: list[CardTruth], rng: np.random.Generator,
             per_scene: int, jitter: float, zooms: tuple[float, ...] = (1.0,)) -> tuple[list[np.ndarray], list[int]]:
    """Index crops with labels: readable corners -> their card, covered or turned corners -> none. Each card is
    cut at one of `zooms`, as `identity` reads an unsure card at each (ZOOMS)."""
    crops, labels = [], []
    order = rng.permutation(len(truths))
    for i in order[:per_scene]:
        t = truths[i]
        side = float(np.linalg.norm(t.corners[1] - t.corners[0]))
        if side < 14:
            continue
        noisy = t.corners + rng.normal(0, jitter * side, (4, 2)).astype(np.float32)
        zoom = zooms[int(rng.integers(len(zooms)))] if len(zooms) > 1 else zooms[0]
        for k in (0, 2):  # the two printed indices
            idx = k // 2
            corners = rotate_corners(noisy, k)
            if t.code == "back":
                label = NONE_CLASS
            elif idx < len(t.index_visible) and t.index_visible[idx] >= 0.9:
                label = CROP_CLASSES.index(t.code)
            elif idx < len(t.index_visible) and t.index_visible[idx] < 0.4:
                label = NONE_CLASS
            else:
                continue
            crops.append(index_crop(image, corners, zoom))
            labels.append(label)
        if rng.random() < 0.3:  # a turned reading (upside-down index) must say none
            crops.append(index_crop(image, rotate_corners(noisy, 1 + 2 * int(rng.integers(2))), zoom))
            labels.append(NONE_CLASS if t.code != "JOKER" else CROP_CLASSES.index("JOKER"))
    return crops, labels


def faces_of(image: np.ndarray, truths: list[CardTruth], rng: np.random.Generator, per_scene: int, jitter: float,
             size: tuple[int, int] = (FACE_W, FACE_H), least_shown: float = 0.8) -> tuple[list[np.ndarray], list[int]]:
    """Whole-face crops of `size` (w, h) with labels, each turned by 0 or 180 degrees at random (a face is read
    whichever way up it lies): a face that shows `least_shown` of itself or more -> its card, a mostly covered one
    or a back -> none (faces in between are not cut)."""
    crops, labels = [], []
    for i in rng.permutation(len(truths))[:per_scene]:
        t = truths[i]
        side = float(np.linalg.norm(t.corners[1] - t.corners[0]))
        if side < 14:
            continue
        if t.code == "back" or t.visible < 0.35:
            label = NONE_CLASS
        elif t.visible >= least_shown:
            label = CROP_CLASSES.index(t.code)
        else:
            continue
        noisy = t.corners + rng.normal(0, jitter * side, (4, 2)).astype(np.float32)
        crops.append(face_crop(image, rotate_corners(noisy, 2 * int(rng.integers(2))), size))
        labels.append(label)
    for quad in stray_quads(truths, image.shape[:2], rng, per_scene // 5):
        crops.append(face_crop(image, quad, size))
        labels.append(NONE_CLASS)
    return crops, labels


def stray_quads(truths: list[CardTruth], shape: tuple[int, int], rng: np.random.Generator,
                count: int) -> list[np.ndarray]:
    """Card-sized quads that hold no card (table, hands, the edges of cards, the gap between two): what a
    wrong outline shows the face reader, which must then say none."""
    if not truths:
        return []
    cards = np.array([t.corners for t in truths], np.float32)
    side = float(np.median(np.linalg.norm(cards[:, 1] - cards[:, 0], axis=1)))
    out = []
    for _ in range(count * 3):
        w = side * rng.uniform(0.7, 1.3)
        centre = rng.uniform((0, 0), (shape[1], shape[0]))
        angle = float(np.degrees(rng.uniform(0, np.pi)))
        quad = portrait_corners(cv2.boxPoints(((float(centre[0]), float(centre[1])), (w, w * CARD_H_MM / CARD_W_MM),
                                               angle)))
        if pairwise_iou(quad[None], cards).max() < 0.25:
            out.append(quad)
        if len(out) == count:
            break
    return out


def generate(cfg: dict[str, Any], out: Path, split: str, count: int, seed: int) -> dict[str, int]:
    """Write `count` scenes of one split; returns counts of what was written."""
    rng = np.random.default_rng(seed)
    img_dir, lbl_dir = out / "images" / split, out / "labels" / split
    img_dir.mkdir(parents=True, exist_ok=True)
    lbl_dir.mkdir(parents=True, exist_ok=True)
    crops: list[np.ndarray] = []
    labels: list[int] = []
    faces: list[np.ndarray] = []
    face_labels: list[int] = []
    boxes = 0
    long_side = cfg.get("det_long_side", 640)
    for n in range(count):
        image, truths, _ = make_scene(cfg, rng)
        c, lab = crops_of(image, truths, rng, cfg.get("crops_per_scene", 10), cfg.get("corner_jitter", 0.015),
                          tuple(cfg.get("crop_zooms", [1.0])))
        crops += c
        labels += lab
        c, lab = faces_of(image, truths, rng, cfg.get("faces_per_scene", 20), cfg.get("corner_jitter", 0.015),
                          tuple(cfg.get("face_size", (FACE_W, FACE_H))), cfg.get("face_least_shown", 0.8))
        faces += c
        face_labels += lab
        lines = obb_lines(truths, image.shape[:2], cfg)
        boxes += len(lines)
        scale = long_side / max(image.shape[:2])
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        stem = f"{split}_{seed}_{n:05d}"
        cv2.imwrite(str(img_dir / f"{stem}.jpg"), small, [cv2.IMWRITE_JPEG_QUALITY, 92])
        (lbl_dir / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
    np.savez_compressed(out / f"crops_{split}_{seed}.npz", x=np.array(crops, np.uint8), y=np.array(labels, np.int16))
    np.savez_compressed(out / f"faces_{split}_{seed}.npz", x=np.array(faces, np.uint8),
                        y=np.array(face_labels, np.int16))
    return {"scenes": count, "boxes": boxes, "crops": len(crops), "faces": len(faces)}


def write_data_yaml(out: Path) -> None:
    text = {"path": str(out.resolve()), "train": "images/train", "val": "images/val",
            "names": dict(enumerate(DET_CLASSES))}
    (out / "data.yaml").write_text(yaml.safe_dump(text), encoding="utf-8")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("config")
    p.add_argument("out")
    p.add_argument("--shard", type=int, default=0)
    p.add_argument("--shards", type=int, default=1)
    a = p.parse_args()
    cfg = load_config(a.config)
    if cfg.get("court_art"):
        court_art.use(cfg["court_art"])
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    write_data_yaml(out)
    for split in ("train", "val"):
        total = int(cfg["scenes"][split])
        share = total // a.shards + (1 if a.shard < total % a.shards else 0)
        seed = int(cfg["seed"]) * 1000 + (0 if split == "train" else 500) + a.shard
        print(json.dumps({split: generate(cfg, out, split, share, seed)}), flush=True)


if __name__ == "__main__":
    main()
