"""Trains the meeple verifier on synthetic boards and exports it to ONNX (torch is needed here only).

Candidates are what `meeples.candidates` finds on boards drawn from training seeds (far from the
evaluation seeds); a candidate is a meeple when a true meeple of its colour has its feet within
`FOOT_TOLERANCE` of the candidate's. The pastel style is left out so it stays unseen.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.tiles import verifier
from vision.tiles.board import add_meeples, random_board
from vision.tiles.evaluate import calibration_picture
from vision.tiles.grid import find_grid
from vision.tiles.meeples import Calibration, calibrate
from vision.tiles.pipeline import read_board
from vision.tiles.reader import PATCH
from vision.tiles.scene import SceneSpec, compose
from vision.tiles.scene import _foot as scene_foot

TRAIN_STYLES = ("classic", "modern", "flat", "painted")
TILE_COUNTS = (1, 8, 20, 30, 50, 72)
FOOT_TOLERANCE = 0.15  # tiles
JITTER = 0.1  # brightness and contrast drawn up to this share off while training (light varies per board)
SPECS = (SceneSpec(styles=TRAIN_STYLES), SceneSpec(styles=TRAIN_STYLES, tilt=0.3, turn_deg=20.0, hands=0.5),
         # harder: the small blurred meeples the first net missed (more blur, noise and uneven light)
         SceneSpec(styles=TRAIN_STYLES, blur=1.4, noise=6.0, light=0.35))


def board_samples(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Inputs and labels (1 = meeple) for the candidates on one synthetic board."""
    rng = np.random.default_rng(seed)
    n = TILE_COUNTS[seed % len(TILE_COUNTS)]
    colours = ("red", "blue", "yellow", "black", "green") if seed % 3 == 0 else ("red", "blue", "yellow", "black")
    board = random_board(n, rng)
    add_meeples(board, colours, min(12, max(1, n // 3)), rng)
    spec = SPECS[(seed // 2) % len(SPECS)]  # not in step with the colours' seed % 3
    spec = replace(spec, styles=(TRAIN_STYLES[int(rng.integers(len(TRAIN_STYLES)))],))
    scene = compose(board, spec, rng)
    # one board in four without a calibration shot: the typical paint must not make shadows meeples
    calibration = Calibration() if seed % 4 == 1 else calibrate(calibration_picture(scene, colours, rng), colours)
    grid = find_grid(scene.image)
    empty = (np.zeros((0, verifier.CHANNELS, verifier.SIDE, verifier.SIDE), np.float32), np.zeros(0, np.float32))
    if grid is None:
        return empty
    trace: dict[str, Any] = {}
    read_board(scene.image, grid, calibration, trace)
    found = trace.get("candidates", [])
    if not found:
        return empty
    feet = [(m.colour, cv2.perspectiveTransform(np.array([[scene_foot(m, scene.corners)]]), trace["to_patch"])[0, 0])
            for m in scene.meeples if m.cell not in scene.hidden]
    labels = np.array([any(c == b.colour and np.hypot(*(np.array(b.foot) - f)) < FOOT_TOLERANCE * PATCH
                           for c, f in feet) for b in found], np.float32)
    return verifier.inputs(trace["board"], found, PATCH, calibration), labels


def collect(seeds: range) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = zip(*(board_samples(s) for s in seeds), strict=True)
    return np.concatenate(xs), np.concatenate(ys)


def train(x: np.ndarray, y: np.ndarray, epochs: int = 15, seed: int = 0, widths: tuple[int, int, int] = (16, 32, 48),
          jitter: float = 0.0) -> Any:
    """A tiny CNN (three convolutions, about 20k weights at the default widths); horizontal flips so no light
    direction is learnt, and with `jitter` > 0 the crops' brightness and contrast drawn up to that share off."""
    import torch
    from torch import nn

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # on a shared 2-core machine two OpenMP threads spun: 4x the CPU time of one
    a, b, c = widths
    net = nn.Sequential(
        nn.Conv2d(verifier.CHANNELS, a, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(a, b, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(b, c, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 1))
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    pos = float(y.sum())
    loss_fn = nn.BCEWithLogitsLoss(pos_weight=torch.tensor(max(1.0, (len(y) - pos) / max(pos, 1.0)) ** 0.5))
    opt = torch.optim.Adam(net.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    for _ in range(epochs):
        order = torch.randperm(len(yt))
        for start in range(0, len(order), 256):
            idx = order[start:start + 256]
            batch = xt[idx]
            flip = torch.rand(len(idx)) < 0.5
            batch[flip] = batch[flip].flip(-1)
            if jitter > 0:  # B, G, R are centred on 0 (px / 255 - 0.5): contrast scales them, brightness shifts them
                gain = 1 + jitter * (2 * torch.rand(len(idx), 1, 1, 1) - 1)
                shift = 0.5 * jitter * (2 * torch.rand(len(idx), 1, 1, 1) - 1)
                batch[:, :3] = ((batch[:, :3] + 0.5) * gain - 0.5 + shift).clamp(-0.5, 0.5)
            opt.zero_grad()
            loss = loss_fn(net(batch).reshape(-1), yt[idx])
            loss.backward()
            opt.step()
        sched.step()
    return net.eval()


def export(net: Any, path: Path) -> None:
    import torch

    dummy = torch.zeros(1, verifier.CHANNELS, verifier.SIDE, verifier.SIDE)
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but needs no onnxscript
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(net, dummy, str(path), input_names=["crops"], output_names=["logits"],
                          dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, dynamo=False)


def run(train_seeds: range, check_seeds: range, path: Path, epochs: int = 8) -> dict[str, Any]:
    """Collects, trains, exports; reports accuracy on candidates from boards it did not train on."""
    import torch

    t0 = time.perf_counter()
    x, y = collect(train_seeds)
    xv, yv = collect(check_seeds)
    t1 = time.perf_counter()
    net = train(x, y, epochs, jitter=JITTER)
    with torch.no_grad():
        pv = torch.sigmoid(net(torch.from_numpy(xv)).reshape(-1)).numpy() >= verifier.THRESHOLD
    export(net, path)
    return {"train_candidates": int(len(y)), "train_meeples": int(y.sum()), "check_candidates": int(len(yv)),
            "check_meeples": int(yv.sum()), "check_missed": int((~pv & (yv > 0)).sum()),
            "check_false": int((pv & (yv == 0)).sum()), "collect_s": round(t1 - t0, 1),
            "train_s": round(time.perf_counter() - t1, 1)}
