"""Renders Carcassonne solo games as camera videos: tiles laid one by one under a fixed camera, hands between stills.

A game is a script: the true stacks (`{"seed": N}`), its record moves (one may break the rules and be put
right by the next), and the moves whose tile is shown alone before its meeple. The engine turns it into the
stills a player's table goes through (the meeples shown once to calibrate, the start tile, each tile, its
meeple, the scored meeples taken back); `vision.tiles` draws the tiles, meeples and hands.

`python -m companion.carcassonne_render --games 10` renders that many random games, referees each video with
face-down stacks through the RefereeLoop and the board reader, and prints how many came out exactly.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.tables.carcassonne import COLOUR_NAMES
from engine.carcassonne.board import oriented
from engine.carcassonne.tiles import canonical_rotation
from engine.match import Match
from engine.record import Record
from vision import degrade
from vision.tiles.figures import MEEPLE_PAINT, draw_hand, draw_meeple
from vision.tiles.geometry import feature_edge, meeple_spots, rotate_points
from vision.tiles.render import render_tile
from vision.tiles.styles import STYLES

SIZE = (960, 540)
FPS = 10
HOLD = 5  # frames each still is shown
HAND = 2  # frames of a hand reaching in between two stills
TILE_PX = 112  # art resolution of one tile on the table plane
TURN_DEG = 8.0  # the camera a little askew
CALIBRATION_MEEPLES = COLOUR_NAMES[:3]  # shown on the bare table first, colours 1, 2, 3

Cell = tuple[int, int]
Laid = dict[Cell, tuple[str, int]]
Standing = list[tuple[Cell, int, str]]  # cell, colour (1..), feature


@dataclass(frozen=True)
class Script:
    seed: int  # the true stacks: {"seed": seed}
    moves: tuple[dict[str, Any], ...]  # record moves, in order
    bad: int | None = None  # moves[bad] breaks the rules; moves[bad + 1] puts it right
    tile_first: tuple[int, ...] = ()  # moves whose tile is seen alone before its meeple stands

    def record(self) -> Record:
        return Match.replay(Record("carcassonne", {}, {"seed": self.seed}, list(self.moves))).record

    def cells(self) -> set[Cell]:
        return {(m["x"], m["y"]) for m in self.moves} | {(0, 0)}


@dataclass(frozen=True)
class Still:
    name: str
    verdict: str  # what the referee should make of it
    tiles: Laid
    meeples: Standing
    loose: tuple[str, ...] = ()  # meeples standing on the bare table (the calibration shot)


def spot_point(letter: str, rot: int, feature: str) -> tuple[float, float]:
    """Where a meeple stands on the feature (unit square of the tile as it lies): the renderer's usual spot."""
    for kind, index, point in meeple_spots(letter):
        if (kind == "monastery" and feature == "monastery") or \
                (kind != "monastery" and feature_edge(letter, rot, kind, index) == feature):
            u, v = rotate_points(np.array([point]), rot)[0]
            return (float(u), float(v))
    raise ValueError(f"{letter} at {rot} has no feature {feature}")


class BoardCamera:
    """A fixed camera over a table: the board's cells on a plane, seen with a slight turn and keystone."""

    def __init__(self, cells: set[Cell], size: tuple[int, int] = SIZE) -> None:
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        self.size = size
        self.x0, self.y0 = min(xs) - 1, min(ys) - 1  # a cell of table all round the board
        nx, ny = max(xs) - self.x0 + 2, max(ys) - self.y0 + 2
        self.plane = (nx * TILE_PX, ny * TILE_PX)
        w, h = size
        pitch = min(w * 1.1 / nx, h * 1.1 / ny)  # the outer cells partly out of the picture
        cw, ch = nx * pitch, ny * pitch
        left, top, squeeze = (w - cw) / 2, (h - ch) / 2, 0.04 * cw
        src = np.float32([[0, 0], [self.plane[0], 0], [self.plane[0], self.plane[1]], [0, self.plane[1]]])
        dst = np.float32([[left + squeeze, top], [left + cw - squeeze, top], [left + cw, top + ch], [left, top + ch]])
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), TURN_DEG, 1.0)
        self.hom = cv2.getPerspectiveTransform(src, (dst @ turn[:, :2].T + turn[:, 2]).astype(np.float32))
        rng = np.random.default_rng(3)
        grain = cv2.resize(rng.normal(0, 1, (h // 12, w // 12)).astype(np.float32), (w, h))
        self.table = np.clip(np.array((90, 90, 100), np.float32) * (1 + 0.03 * grain[..., None]), 0, 255)
        gx, gy = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
        self.light = (1.02 - 0.03 * gx - 0.02 * gy - 0.03 * (gx**2 + gy**2)).astype(np.float32)[..., None]
        self.style = STYLES["classic"]
        self._art: dict[tuple[int, int, str, int], np.ndarray] = {}

    def _tile(self, cell: Cell, letter: str, rot: int) -> np.ndarray:
        key = (*cell, letter, rot)
        if key not in self._art:
            seed = (cell[0] + 7) * 131 + (cell[1] + 7) * 17
            self._art[key] = render_tile(letter, rot, self.style, TILE_PX, np.random.default_rng(seed + rot))
        return self._art[key]

    def _centre(self, cell: Cell) -> np.ndarray:
        """Plane px of the tile's centre (a little off its square) and its turn in degrees."""
        jitter = np.random.default_rng((cell[0] + 9) * 37 + cell[1] + 9).normal(0, 1.5, 3)
        x, y = (cell[0] - self.x0 + 0.5) * TILE_PX, (cell[1] - self.y0 + 0.5) * TILE_PX
        return np.array([x + jitter[0], y + jitter[1], jitter[2]])

    def still(self, still: Still) -> np.ndarray:
        """The table with the still's tiles laid, its meeples on them and its loose meeples beside."""
        pw, ph = self.plane
        plane = np.zeros((ph, pw, 3), np.uint8)
        alpha = np.zeros((ph, pw), np.uint8)
        for cell, (letter, rot) in still.tiles.items():
            cx, cy, turn = self._centre(cell)
            m = cv2.getRotationMatrix2D((TILE_PX / 2, TILE_PX / 2), -turn, 0.985)
            m[:, 2] += np.array([cx, cy]) - TILE_PX / 2
            cv2.warpAffine(self._tile(cell, letter, rot), m, (pw, ph), plane, flags=cv2.INTER_AREA,
                           borderMode=cv2.BORDER_TRANSPARENT)
            square = np.array([[0, 0], [TILE_PX, 0], [TILE_PX, TILE_PX], [0, TILE_PX]], np.float64)
            cv2.fillConvexPoly(alpha, np.round(square @ m[:, :2].T + m[:, 2]).astype(np.int32), 255)
        w, h = self.size
        warped = cv2.warpPerspective(plane, self.hom, self.size, flags=cv2.INTER_AREA).astype(np.float32)
        a = cv2.warpPerspective(alpha, self.hom, self.size).astype(np.float32)[..., None] / 255
        shade = cv2.warpPerspective(alpha, self.hom @ np.array([[1, 0, 4], [0, 1, 5], [0, 0, 1.0]]), self.size)
        image = self.table * (1 - 0.3 * cv2.GaussianBlur(shade, (0, 0), 2)[..., None] / 255)
        image = (image * (1 - a) + warped * a).astype(np.uint8)
        rng = np.random.default_rng(11)
        px = float(np.sqrt(abs(np.linalg.det(self.hom[:2, :2])))) * TILE_PX
        for cell, colour, feature in still.meeples:
            letter, rot = still.tiles[cell]
            u, v = spot_point(letter, rot, feature)
            cx, cy, _ = self._centre(cell)
            foot = cv2.perspectiveTransform(np.array([[[cx + (u - 0.5) * TILE_PX, cy + (v - 0.5) * TILE_PX]]]),
                                            self.hom)[0, 0]
            draw_meeple(image, (float(foot[0]), float(foot[1])), px * 0.3, 0.8, MEEPLE_PAINT[COLOUR_NAMES[colour - 1]],
                        rng)
        for k, name in enumerate(still.loose):
            draw_meeple(image, (w * (0.35 + 0.15 * k), h * 0.6), px * 0.3, 0.8, MEEPLE_PAINT[name], rng)
        noise = np.random.default_rng(len(still.tiles) * 7 + len(still.meeples)).normal(0, 3, image.shape)
        return np.clip(image * self.light + noise, 0, 255).astype(np.uint8)


# -- from the script to the stills --------------------------------------------------------------------------
def table_of(seed: int, moves: list[dict[str, Any]]) -> tuple[Laid, Standing]:
    """The board and meeples after `moves` (record form), as the engine has them."""
    state = Match.replay(Record("carcassonne", {}, {"seed": seed}, moves)).game.state()
    tiles = {(t["x"], t["y"]): (t["tile"], t["rot"]) for t in state["board"]}
    return tiles, [((m["x"], m["y"]), m["colour"], m["spot"]) for m in state["meeples"]]


def stills(script: Script) -> list[Still]:
    """Every still of the game's video, in order, with the verdict the referee should give it."""
    out = [Still("meeples shown to calibrate", "unreadable", {}, [], CALIBRATION_MEEPLES),
           Still("start tile", "same", *table_of(script.seed, []))]
    played: list[dict[str, Any]] = []
    for k, move in enumerate(script.moves):
        before, before_meeples = table_of(script.seed, played)
        colour = Match.replay(Record("carcassonne", {}, {"seed": script.seed}, played)).game.state()["colour"]
        cell = (move["x"], move["y"])
        laid = {**before, cell: (move["tile"], move["rot"])}
        lies = oriented(move["tile"], move["rot"])
        standing = [] if move["meeple"] is None else [(cell, colour, lies.spot_of(lies.part_at(move["meeple"])))]
        if k in script.tile_first:
            out.append(Still(f"{move['tile']} laid, no meeple yet", "same", laid, before_meeples))
        played.append(move)
        if k == script.bad:
            out.append(Still(f"{move['tile']} laid against the rules", "violation", laid, [*before_meeples, *standing]))
            continue
        after, after_meeples = table_of(script.seed, played)
        back = [m for m in [*before_meeples, *standing] if m not in after_meeples]
        out.append(Still(f"{move['tile']} and its meeple", "moves", after, [*after_meeples, *back]))
        if back:
            out.append(Still(f"{len(back)} meeple(s) taken back", "same", after, after_meeples))
    return out


def write_video(path: Path, script: Script, size: tuple[int, int] = SIZE,
                dimmed: tuple[int, float] | None = None) -> list[Still]:
    """The game's mp4 (cv2.VideoWriter): each still held HOLD frames, a hand reaching in for HAND frames between.
    `dimmed` (still, factor): from that still on the room's light is multiplied by the factor (a lamp put out)."""
    camera = BoardCamera(script.cells(), size)
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, size)
    rng = np.random.default_rng(21)
    shown = stills(script)
    try:
        for i, still in enumerate(shown):
            image = camera.still(still)
            if dimmed is not None and i >= dimmed[0]:
                image = degrade.relit(image, dimmed[1])
            if i:  # a hand reaches in, lays the tile or the meeple, and leaves
                for _ in range(HAND):
                    frame = image.copy()
                    draw_hand(frame, rng)
                    writer.write(frame)
            for _ in range(HOLD):
                writer.write(image)
    finally:
        writer.release()
    return shown


# -- random games, for the check ----------------------------------------------------------------------------
def random_script(seed: int, moves: int = 10, bad: int = 5) -> Script | None:
    """A random game on three rows (so the camera sees it large), one tile first laid at a wrong turn; None
    when the game cannot be laid out so (or the wrong turn breaks no edge)."""
    rng = random.Random(seed)
    match = Match(Record("carcassonne", {}, {"seed": seed}, []))
    for _ in range(moves):
        if match.game.status != "playing":
            return None
        options = [m for m in match.legal_moves() if abs(m["y"]) <= 1 and abs(m["x"]) <= 3
                   and not (m["tile"] == "D" and m["rot"] == 0)]  # a second upright D would mimic the start tile
        if not options:
            return None
        match.play(rng.choice(options))
    if match.game.status != "playing":
        return None
    record = list(match.record.moves)
    wrong = _wrong_turn(seed, record, bad)
    if wrong is None:
        return None
    record.insert(bad, wrong)
    tile_first = tuple(k for k in (2, bad + 2) if k < len(record) and record[k]["meeple"])
    return Script(seed, tuple(record), bad, tile_first)


def _wrong_turn(seed: int, moves: list[dict[str, Any]], k: int) -> dict[str, Any] | None:
    """moves[k]'s tile at another rotation whose edges do not match, its meeple on the first feature."""
    move = moves[k]
    game = Match.replay(Record("carcassonne", {}, {"seed": seed}, moves[:k])).game
    for rot in (0, 90, 180, 270):
        if canonical_rotation(move["tile"], rot) == canonical_rotation(move["tile"], move["rot"]):
            continue
        lies = oriented(move["tile"], rot)
        if not lies.parts:
            continue
        wrong = {**move, "rot": rot, "meeple": lies.spot_of(0)}
        problem = game.check(game.parse_move(wrong))
        if problem is not None and problem.rule == "edges-mismatch":
            return wrong
    return None


def check(games: int, first: int, dimmed: tuple[int, float] | None = None) -> int:
    """Renders and referees `games` random games with face-down stacks; prints figures; 0 when all are exact."""
    from companion.loop import RefereeLoop
    from companion.recognisers import recogniser_for
    from companion.session import Session
    from companion.store import Store

    exact = verdicts_right = done = 0
    seconds = []
    seed = first
    with tempfile.TemporaryDirectory() as tmp:
        while done < games:
            script = random_script(seed)
            seed += 1
            if script is None:
                continue
            done += 1
            path = Path(tmp) / f"game{script.seed}.mp4"
            shown = write_video(path, script, dimmed=dimmed)
            session = Session(Store(Path(tmp) / f"game{script.seed}.db"))
            session.new_game("carcassonne", {}, {"stacks": "hidden"})
            loop = RefereeLoop(session, recogniser_for("carcassonne"))
            start = time.perf_counter()
            loop.run_file(str(path))
            seconds.append(time.perf_counter() - start)
            got = [c.verdict for c in loop.commits]
            want = [s.verdict for s in shown]
            same_moves = session.record()["moves"] == list(script.moves)
            exact += same_moves
            verdicts_right += got == want
            odd = [(s.name, g) for s, g in zip(shown, got, strict=False) if s.verdict != g]
            print(f"seed {script.seed}: {len(shown)} stills, record {'exact' if same_moves else 'DIFFERS'}, "
                  f"verdicts {'as scripted' if got == want else odd[:3]}", flush=True)
    print(f"{exact}/{games} games refereed to their true moves, {verdicts_right}/{games} with every verdict as "
          f"scripted; median {np.median(seconds):.1f} s to referee a video")
    return 0 if exact == games else 1


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10, help="random games to render and referee (default 10)")
    p.add_argument("--first", type=int, default=1000, help="the first seed tried (default 1000)")
    p.add_argument("--dim", nargs=2, type=float, metavar=("STILL", "FACTOR"),
                   help="from still STILL on (0 is the calibration shot) the room's light times FACTOR, 0.3-2 "
                        "(a lamp put out, a cloud)")
    args = p.parse_args(argv)
    dimmed = None
    if args.dim is not None:
        still, factor = int(args.dim[0]), args.dim[1]
        try:
            degrade.check(light=factor)
        except ValueError as exc:
            p.error(f"--dim: {exc}")
        dimmed = (still, factor)
    return check(args.games, args.first, dimmed)


if __name__ == "__main__":
    raise SystemExit(main())
