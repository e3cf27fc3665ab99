"""Detector labels from real photographs with rank-only boxes, mixed with synthetic scenes for fine-tuning.

    python -m vision.train.real_boxes ../shared/data/real-cards-dev /tmp/cards-synth /tmp/cards-mix

The real photos name whole-card boxes (axis-aligned, the visible part of a covered card). A box is turned
into a rotated card outline where the classical outline finder finds the card again (`MATCH_IOU`); else into
the rectangle round its paper (`outline.paper_rect`) where that rectangle is turned and its upright box is the
labelled box (a card lying turned inside it); else the box itself is the label. A card found whole and
overlapping no other box shows both printed indices, so its two index corners are labelled too. Only the
`tune` half is used; the `held-out` half stays an honest test. Images are linked, never copied: the photos
stay in ../shared/data.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import cv2
import numpy as np
import yaml

from vision.cards.geometry import (
    INDEX_BOX_MM,
    TURNS,
    card_to_image,
    portrait_corners,
    quad_bounds,
    rotate_corners,
    turned_onto,
)
from vision.cards.outline import paper_rect
from vision.real_photos import labelled_photos
from vision.synth.generate import DET_CLASSES, label_line

MATCH_IOU = 0.7  # an outline this close to a box is that card's outline
TURNED_DEG = 5.0  # a paper rectangle turned less than this adds nothing to the labelled box (its blob may take in
# a sliver of the card over it)
CARD, INDEX = DET_CLASSES.index("card"), DET_CLASSES.index("index")


def _box_quad(box: tuple[float, float, float, float]) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def _index_quads(outline: np.ndarray) -> list[np.ndarray]:
    """The two printed index corners of a whole outline (clockwise from a short side: corners 0 and 2)."""
    out = []
    for k in (0, 2):
        h = card_to_image(rotate_corners(outline, k))
        out.append(cv2.perspectiveTransform(INDEX_BOX_MM[None], h)[0])
    return out


def _paper_outline(image: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """A card the outline finder missed: its paper's rectangle where that is turned and fits the box, so that a
    card lying turned inside its upright box is labelled turned (real tune half: 13 of the 107 such boxes); else
    the box."""
    from vision.evaluate import box_iou

    quad = _box_quad(box)
    rect = paper_rect(image, quad)
    if rect is None:
        return quad
    angle = cv2.minAreaRect(rect)[2] % 90.0
    turned = min(angle, 90.0 - angle) > TURNED_DEG
    return rect if turned and box_iou(quad_bounds(rect), box) >= MATCH_IOU else quad


def photo_labels(image: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> list[tuple[int, np.ndarray]]:
    """(class, quad in px) for one photo."""
    from vision.evaluate import box_iou, outlined

    quads, matches = outlined(image, boxes, MATCH_IOU)
    labels: list[tuple[int, np.ndarray]] = []
    for i, (box, k) in enumerate(zip(boxes, matches, strict=True)):
        alone = all(box_iou(box, other) == 0.0 for j, other in enumerate(boxes) if j != i)
        if k is not None:
            outline = portrait_corners(quads[k])
            labels.append((CARD, outline))
            if alone:
                labels += [(INDEX, q) for q in _index_quads(outline)]
        else:
            labels.append((CARD, _paper_outline(image, box)))
    return labels


def write_real(folder: Path, out: Path, split: str = "tune", copies: int = 3, turns: tuple[int, ...] = ()) -> int:
    """Link each photo of `split` `copies` times (weights the few real photos against many synthetic ones), and
    write it once turned by each of `turns` (clockwise quarter turns, `TURNS`) with its labels turned alike: the
    photos were shot with their cards mostly upright, and a quarter turn keeps each label exact, where a turn by
    any angle would widen an upright box round a covered card's visible part (session 30's `--degrees 180`)."""
    img_dir, lbl_dir = out / "images" / "train", out / "labels" / "train"
    img_dir.mkdir(parents=True, exist_ok=True)
    lbl_dir.mkdir(parents=True, exist_ok=True)
    n = 0
    for image_path, image, names in labelled_photos(folder, split):
        labels = photo_labels(image, [b for _, b in names])
        text = _label_text(labels, image.shape)
        for k in range(copies):
            stem = f"real_{image_path.stem}_{k}"
            link = img_dir / f"{stem}{image_path.suffix.lower()}"
            if not link.exists():
                os.symlink(image_path.resolve(), link)
            (lbl_dir / f"{stem}.txt").write_text(text, encoding="utf-8")
        for deg in turns:
            turned = cv2.rotate(image, TURNS[deg])
            stem = f"real_{image_path.stem}_t{deg}"
            cv2.imwrite(str(img_dir / f"{stem}.png"), turned)
            quads = [(c, turned_onto(q, deg, image.shape)) for c, q in labels]
            (lbl_dir / f"{stem}.txt").write_text(_label_text(quads, turned.shape), encoding="utf-8")
        n += 1
    return n


def _label_text(labels: list[tuple[int, np.ndarray]], shape: tuple[int, ...]) -> str:
    h, w = shape[:2]
    return "\n".join(label_line(c, np.clip(q, 0, [w, h]), w, h) for c, q in labels) + "\n"


def link_synthetic(synth: Path, out: Path) -> int:
    """The synthetic scenes of a generated set (vision.synth.generate), linked into both splits."""
    n = 0
    for split in ("train", "val"):
        for sub in ("images", "labels"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
            for f in sorted((synth / sub / split).glob("*")):
                link = out / sub / split / f.name
                if not link.exists():
                    os.symlink(f.resolve(), link)
                n += sub == "images"
    return n


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("real", type=Path, help="folder of photos with VOC boxes")
    p.add_argument("synth", type=Path, help="a generated synthetic set (images/, labels/)")
    p.add_argument("out", type=Path)
    p.add_argument("--copies", type=int, default=3)
    p.add_argument("--turns", type=int, nargs="*", default=[], choices=sorted(TURNS),
                   help="also write each photo turned clockwise by these degrees, its labels turned alike")
    a = p.parse_args()
    real = write_real(a.real, a.out, copies=a.copies, turns=tuple(a.turns))
    synth = link_synthetic(a.synth, a.out)
    data = {"path": str(a.out.resolve()), "train": "images/train", "val": "images/val",
            "names": dict(enumerate(DET_CLASSES))}
    (a.out / "data.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    print(f"{real} real photos x {a.copies}, {synth} synthetic scenes -> {a.out / 'data.yaml'}")


if __name__ == "__main__":
    main()
