"""Renders the demo video: a whole Scoundrel game laid card by card by hands, shot from above.

The game is data (DEMO_DUNGEON, DEMO_MOVES); the engine turns it into table states and hand visits,
and vision.synth draws the cards, the table and the hands. The video, the game's record and a timeline
(the frame at which each hand leaves the table, for the latency benchmark) go to datasets/demo/.
Run `python -m companion.demo_render` to make them again; the output is deterministic.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine.match import Match
from engine.record import Record

DEMO_DIR = Path(__file__).resolve().parents[1] / "datasets" / "demo"
DEMO_NAME = "scoundrel-demo"
DEMO_DUNGEON: tuple[str, ...] = (
    "8C", "4C", "8H", "AS", "8S", "9S", "10D", "7C", "4H", "6H",
    "6D", "7D", "5S", "3H", "3S", "JS", "4D", "5H", "8D", "5C",
)
DEMO_MOVES: tuple[str, ...] = (
    "run", "equip 10D", "fight 9S weapon", "fight 8S weapon", "equip 6D", "fight 7C weapon", "drink 4H",
    "equip 7D", "fight 5S weapon", "drink 6H", "equip 4D", "fight 3S weapon", "fight JS weapon", "fight JS bare",
    "equip 8D", "drink 5H", "fight 5C weapon", "drink 3H", "fight 4C weapon", "fight 8C bare", "drink 8H",
    "fight AS bare",
)
SIZE = (960, 540)
FPS = 15
SEED = 8
LEG_MM_PER_FRAME = 40.0  # hand speed (600 mm/s)
HOLD_FRAMES = 1  # the hand pauses on each card it takes or lays
PAUSE_FRAMES = 8  # stillness between two hand visits

CARD_W, CARD_H = 63.0, 88.0
STEP = CARD_W + 14.0
DUNGEON_AT = (0.0, 0.0)
DISCARD_AT = (5 * STEP + 8.0, 0.0)
WEAPON_AT = (2.0 * STEP, CARD_H + 24.0)
FAN_MM = 24.0
EXTENT = (-CARD_W / 2 - 18, -CARD_H / 2 - 18,
          DISCARD_AT[0] + CARD_W / 2 + 18, WEAPON_AT[1] + 4 * FAN_MM + CARD_H / 2 + 16)


def slot_at(k: int) -> tuple[float, float]:
    return ((k + 1) * STEP, 0.0)


def monster_at(k: int) -> tuple[float, float]:
    return (WEAPON_AT[0] + 3.0 * (k + 1), WEAPON_AT[1] + FAN_MM * (k + 1))


@dataclass
class Table:
    """The physical table: what lies where (piles as counts, face-up cards as codes)."""

    dungeon: int
    slots: list[str | None] = field(default_factory=lambda: [None] * 4)
    weapon: str | None = None
    monsters: list[str] = field(default_factory=list)
    discard: int = 0

    def key(self) -> tuple[Any, ...]:
        return (self.dungeon, tuple(self.slots), self.weapon, tuple(self.monsters), self.discard)


Action = Callable[[Table], None]


@dataclass
class Step:
    at: tuple[float, float]  # table mm where the palm goes
    act: Action  # what happens to the table when it gets there
    carried: str | None  # the card shown in the hand afterwards ("back" for a face-down one)


@dataclass
class Visit:
    steps: list[Step]
    moves: list[str]  # record moves this visit completes


def demo_record() -> Record:
    return Record("scoundrel", {}, {"dungeon": list(DEMO_DUNGEON)}, list(DEMO_MOVES))


# -- from the record to hand visits ------------------------------------------------------------
def plan(record: Record) -> tuple[Table, list[Visit]]:
    """The hand visits that play `record` on a table; each deal, move or restoration is one visit."""
    match = Match(Record(record.game, record.options, record.setup, []))
    table = Table(dungeon=len(record.setup["dungeon"]))
    start = Table(**{**table.__dict__, "slots": list(table.slots)})
    visits: list[Visit] = []
    visits += _deals(match, table)
    for raw in record.moves:
        before = match.game.state()
        violation = match.play(raw)
        visits += _move_visits(raw, before, table, violation is not None)
        visits += _deals(match, table)
    return start, visits


def _deals(match: Match, table: Table) -> list[Visit]:
    """One visit lays every new room card, top of the dungeon first, into the free places left to right."""
    steps = []
    for code in match.game.state()["room"]:
        if code in table.slots:
            continue
        k = table.slots.index(None)
        table.slots[k] = code
        steps += [Step(DUNGEON_AT, _take_from_dungeon, "back"), Step(slot_at(k), _put_slot(k, code), None)]
    return [Visit(steps, [])] if steps else []


def _move_visits(raw: str, before: dict[str, Any], table: Table, illegal: bool) -> list[Visit]:
    words = raw.split()
    if words[0] == "run":
        steps = [Step(slot_at(k), _take_slot(k), code) for k, code in enumerate(table.slots) if code]
        steps.append(Step(DUNGEON_AT, _under_dungeon(len(steps)), None))
        table.slots = [None] * 4
        return [Visit(steps, [raw])]
    code = words[1]
    k = table.slots.index(code)
    take = Step(slot_at(k), _take_slot(k), code)
    if illegal:  # laid on the blunted weapon, then taken back to the room
        at = monster_at(len(table.monsters))
        laid = Visit([take, Step(at, _put_monster(code), None)], [raw])
        back = Visit([Step(at, _take_monster(code), code), Step(slot_at(k), _put_slot(k, code), None)], [])
        return [laid, back]
    table.slots[k] = None
    if words[0] == "equip":
        steps = []
        if table.weapon:
            steps += [Step(WEAPON_AT, _take_weapon_stack, table.weapon),
                      Step(DISCARD_AT, _discard(1 + len(table.monsters)), None)]
        table.weapon, table.monsters = code, []
        return [Visit(steps + [take, Step(WEAPON_AT, _put_weapon(code), None)], [raw])]
    if words[-1] == "weapon":
        at = monster_at(len(table.monsters))
        table.monsters.append(code)
        return [Visit([take, Step(at, _put_monster(code), None)], [raw])]
    return [Visit([take, Step(DISCARD_AT, _discard(1), None)], [raw])]


def _take_from_dungeon(t: Table) -> None:
    t.dungeon -= 1


def _put_slot(k: int, code: str) -> Action:
    def act(t: Table) -> None:
        t.slots[k] = code
    return act


def _take_slot(k: int) -> Action:
    def act(t: Table) -> None:
        t.slots[k] = None
    return act


def _under_dungeon(n: int) -> Action:
    def act(t: Table) -> None:
        t.dungeon += n
    return act


def _put_monster(code: str) -> Action:
    def act(t: Table) -> None:
        t.monsters.append(code)
    return act


def _take_monster(code: str) -> Action:
    def act(t: Table) -> None:
        t.monsters.remove(code)
    return act


def _take_weapon_stack(t: Table) -> None:
    t.weapon, t.monsters = None, []


def _put_weapon(code: str) -> Action:
    def act(t: Table) -> None:
        t.weapon = code
    return act


def _discard(n: int) -> Action:
    def act(t: Table) -> None:
        t.discard += n
    return act


# -- drawing ------------------------------------------------------------------------------------
class Painter:
    """A fixed camera over a fixed table: static layers cached, hands and carried cards per frame."""

    def __init__(self, size: tuple[int, int] = SIZE, seed: int = SEED) -> None:
        from vision.synth.textures import table as table_texture

        self.size = size
        w, h = size
        self.hom = _camera(size)
        rng = np.random.default_rng(seed)
        self.texture = table_texture(rng, w, h, kind="felt")
        self.card_px = int(CARD_W * np.sqrt(abs(np.linalg.det(self.hom[:2, :2]))) * 1.4)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        self.light = (0.82 + 0.22 * (1 - ((xx / w - 0.4) ** 2 + (yy / h - 0.3) ** 2)))[:, :, None].clip(0.7, 1.05)
        self._static: dict[tuple[Any, ...], np.ndarray] = {}
        self.seed = seed

    def project(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(-1, 1, 2), self.hom).reshape(-1, 2)

    def static(self, table: Table) -> np.ndarray:
        key = table.key()
        if key not in self._static:
            if len(self._static) > 8:
                self._static.clear()
            self._static[key] = self._draw_static(table)
        return self._static[key]

    def _draw_static(self, table: Table) -> np.ndarray:
        scene = self.texture.copy()
        rng = np.random.default_rng(self.seed)
        for i in range(min(table.dungeon, 6)):
            self.paste(scene, "back", (DUNGEON_AT[0] + rng.normal(0, 0.8), DUNGEON_AT[1] - 0.5 * i), rng.normal(0, 2))
        for k, code in enumerate(table.slots):
            if code:
                self.paste(scene, code, slot_at(k), 1.5 * np.sin(k * 2.1))
        if table.weapon:
            self.paste(scene, table.weapon, WEAPON_AT, -1.0)
        for k, code in enumerate(table.monsters):
            self.paste(scene, code, monster_at(k), 1.2 * np.sin(k * 1.7))
        for i in range(min(table.discard, 6)):
            self.paste(scene, "back", (DISCARD_AT[0] + rng.normal(0, 1.2), DISCARD_AT[1] - 0.5 * i), rng.normal(0, 4))
        return scene

    def paste(self, scene: np.ndarray, code: str, centre: tuple[float, float], angle: float) -> np.ndarray:
        """Lays a card (its code or "back") centred at table mm `centre`; returns its corners (image px)."""
        from vision.synth.cards import card_alpha
        from vision.synth.scene import paste_card_mask

        a = np.radians(angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        local = np.array([[-CARD_W / 2, -CARD_H / 2], [CARD_W / 2, -CARD_H / 2], [CARD_W / 2, CARD_H / 2],
                          [-CARD_W / 2, CARD_H / 2]], np.float32)
        corners = self.project(local @ rot.T + np.array(centre, np.float32))
        paste_card_mask(scene, _card_image(code, self.card_px), corners, card_alpha(self.card_px), shadow=0.25)
        return corners

    def pawn(self, scene: np.ndarray, at: tuple[float, float], paint: tuple[int, int, int], tilt: float = 0.0,
             seed: int = 0) -> tuple[float, float]:
        """Stands a wooden pawn on table mm `at` (`tilt`: degrees the camera looks off vertical); returns its foot."""
        foot = self.project(np.array([at]))[0]
        px_mm = float(np.linalg.norm(self.project(np.array([[at[0] + 1.0, at[1]]]))[0] - foot))
        draw_pawn(scene, (float(foot[0]), float(foot[1])), px_mm, paint, tilt, np.random.default_rng(seed))
        return float(foot[0]), float(foot[1])

    def frame(self, table: Table, hand: tuple[float, float] | None, carried: str | None, visit: int) -> np.ndarray:
        scene = self.static(table).copy()
        if hand is not None:
            if carried:
                self.paste(scene, carried, (hand[0], hand[1] - 10.0), 4.0)
            self.hand(scene, hand, visit)
        return (scene.astype(np.float32) * self.light).clip(0, 255).astype(np.uint8)

    def hand(self, scene: np.ndarray, at: tuple[float, float], visit: int) -> None:
        """A hand whose palm is over table mm `at`, its arm coming in from the bottom edge (one look per visit)."""
        from vision.synth.hands import hand_mask, paint_hand

        w, h = self.size
        ax, ay = self.project(np.array([at]))[0]
        # The arm comes in from the bottom edge: draw on a canvas where that edge is the nearest one.
        mask = hand_mask((2 * h, 3 * w), np.random.default_rng(1000 + visit), (int(ax) + w, int(ay) + h))
        paint_hand(scene, np.random.default_rng(2000 + visit), np.ascontiguousarray(mask[h:, w:2 * w]))


# a turned wooden pawn, from its foot up: (height mm, radius mm) of its profile; the head is a ball on top
PAWN_PROFILE = ((0.0, 9.0), (3.0, 9.0), (4.5, 6.5), (14.0, 3.8), (16.0, 4.5), (19.0, 6.0), (23.0, 4.8), (25.0, 0.0))
PAWN_LIGHT = np.array([-0.4, -0.45, 0.8])  # towards the lamp: left, far side (image up), above


def draw_pawn(img: np.ndarray, foot: tuple[float, float], px_mm: float, paint: tuple[int, int, int], tilt: float,
              rng: np.random.Generator) -> np.ndarray:
    """A shaded pawn and its soft shadow, drawn as stacked discs of its profile seen `tilt` degrees off vertical.

    Each disc at height z is an ellipse (squashed by cos tilt) shifted towards the image top by z sin tilt;
    the higher discs cover the lower ones, as the nearer parts do for a camera above. Painted at twice the
    size and shrunk, so its rim is smooth. Returns the image-sized mask of the pawn's own pixels.
    """
    k = 2  # supersampling
    t = np.radians(tilt)
    s = px_mm * k
    top = PAWN_PROFILE[-1][0]
    half = int(np.ceil((max(r for _, r in PAWN_PROFILE) + top) * px_mm)) + 4
    x0, y0 = int(foot[0]) - half, int(foot[1]) - half
    size = 2 * half * k
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
    cx, cy = (foot[0] - x0) * k, (foot[1] - y0) * k
    colour = np.clip(np.array(paint, np.float32) * rng.uniform(0.92, 1.08) + rng.normal(0, 5, 3), 0, 255)
    out = np.zeros((size, size, 3), np.float32)
    cover = np.zeros((size, size), np.float32)
    heights = np.linspace(0.0, top, 60)
    radii = np.interp(heights, [h for h, _ in PAWN_PROFILE], [r for _, r in PAWN_PROFILE])
    slope = np.gradient(radii, heights)
    # the cast shadow: the pawn's outline thrown away from the lamp, blurred
    shadow = np.zeros((size, size), np.float32)
    for z, r in zip(heights, radii, strict=True):
        sx, sy = cx + 0.35 * z * s, cy + 0.25 * z * s * np.cos(t)
        cv2.ellipse(shadow, (int(sx), int(sy)), (max(1, int(r * s)), max(1, int(r * s * np.cos(t)))), 0, 0, 360, 1, -1)
    for z, r, dr in zip(heights, radii, slope, strict=True):
        if r <= 0:
            continue
        ex, ey = cx, cy - z * s * np.sin(t)
        u, v = (xx - ex) / (r * s), (yy - ey) / (r * s * max(np.cos(t), 1e-3))
        inside = u * u + v * v <= 1.0
        # the surface normal there: outwards around the axis, tipped up where the profile narrows
        n = np.stack([u, v * np.cos(t), np.full_like(u, -dr)], axis=-1)
        n[..., 2] += np.sqrt(np.clip(1 - u * u - v * v, 0, 1)) * (1.0 if z >= top - 6.5 or z < 3.5 else 0.2)
        n /= np.linalg.norm(n, axis=-1, keepdims=True) + 1e-6
        lit = np.clip(n @ PAWN_LIGHT, 0, 1)
        shade = 0.62 + 0.45 * lit + 0.2 * lit ** 12  # ambient, diffuse, a little gloss of the varnish
        out[inside] = colour * shade[inside, None]
        cover[inside] = 1.0
    small = (2 * half, 2 * half)
    cover = cv2.resize(cover, small, interpolation=cv2.INTER_AREA)
    out = cv2.resize(out, small, interpolation=cv2.INTER_AREA)
    shadow = cv2.GaussianBlur(cv2.resize(shadow, small, interpolation=cv2.INTER_AREA), (0, 0), 1.5 * px_mm)
    h, w = img.shape[:2]
    drawn = np.zeros((h, w), bool)
    bx0, by0, bx1, by1 = max(0, x0), max(0, y0), min(w, x0 + 2 * half), min(h, y0 + 2 * half)
    if bx1 <= bx0 or by1 <= by0:
        return drawn
    crop = np.s_[by0 - y0:by1 - y0, bx0 - x0:bx1 - x0]
    roi = img[by0:by1, bx0:bx1].astype(np.float32) * (1 - 0.45 * shadow[crop][..., None])
    a = cover[crop][..., None]
    lit = out[crop] / np.maximum(a, 1e-6)
    img[by0:by1, bx0:bx1] = (roi * (1 - a) + lit * a).clip(0, 255).astype(np.uint8)
    drawn[by0:by1, bx0:bx1] = a[..., 0] > 0.5
    return drawn


@cache
def _card_image(code: str, width: int) -> np.ndarray:
    from vision.synth.cards import render_back, render_face

    return render_back(0, width) if code == "back" else render_face(code, 0, width)


def _camera(size: tuple[int, int]) -> np.ndarray:
    """Table mm -> image: the play area fitted to the frame, its far edge 7% narrower (a slight tilt)."""
    w, h = size
    x0, y0, x1, y1 = EXTENT
    scale = min((w - 40) / (x1 - x0), (h - 20) / (y1 - y0))
    cw, ch = (x1 - x0) * scale, (y1 - y0) * scale
    left, top = (w - cw) / 2, (h - ch) / 2
    squeeze = 0.07 * cw / 2
    src = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    dst = np.float32([[left + squeeze, top], [left + cw - squeeze, top], [left + cw, top + ch], [left, top + ch]])
    return cv2.getPerspectiveTransform(src, dst)


# -- the video ------------------------------------------------------------------------------------
def frames(record: Record, painter: Painter) -> Any:
    """Yield (frame, event) pairs; event is None or ('leave', visit index) on the first hand-free frame."""
    table, visits = plan(record)
    still = painter.frame(table, None, None, 0)
    for _ in range(PAUSE_FRAMES):
        yield still, None
    for v, visit in enumerate(visits):
        pos = (visit.steps[0].at[0], EXTENT[3] + 30.0)
        carried: str | None = None
        for step in visit.steps:
            for p in _path(pos, step.at):
                yield painter.frame(table, p, carried, v), None
            for _ in range(HOLD_FRAMES):
                yield painter.frame(table, step.at, carried, v), None
            step.act(table)
            carried = step.carried
            pos = step.at
        for p in _path(pos, (pos[0] + 20.0, EXTENT[3] + 70.0)):
            yield painter.frame(table, p, None, v), None
        still = painter.frame(table, None, None, v)
        yield still, ("leave", v)
        for _ in range(PAUSE_FRAMES - 1):
            yield still, None


def _path(a: tuple[float, float], b: tuple[float, float]) -> list[tuple[float, float]]:
    n = max(3, int(np.hypot(b[0] - a[0], b[1] - a[1]) / LEG_MM_PER_FRAME))
    out = []
    for i in range(1, n + 1):
        t = i / n
        s = t * t * (3 - 2 * t)  # ease in and out
        out.append((a[0] + (b[0] - a[0]) * s, a[1] + (b[1] - a[1]) * s))
    return out


def render(out_dir: Path = DEMO_DIR, name: str = DEMO_NAME, size: tuple[int, int] = SIZE,
           limit: int | None = None) -> Path:
    """Write `<name>.mp4`, `<name>.record.json`, `<name>.timeline.json` and `<name>.demo.json`."""
    record = demo_record()
    out_dir.mkdir(parents=True, exist_ok=True)
    video = out_dir / f"{name}.mp4"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"mp4v"), FPS, size)
    _, visits = plan(record)
    leaves = []
    n = 0
    for n, (image, event) in enumerate(frames(record, Painter(size))):
        if limit is not None and n >= limit:
            break
        writer.write(image)
        if event is not None:
            leaves.append({"frame": n, "moves": visits[event[1]].moves})
    writer.release()
    (out_dir / f"{name}.record.json").write_text(record.dumps() + "\n", encoding="utf-8")
    timeline = {"fps": FPS, "frames": n + 1, "size": list(size), "leaves": leaves}
    (out_dir / f"{name}.timeline.json").write_text(json.dumps(timeline, indent=1) + "\n", encoding="utf-8")
    deck = sorted(record.setup["dungeon"])
    config = {"video": video.name, "game": record.game, "options": record.options, "setup": {"deck": deck},
              "record": f"{name}.record.json", "timeline": f"{name}.timeline.json"}
    (out_dir / f"{name}.demo.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    return video


if __name__ == "__main__":
    print(render())
