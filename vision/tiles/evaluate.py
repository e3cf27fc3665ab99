"""Scores the board reader on synthetic boards it has never seen: letter + rotation, meeples, speed.

Each picture is drawn from a seed, so a figure can be re-measured exactly. Predicted tiles are
matched to the true ones by where their corners lie in the image, so a wrong grid counts as wrong
tiles rather than being forgiven.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from vision import degrade
from vision.light import table_seen
from vision.tiles.board import Board, add_meeples, random_board
from vision.tiles.catalog import canonical_rotation, same_part
from vision.tiles.figures import draw_meeple
from vision.tiles.meeples import Calibration, calibrate
from vision.tiles.pipeline import predict
from vision.tiles.scene import Scene, SceneSpec, compose


@dataclass
class EvalConfig:
    """One evaluation set (datasets/tiles/*.yaml holds these)."""

    name: str = "held-out"
    seed: int = 10_000
    boards: int = 20
    tiles: tuple[int, ...] = (1, 8, 30, 72)  # tile counts, cycled
    meeples: int = 8  # per board (fewer on small boards)
    colours: tuple[str, ...] = ("red", "blue", "yellow", "black")
    calibrate: bool = True
    field_clearance: float = 0.0  # tiles a field meeple's foot keeps from features and sides (board._field_point)
    scene: SceneSpec = field(default_factory=SceneSpec)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EvalConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown keys {sorted(unknown)}; known: {sorted(known)}")
        scene_known = {f.name for f in fields(SceneSpec)}
        scene = data.get("scene", {}) or {}
        bad = set(scene) - scene_known
        if bad:
            raise ValueError(f"unknown scene keys {sorted(bad)}; known: {sorted(scene_known)}")
        spec = SceneSpec(**{k: tuple(v) if isinstance(v, list) else v for k, v in scene.items()})
        rest = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "scene"}
        return cls(**rest, scene=spec)

    @classmethod
    def from_yaml(cls, path: str | Path, **overrides: Any) -> EvalConfig:
        """One set read from its YAML file, with `overrides` on top of its top-level keys (`boards=3`).

        The command line and the tests load sets the same way through this. An empty file is an empty mapping;
        anything else that is not a mapping, and unknown or ill-typed keys, raise ValueError naming the file.
        OSError and yaml.YAMLError pass through.
        """
        import yaml  # only the test and train extras install pyyaml

        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        if not isinstance(data, dict):
            raise ValueError(f"{path}: expected a mapping of settings")
        try:
            return cls.from_dict({**data, **overrides})
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{path}: {exc}") from None


@dataclass
class Tally:
    tiles: int = 0
    tiles_right: int = 0
    tiles_missed: int = 0
    tiles_extra: int = 0
    hidden: int = 0
    meeples: int = 0
    meeples_right: int = 0
    meeples_missed: int = 0
    meeples_extra: int = 0
    seconds: list[float] = field(default_factory=list)
    confusions: Counter = field(default_factory=Counter)
    by_style: Counter = field(default_factory=Counter)
    by_style_right: Counter = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        ms = np.array(self.seconds) * 1000
        return {
            "tiles": self.tiles,
            "tile_accuracy": round(self.tiles_right / max(self.tiles, 1), 4),
            "tiles_missed": self.tiles_missed,
            "tiles_extra": self.tiles_extra,
            "tiles_hidden_by_hands": self.hidden,
            "meeples": self.meeples,
            "meeple_accuracy": round(self.meeples_right / max(self.meeples, 1), 4),
            "meeples_missed": self.meeples_missed,
            "meeples_extra": self.meeples_extra,
            "median_ms": round(float(np.median(ms)), 1) if len(ms) else None,
            "by_style": {s: round(self.by_style_right[s] / n, 4) for s, n in sorted(self.by_style.items())},
            "top_confusions": [f"{a}->{b} x{n}" for (a, b), n in self.confusions.most_common(8)],
        }


DEGRADE_STREAM = 7  # the noise's own random stream beside the board's seed (the scene's draws stay as they were)


@dataclass(frozen=True)
class Degradation:
    """What a real camera does to the picture that the drawn sets do less of, applied after drawing (`vision.degrade`):
    the picture saved again as a JPEG of `jpeg` quality (a webcam's MJPEG stream, a photo sent on; the drawn scenes
    are saved at 70-95), sensor noise of `noise` grey levels (a dim room), resized by `scale` (a camera further off
    or nearer) and its light multiplied by `light`. The identity by default."""

    jpeg: int | None = None
    noise: float = 0.0
    scale: float = 1.0
    light: float = 1.0

    def __post_init__(self) -> None:
        degrade.check(self.scale, self.light, self.noise, self.jpeg)

    @property
    def none(self) -> bool:
        return self == Degradation()

    def apply(self, scene: Scene, rng: np.random.Generator) -> Scene:
        """The scene as the degraded camera shows it: its picture, and its tiles' corners where the picture moved
        them (scale)."""
        if self.none:
            return scene
        image = degrade.camera_view(scene.image, rng, self.jpeg, self.noise, self.scale, self.light)
        corners = {cell: quad * self.scale for cell, quad in scene.corners.items()}
        return replace(scene, image=image, corners=corners)


def calibration_picture(scene: Scene, colours: tuple[str, ...], rng: np.random.Generator) -> np.ndarray:
    """The player's calibration shot: one meeple of each colour on a plain surface, same paint."""
    img = np.full((360, 640, 3), 200, np.uint8) + rng.integers(-6, 6, (360, 640, 3)).astype(np.uint8)
    for k, name in enumerate(colours):
        draw_meeple(img, (80 + k * 120, 260), 70, 1.0, scene.paints[name], rng)
    return img


def evaluate_scene(scene: Scene, calibration: Calibration | None, tally: Tally, style: str) -> dict[str, Any]:
    start = time.perf_counter()
    out = predict(scene.image, calibration=calibration)
    tally.seconds.append(time.perf_counter() - start)
    _score(scene, out, tally, style)
    return out


def board_tally(config: EvalConfig, index: int) -> Tally:
    """Board `index` of a set read and scored alone: what a test of one board that once failed checks."""
    scene, calibration, style = draw_scene(config, index)
    tally = Tally()
    evaluate_scene(scene, calibration, tally, style)
    return tally


def _score(scene: Scene, out: dict[str, Any], tally: Tally, style: str) -> None:
    predicted = [(np.mean(t["corners"], axis=0), t) for t in out["tiles"]]
    used: set[int] = set()
    cell_map: dict[tuple[int, int], tuple[int, int]] = {}
    under_hand: set[tuple[int, int]] = set()  # predicted cells of tiles the hand mostly covers
    for cell, quad in scene.corners.items():
        if cell in scene.hidden:
            # a tile the hand mostly covers is not scored, but a prediction on it is no phantom either
            tally.hidden += 1
            near = _nearest(predicted, quad, used)
            if near is not None:
                used.add(near)
                under_hand.add(tuple(predicted[near][1]["cell"]))
            continue
        tally.tiles += 1
        tally.by_style[style] += 1
        best = _nearest(predicted, quad, used)
        if best is None:
            tally.tiles_missed += 1
            continue
        used.add(best)
        t = predicted[best][1]
        letter, rotation = scene.board.tiles[cell]
        truth = (letter, canonical_rotation(letter, rotation))
        cell_map[cell] = tuple(t["cell"])
        if (t["letter"], t["rotation"]) == truth:
            tally.tiles_right += 1
            tally.by_style_right[style] += 1
        else:
            tally.confusions[(f"{truth[0]}{truth[1]}", f"{t['letter']}{t['rotation']}")] += 1
    tally.tiles_extra += len(predicted) - len(used)
    _score_meeples(scene, out, cell_map, tally, under_hand)


def _nearest(predicted: list[tuple[np.ndarray, dict[str, Any]]], quad: np.ndarray, used: set[int]) -> int | None:
    """The unused predicted tile whose centre lies within a third of a tile of this true tile's centre."""
    centre = quad.mean(axis=0)
    size = float(np.linalg.norm(quad[1] - quad[0]))
    best = min(range(len(predicted)), key=lambda i: np.linalg.norm(predicted[i][0] - centre), default=None)
    if best is None or best in used or np.linalg.norm(predicted[best][0] - centre) > 0.35 * size:
        return None
    return best


def _score_meeples(scene: Scene, out: dict[str, Any], cell_map: dict[tuple[int, int], tuple[int, int]],
                   tally: Tally, under_hand: set[tuple[int, int]] | None = None) -> None:
    """Colour and feature of each true meeple; a meeple read on a tile the hand mostly covers is neither
    scored nor extra, as that tile itself is not (`under_hand`: such tiles' predicted cells)."""
    by_cell: dict[tuple[int, int], list[dict[str, Any]]] = {}
    unscored = 0
    for m in out["meeples"]:
        if under_hand and tuple(m["cell"]) in under_hand:
            unscored += 1
            continue
        by_cell.setdefault(tuple(m["cell"]), []).append(m)
    matched = 0
    for meeple in scene.meeples:
        if meeple.cell in scene.hidden:
            continue
        tally.meeples += 1
        found = by_cell.get(cell_map.get(meeple.cell, (10**6, 0)), [])
        if not found:
            tally.meeples_missed += 1
            continue
        matched += 1
        m = found.pop(0)
        letter, rotation = scene.board.tiles[meeple.cell]
        same = m["feature"] == meeple.feature or (
            len(m["feature"]) == 1 and len(meeple.feature) == 1 and same_part(letter, rotation, m["feature"],
                                                                              meeple.feature))
        if m["colour"] == meeple.colour and same:
            tally.meeples_right += 1
        else:
            tally.confusions[(f"meeple {meeple.colour}/{meeple.feature}", f"{m['colour']}/{m['feature']}")] += 1
    tally.meeples_extra += len(out["meeples"]) - unscored - matched


def make_board(config: EvalConfig, index: int, rng: np.random.Generator) -> Board:
    n = config.tiles[index % len(config.tiles)]
    board = random_board(n, rng)
    add_meeples(board, config.colours, min(config.meeples, max(1, n // 3)), rng,
                field_clearance=config.field_clearance)
    return board


def draw_scene(config: EvalConfig, index: int) -> tuple[Scene, Calibration, str]:
    """Board `index` of an evaluation set: its picture, the meeple calibration and the art style, from its seed."""
    rng = np.random.default_rng(config.seed + index)
    board = make_board(config, index, rng)
    style = config.scene.styles[int(rng.integers(len(config.scene.styles)))]
    spec = SceneSpec(**{**{f.name: getattr(config.scene, f.name) for f in fields(SceneSpec)}, "styles": (style,)})
    scene = compose(board, spec, rng)
    calibration = calibrate(calibration_picture(scene, config.colours, rng), config.colours) \
        if config.calibrate else Calibration()
    # the table as the camera saw it when the meeples were calibrated: the drawn picture's own light (a degradation
    # of the light comes after); the companion keeps its calibration frame's table (`calibrate(on_table=True)`)
    return scene, replace(calibration, table=table_seen(scene.image)), style


def evaluate(config: EvalConfig, degradation: Degradation | None = None) -> dict[str, Any]:
    """The set's figures, each picture read as `degradation` leaves it (its noise drawn from the board's own seed,
    so a figure can be re-measured exactly)."""
    degradation = degradation or Degradation()
    tally = Tally()
    for index in range(config.boards):
        scene, calibration, style = draw_scene(config, index)
        scene = degradation.apply(scene, np.random.default_rng((config.seed + index, DEGRADE_STREAM)))
        evaluate_scene(scene, calibration, tally, style)
    out = {"set": config.name, "boards": config.boards, **tally.to_json()}
    if not degradation.none:
        out["degradation"] = {k: v for k, v in vars(degradation).items() if v != getattr(Degradation(), k)}
    return out
