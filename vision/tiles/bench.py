"""Speed of the board reader: a 72-tile board at 1280x720, median over several pictures."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from vision.tiles.board import add_meeples, random_board
from vision.tiles.pipeline import predict
from vision.tiles.scene import SceneSpec, compose


def bench_pictures(count: int = 5, tiles: int = 72, seed: int = 0, width: int = 1280, height: int = 720
                   ) -> list[tuple[np.ndarray, int]]:
    """The benchmark's pictures (at most 5 distinct ones, seeds `seed`..) and the tiles laid on each."""
    spec = SceneSpec(width=width, height=height)
    pictures = []
    for k in range(max(1, min(count, 5))):
        rng = np.random.default_rng(seed + k)
        board = random_board(tiles, rng)
        add_meeples(board, ("red", "blue", "yellow"), 8, rng)
        pictures.append((compose(board, spec, rng).image, len(board.tiles)))
    return pictures


def bench(runs: int = 20, tiles: int = 72, seed: int = 0, width: int = 1280, height: int = 720) -> dict[str, Any]:
    """Median and spread of `predict` time (wall and CPU); pictures are drawn first so only reading is timed."""
    pictures = bench_pictures(runs, tiles, seed, width, height)
    predict(pictures[0][0])  # warm caches (catalog expectations)
    times: list[float] = []
    cpu: list[float] = []
    read: list[int] = []
    for k in range(runs):
        image, _ = pictures[k % len(pictures)]
        start, start_cpu = time.perf_counter(), time.process_time()
        out = predict(image)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        read.append(len(out["tiles"]))
    ms = np.array(times) * 1000
    return {
        "runs": runs,
        "image": [width, height],
        "tiles_on_board": [n for _, n in pictures],
        "tiles_read": int(np.median(read)),
        "median_ms": round(float(np.median(ms)), 1),
        "p90_ms": round(float(np.percentile(ms, 90)), 1),
        "min_ms": round(float(ms.min()), 1),
        # CPU seconds of this process: what the reader costs when other jobs share the cores
        "median_cpu_ms": round(float(np.median(cpu)) * 1000, 1),
    }
