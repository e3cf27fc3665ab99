"""Measure the card recogniser: real photographs (whole-card recall at IoU 0.5, rank accuracy) and held-out
synthetic scenes (card error, whole layout exactly right).

Real photos: a folder of images with Pascal-VOC .xml boxes of whole cards and rank-only names
(`nine` .. `ace`), as in ../shared/data/real-cards-dev. A box is found when some predicted card's
axis-aligned bounds, cut to the picture as the labels are, overlap it at IoU >= 0.5; its rank is right when that
card's code has the rank. A card found but unread ("?") counts as found, never as read right. Where a photo's
suits are known (`datasets/cards/real-suits.json`: both halves, read off by eye), its found cards are also scored on
the whole code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision import degrade
from vision.cards.geometry import TURNS, pairwise_iou, quad_bounds, quad_iou, turned_back
from vision.cards.labels import UNREAD
from vision.detections import CardDetections
from vision.homography import table_homography
from vision.layout import scoundrel_zones, superheld_map
from vision.real_photos import RANK_NAMES, UNSURE_SUIT, labelled_photos, photo_suits
from vision.synth.cards import face_style
from vision.synth.court_art import COURT_ART
from vision.synth.fonts import missing_index_fonts
from vision.synth.layouts import SCOUNDREL_DECK, scoundrel_table
from vision.synth.layouts import superheld_map as superheld_layout
from vision.synth.scene import compose
from vision.truth import must_see

Predictor = Callable[..., CardDetections]  # predict(image), and predict(image, codes=...) for `game_decks`


def box_iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass
class RealScore:
    images: int = 0
    boxes: int = 0
    found: int = 0
    unread: int = 0  # found, but reported with the code "?" (index not readable)
    rank_right: int = 0
    extra: int = 0  # face-up readings of no card (see `_extra`): a second reading of a card, papers, a box
    suited: int = 0  # found cards whose suit is known (`read_suits`)
    code_right: int = 0  # ... read with rank and suit right
    seconds: list[float] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)  # each card missed, unread or read wrong

    def to_json(self) -> dict[str, Any]:
        return {"images": self.images, "cards": self.boxes,
                "recall_iou50": round(self.found / max(1, self.boxes), 4),
                "found_unread": self.unread,
                "rank_accuracy_of_found": round(self.rank_right / max(1, self.found), 4),
                "rank_accuracy_of_read": round(self.rank_right / max(1, self.found - self.unread), 4),
                "rank_accuracy_of_all": round(self.rank_right / max(1, self.boxes), 4),
                "extra_cards": self.extra,
                "suited_cards": self.suited,
                "code_accuracy_of_suited": round(self.code_right / max(1, self.suited), 4),
                "median_ms": round(1000 * float(np.median(self.seconds)), 1) if self.seconds else None}


def evaluate_real(folder: Path, predict: Predictor, limit: int | None = None, split: str = "all",
                  suits: dict[str, str] | None = None) -> RealScore:
    """Every annotated image of `split` in `folder` (sorted), or the first `limit`. Where `suits` (`read_suits`)
    names a photo's suits, its found cards are also scored on the whole code, and a right rank in the wrong suit is
    a failure ("suit")."""
    import time

    score = RealScore()
    for image_path, image, labels in labelled_photos(folder, split, limit):
        known = photo_suits(image_path.name, len(labels), suits)
        start = time.perf_counter()
        dets = predict(image)
        score.seconds.append(time.perf_counter() - start)
        score.images += 1
        boxes = reading_bounds(dets.corners, image.shape[:2])
        used: set[int] = set()
        missed: list = []
        for (name, gt), suit in zip(labels, known, strict=True):
            score.boxes += 1
            rank = RANK_NAMES.get(name, "?")
            ious = [(seen_iou(gt, b), k) for k, b in enumerate(boxes) if k not in used]
            best = max(ious, default=(0.0, -1))
            if best[0] < 0.5:
                missed.append(gt)
                score.failures.append(_failure(image_path, "missed", rank, gt, dets, boxes))
                continue
            used.add(best[1])
            score.found += 1
            code = dets.codes[best[1]]
            score.unread += int(code == UNREAD)
            right = code != "back" and code[:-1] == rank
            score.rank_right += int(right)
            if not right:
                kind = "unread" if code == UNREAD else "wrong"
                score.failures.append(_failure(image_path, kind, rank, gt, dets, boxes, best[1]))
            if suit != UNSURE_SUIT:
                score.suited += 1
                score.code_right += int(right and code[-1] == suit)
                if right and code[-1] != suit:
                    score.failures.append(_failure(image_path, "suit", rank + suit, gt, dets, boxes, best[1]))
        score.extra += _extra(dets, boxes, used, missed)
    return score


def turned_predictor(predict: Predictor, degrees: int) -> Predictor:
    """`predict` reading each picture turned `degrees` clockwise (0, or one of `TURNS`), its readings taken back onto
    the picture: the real photos as a camera held another way round would take them (the photographer held it
    mostly one way, and the detector learnt their cards mostly upright)."""
    if not degrees:
        return predict
    if degrees not in TURNS:
        raise ValueError(f"a picture turns by 0, 90, 180 or 270 degrees, not {degrees}")

    def read(image: np.ndarray) -> CardDetections:
        dets = predict(cv2.rotate(image, TURNS[degrees]))
        return replace(dets, corners=turned_back(dets.corners, degrees, image.shape).reshape(-1, 4, 2))
    return read


def scaled_predictor(predict: Predictor, factor: float) -> Predictor:
    """`predict` reading each picture resized by `factor` (`degrade.resized`), its readings taken back onto the
    picture: the real photos as a camera further off or nearer would take them. The detector learnt the tune half's
    cards at their own size, so a shrunk half shows which steps lean on that (session 29: 0.7)."""
    degrade.check(scale=factor)
    if factor == 1.0:
        return predict

    def read(image: np.ndarray) -> CardDetections:
        dets = predict(degrade.resized(image, factor))
        return replace(dets, corners=(dets.corners / np.float32(factor)).astype(np.float32))
    return read


def lit_predictor(predict: Predictor, factor: float) -> Predictor:
    """`predict` reading each picture with its light multiplied by `factor` (`degrade.relit`, clipped at white): the
    real photos as a dimmer or brighter room would show them. The rules that judge paper, backs and the table by
    colour were tuned on the tune half's own light (session 29: at 0.55 six cards were dropped as holes)."""
    degrade.check(light=factor)
    if factor == 1.0:
        return predict

    def read(image: np.ndarray) -> CardDetections:
        return predict(degrade.relit(image, factor))
    return read


Box = tuple[float, float, float, float]


def reading_bounds(corners: np.ndarray, shape: tuple[int, ...]) -> list[list[Box]]:
    """Each reading's bounds as a label box may hold it: its whole outline's and, where other readings lie on it,
    its part they leave uncovered, both cut to the picture. The labeller boxed a card as far as it shows: a card
    the frame cuts ends at the picture's edge, and a card under another is mostly boxed round its visible part,
    while a reading's outline is the whole card's (real tune half: a queen cut by the top edge, nines under
    other cards)."""
    h, w = shape[:2]
    quads = np.asarray(corners, np.float32).reshape(-1, 4, 2)
    overlaps = pairwise_iou(quads, quads) if len(quads) else np.zeros((0, 0))
    out = []
    for k, q in enumerate(quads):
        x0, y0, x1, y1 = quad_bounds(q)
        views: list[Box] = [(max(0.0, x0), max(0.0, y0), min(float(w), x1), min(float(h), y1))]
        others = [j for j in np.nonzero(overlaps[k] > 0)[0] if j != k]
        if others:
            mask = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(mask, np.round(q).astype(np.int32), 1)
            for j in others:
                cv2.fillConvexPoly(mask, np.round(quads[j]).astype(np.int32), 0)
            ys, xs = np.nonzero(mask)
            if len(xs):
                views.append((float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)))
        out.append(views)
    return out


def seen_iou(box: tuple[float, ...], views: list[Box]) -> float:
    """A label box's overlap with a reading: the better of its bounds' (`reading_bounds`)."""
    return max(box_iou(box, v) for v in views)


def _failure(image: Path, kind: str, rank: str, box: tuple[float, ...], dets: CardDetections, boxes: list,
             k: int | None = None) -> dict[str, Any]:
    """One card missed ("missed": no reading's bounds overlap its box at IoU 0.5; the reading that overlaps it
    most is named), unread or read wrong, for looking into the tuning half card by card."""
    if k is None:
        k = max(range(len(boxes)), key=lambda j: seen_iou(box, boxes[j]), default=None)
    out: dict[str, Any] = {"image": image.name, "kind": kind, "rank": rank, "box": [round(v) for v in box]}
    if k is not None:
        out.update(read=dets.codes[k], confidence=round(float(dets.confidence[k]), 2),
                   iou=round(seen_iou(box, boxes[k]), 2))
    return out


def whole_card_reading(folder: Path, split: str = "all", least_iou: float = 0.8) -> dict[str, Any]:
    """How well the readers read cards whose whole outline is known: every labelled card that the classical
    outline finder outlines (`outlined`: in practice a card nothing covers) is read through that outline by the
    face and by index and face fused, as `predict` reads. It parts the reading's errors from the outlines' and
    the detector's."""
    from vision.cards.identity import read_cards, read_faces

    n = face = fused = 0
    for _, image, labels in labelled_photos(folder, split):
        quads, matches = outlined(image, [b for _, b in labels], least_iou)
        for (name, _), k in zip(labels, matches, strict=True):
            if k is None:
                continue
            rank = RANK_NAMES.get(name, "?")
            n += 1
            face += int(_rank_of(read_faces(image, quads[k:k + 1])[0]) == rank)
            fused += int(read_cards(image, quads[k:k + 1])[0][0][:-1] == rank)
    return {"cards": n, "face_rank_accuracy": round(face / max(1, n), 4),
            "fused_rank_accuracy": round(fused / max(1, n), 4)}


def outlined(image: np.ndarray, boxes: list[tuple[float, float, float, float]],
             least_iou: float) -> tuple[np.ndarray, list[int | None]]:
    """The classical outlines of a photo (`propose`) and, per labelled box, which of them overlaps it most if at
    `least_iou` (its bounds with the box), else None: a labelled card's own outline, for fine-tuning on real
    photos and for measuring."""
    from vision.cards.contours import propose

    quads = propose(image)
    bounds = [quad_bounds(q) for q in quads]
    matches: list[int | None] = []
    for box in boxes:
        best = max(((box_iou(box, b), k) for k, b in enumerate(bounds)), default=(0.0, -1))
        matches.append(best[1] if best[0] >= least_iou else None)
    return quads, matches


def _rank_of(probs: np.ndarray) -> str:
    from vision.cards.labels import CROP_CLASSES

    name = CROP_CLASSES[int(np.argmax(probs))]
    return name[:-1] if name not in ("none", "JOKER") else name


def _extra(dets: CardDetections, boxes: list, used: set[int], missed: list) -> int:
    """Face-up readings matched to no labelled card, leaving out loose outlines of the cards missed (IoU 0.3 with
    one): a card read twice counts once as extra, as a player would see two cards where one lies. Face-down cards
    are not labelled in these photos, so they are not counted."""
    return sum(1 for k, b in enumerate(boxes) if k not in used and dets.codes[k] != "back"
               and not any(seen_iou(gt, b) >= 0.3 for gt in missed))


def match_cards(dets: CardDetections, truths: list, iou: float = 0.5) -> tuple[int, int, int, dict[int, int]]:
    """Greedy outline matching, a reading's own card first among those its outline overlaps by `iou` (the whole
    outlines of a stack's cards, 20-27 mm apart, overlap by 0.6 or more); returns (right, wrong code, false
    positives, truth index -> detection index). A reading of a card too covered to count (`seen_beyond`) is no
    false positive."""
    mapping = _greedy([(quad_iou(t.corners, d), i, k) for i, t in enumerate(truths) if must_see(t)
                       for k, d in enumerate(dets.corners)], iou,
                      lambda i, k: truths[i].code == dets.codes[k])
    right = sum(1 for i, k in mapping.items() if dets.codes[k] == truths[i].code)
    wrong = len(mapping) - right
    extra = len(dets) - len(mapping) - len(seen_beyond(dets, truths, mapping, iou))
    return right, wrong, extra, mapping


def seen_beyond(dets: CardDetections, truths: list, mapping: dict[int, int], iou: float = 0.5) -> set[int]:
    """The readings matched to no card a player must see (`must_see`) that name, on its outline, a card lying
    there all the same (too covered to count as missed): a card seen beyond what is asked is no extra card,
    and a card read twice is still one."""
    used = set(mapping.values())
    return set(_greedy([(quad_iou(t.corners, dets.corners[k]), i, k) for i, t in enumerate(truths)
                        if not must_see(t) for k in range(len(dets)) if k not in used and dets.codes[k] == t.code],
                       iou).values())


def _greedy(pairs: list[tuple[float, int, int]], iou: float,
            first: Callable[[int, int], bool] | None = None) -> dict[int, int]:
    """(overlap, truth, reading) pairs of at least `iou` taken best first, those `first` holds for before the
    others, each truth and reading once."""
    mapping: dict[int, int] = {}
    kept = [p for p in pairs if p[0] >= iou]
    for _, i, k in sorted(kept, key=lambda p: (first is not None and first(p[1], p[2]), p[0]), reverse=True):
        if i not in mapping and k not in mapping.values():
            mapping[i] = k
    return mapping


def _layout_right(kind: str, truth: dict, truths: list, dets: CardDetections, mapping: dict[int, int],
                  shape: tuple[int, ...]) -> bool:
    if kind == "scoundrel":
        zones = scoundrel_zones(dets, shape)
        t = truth["zones"]
        return (zones["room"] == t["room"] and zones["weapon"] == t["weapon"]
                and zones["weapon_monsters"] == t["weapon_monsters"]
                and bool(zones["dungeon"]) == t["dungeon"] and bool(zones["discard"]) == t["discard"])
    graph = superheld_map(dets, table_homography(dets))
    found = {tuple(e) for e in graph["edges"]}
    expected = {(min(mapping.get(a, -1), mapping.get(b, -1)), max(mapping.get(a, -1), mapping.get(b, -1)))
                for a, b in truth["edges"]}
    return found == expected and len(mapping) == len(truths)


def scene_failures(scene: int, kind: str, style: int, truths: list, dets: CardDetections,
                   mapping: dict[int, int]) -> list[dict[str, Any]]:
    """Each card of one synthetic scene missed, read wrong, or read where no card is (`match_cards`' mapping),
    with what lies nearest: the list to look into on a selection seed, never on a measuring one."""
    base = {"scene": scene, "layout": kind, "style": style, "letters": face_style(style).language}
    out: list[dict[str, Any]] = []
    for i, t in enumerate(truths):
        if not must_see(t) or (i in mapping and dets.codes[mapping[i]] == t.code):
            continue
        if i in mapping:
            k = mapping[i]
            out.append({**base, "kind": "wrong", "truth": t.code, "read": dets.codes[k],
                        "confidence": round(float(dets.confidence[k]), 2), "visible": round(t.visible, 2)})
            continue
        near = max(((quad_iou(t.corners, d), k) for k, d in enumerate(dets.corners)), default=(0.0, -1))
        missed = {**base, "kind": "missed", "truth": t.code, "visible": round(t.visible, 2)}
        if near[1] >= 0:
            missed.update(read=dets.codes[near[1]], iou=round(near[0], 2))
        out.append(missed)
    matched = set(mapping.values()) | seen_beyond(dets, truths, mapping)
    for k in range(len(dets)):
        if k not in matched:
            near_truth = max(((quad_iou(t.corners, dets.corners[k]), t.code) for t in truths), default=(0.0, ""))
            out.append({**base, "kind": "extra", "read": dets.codes[k],
                        "confidence": round(float(dets.confidence[k]), 2), "truth": near_truth[1],
                        "iou": round(near_truth[0], 2)})
    return out


FARTHEST = 3.0  # `distance`: a camera at most this many times further off than the scenes are drawn for
STEEPEST = 60.0  # `angle`: a camera at most this many degrees off straight above
SCENE_TILT = 0.35  # the scenes' keystone (`compose`'s `max_tilt`) unless an angle is asked for: about 34 degrees


def check_camera(distance: float = 1.0, angle: float | None = None) -> None:
    """A ValueError naming a camera distance or angle `synthetic_scenes` cannot draw."""
    if not 1.0 <= distance <= FARTHEST:
        raise ValueError(f"distance {distance:g} is outside 1-{FARTHEST:g}")
    if angle is not None and not 0.0 <= angle <= STEEPEST:
        raise ValueError(f"angle {angle:g} is outside 0-{STEEPEST:g} degrees")


def tilt_of(angle: float) -> float:
    """`compose`'s keystone for a camera up to `angle` degrees off straight above: the table's depth foreshortened by
    the angle's cosine, which `camera` makes 1 - tilt / 2."""
    return 2.0 * (1.0 - float(np.cos(np.radians(angle))))


def synthetic_scenes(seed: int, scenes: int, court_art: bool = False, distance: float = 1.0,
                     angle: float | None = None) -> Iterator[tuple[str, int, dict[str, Any], np.ndarray, list]]:
    """The held-out scenes of a seed, in turn: a Superheld map (under a hand now and then), then a Scoundrel
    table, each (kind, deck style, layout truth, image, card truths); every fourth pair in the plain deck.
    `court_art`: the same scenes, the random decks printing their courts (`vision.synth.court_art`); `distance`:
    the camera that many times further off, each table filling that much less of the frame; `angle`: the camera
    up to that many degrees off straight above (None: SCENE_TILT)."""
    check_camera(distance, angle)
    tilt = SCENE_TILT if angle is None else tilt_of(angle)
    rng = np.random.default_rng(seed)
    for n in range(scenes):
        kind = "superheld" if n % 2 == 0 else "scoundrel"
        style = 0 if n % 4 < 2 else int(rng.integers(1, 200)) + (COURT_ART if court_art else 0)
        if kind == "superheld":
            placements, truth = superheld_layout(rng, n=int(rng.integers(12, 49)), style=style)
            image, truths, _ = compose(placements, rng, hands=int(rng.random() < 0.3), max_tilt=tilt,
                                       fill=(0.8 / distance, 0.97 / distance))
        else:
            placements, truth = scoundrel_table(rng, style=style)
            image, truths, _ = compose(placements, rng, hands=0, max_tilt=tilt, fill=(0.7 / distance, 0.95 / distance),
                                       max_turn=12)
        yield kind, style, truth, image, truths


def evaluate_synthetic(predict: Predictor, scenes: int = 20, seed: int = 60606, failures: bool = False,
                       court_art: bool = False, game_decks: bool = False, distance: float = 1.0,
                       angle: float | None = None) -> dict[str, Any]:
    """Held-out scenes (a seed the training set never used): maps, Scoundrel tables with fans, piles, hands.
    `failures`: also list each card missed, read wrong or extra (`scene_failures`); `game_decks`: each Scoundrel
    table is read with its game's deck (`predict(image, codes=SCOUNDREL_DECK)`), as the companion reads it;
    `distance`, `angle`: see `synthetic_scenes`."""
    total = right = wrong = missed = extra = 0
    layouts_right = {"superheld": [0, 0], "scoundrel": [0, 0]}
    listed: list[dict[str, Any]] = []
    for n, (kind, style, truth, image, truths) in enumerate(synthetic_scenes(seed, scenes, court_art, distance, angle)):
        dets = predict(image, codes=SCOUNDREL_DECK) if game_decks and kind == "scoundrel" else predict(image)
        r, w, e, mapping = match_cards(dets, truths)
        if failures:
            listed += scene_failures(n, kind, style, truths, dets, mapping)
        seen = sum(1 for t in truths if must_see(t))
        total += seen
        right += r
        wrong += w
        extra += e
        missed += seen - r - w
        layouts_right[kind][1] += 1
        layouts_right[kind][0] += int(_layout_right(kind, truth, truths, dets, mapping, image.shape))
    errors = wrong + missed + extra
    figures = {"scenes": scenes, "seed": seed, "court_art": court_art, "distance": distance, "angle": angle,
               "cards": total, "right": right,
               "wrong_code": wrong, "missed": missed,
               "false_positives": extra, "card_error": round(errors / max(1, total), 4),
               "layout_exact": {k: round(v[0] / max(1, v[1]), 3) for k, v in layouts_right.items()},
               "layout_exact_all": round(sum(v[0] for v in layouts_right.values()) / max(1, scenes), 3),
               "game_decks": game_decks,
               "index_fonts_missing": list(missing_index_fonts())}
    return figures | {"failures": listed} if failures else figures
