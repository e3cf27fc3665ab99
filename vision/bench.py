"""The standard benchmark scene (a 56-card map at 1280 x 720) and per-stage timings of the card pipeline."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from vision.synth.layouts import superheld_map
from vision.synth.scene import Placement, compose

BENCH_SEED = 56


def standard_scene(seed: int = BENCH_SEED) -> tuple[np.ndarray, list]:
    """56 touching cards in an 8 x 7 map, seen from above at 1280 x 720, on a table texture."""
    rng = np.random.default_rng(seed)
    placements, _ = superheld_map(rng, n=56, compact=True)
    image, truths, _ = compose(placements, rng, (1280, 720), hands=0, max_tilt=0.1, fill=(0.97, 0.98), max_turn=3)
    return image, truths


def changed_scene(placements_seed: int = BENCH_SEED, k: int = 0, spare: str | None = None) -> tuple[np.ndarray,
                                                                                                  np.ndarray]:
    """The standard scene and the same scene with its k-th face-up card swapped for `spare` (by default AS, or KH
    for an AS), same camera, same light."""
    rng = np.random.default_rng(placements_seed)
    placements, _ = superheld_map(rng, n=56, compact=True)
    state = rng.bit_generator.state
    before, _, _ = compose(placements, rng, (1280, 720), hands=0, max_tilt=0.1, fill=(0.97, 0.98), max_turn=3)
    i = [j for j, p in enumerate(placements) if p.code is not None][k]
    p = placements[i]
    spare = spare or ("AS" if p.code != "AS" else "KH")
    placements[i] = Placement(spare, p.centre, p.angle, p.style, p.design, p.zone)
    rng.bit_generator.state = state
    after, _, _ = compose(placements, rng, (1280, 720), hands=0, max_tilt=0.1, fill=(0.97, 0.98), max_turn=3)
    return before, after


def _time(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)) * 1000, out


def run_benchmark(runs: int = 10) -> dict[str, Any]:
    """Median milliseconds per stage and in total, plus the incremental update, on the standard scene."""
    from vision.cards import (
        BOX_SCORE,
        FAN_INDEX_SCORE,
        LOOK_AGAIN_SCORE,
        _card_outlines,
        _read_faces,
        predict,
        read_in_grid_or_turned,
    )
    from vision.cards.contours import propose
    from vision.cards.detect import BACK, CARD, INDEX, detect
    from vision.cards.facedown import _found, face_down
    from vision.cards.identity import read_cards, read_faces
    from vision.cards.maps import is_map
    from vision.cards.readings import _apart, _unique
    from vision.cards.stacks import _read_loose_indices
    from vision.cards.update import update
    from vision.detections import CardDetections
    from vision.homography import table_homography
    from vision.layout import superheld_map as map_graph

    image, truths = standard_scene()
    predict(image)  # warm-up: sessions load once
    ms: dict[str, float] = {}
    ms["detect"], boxes = _time(lambda: detect(image, conf=FAN_INDEX_SCORE), runs)
    ms["classical_outlines"], blobs = _time(lambda: propose(image), runs)  # what lone cards cost; a map skips it
    if is_map(boxes):
        blobs = np.zeros((0, 4, 2), np.float32)
    ms["outlines"], (outlines, _, _) = _time(lambda: _card_outlines(image, boxes.of(CARD, BOX_SCORE), blobs), runs)
    ms["read_cards"], _ = _time(lambda: read_cards(image, outlines), runs)
    ms["of_which_faces"], _ = _time(lambda: read_faces(image, outlines), runs)
    ms["read_and_second_look"], (read, unread) = _time(
        lambda: _read_faces(image, boxes.of(CARD, BOX_SCORE), blobs, LOOK_AGAIN_SCORE), runs)
    faces = _unique(read)
    ms["fanned_indices"], fanned = _time(lambda: _read_loose_indices(image, boxes.of(INDEX), faces, BOX_SCORE), runs)
    ms["backs"], backs = _time(lambda: face_down(image, boxes.of(BACK, BOX_SCORE), faces, blobs,
                                                 _found(boxes, BOX_SCORE, faces)), runs)
    unread = _unique(_apart(unread, CardDetections.merge([faces, fanned, backs])))
    ms["grid_or_turned"], _ = _time(lambda: read_in_grid_or_turned(image, faces, fanned, backs, unread), runs)
    ms["total_predict"], dets = _time(lambda: predict(image), runs)
    ms["homography"], hom = _time(lambda: table_homography(dets), runs)
    ms["layout"], _ = _time(lambda: map_graph(dets, hom), runs)
    ms["full_frame"] = ms["total_predict"] + ms["homography"] + ms["layout"]
    before, after = changed_scene()
    base = predict(before)
    ms["update_one_card"], updated = _time(lambda: update(before, base, after), runs)
    return {"image": [int(image.shape[1]), int(image.shape[0])], "cards_in_scene": len(truths), "map": is_map(boxes),
            "cards_found": len(dets), "cards_after_update": len(updated),
            "ms": {k: round(v, 1) for k, v in ms.items()}, "runs": runs}
