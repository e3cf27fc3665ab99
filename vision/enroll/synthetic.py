"""Synthetic stand-ins for what a player shows: enrollment grids, play scenes, a new edition, custom cards.

The decks come from the card generator in a style the recogniser was never trained on, the tiles
from the tile painter in an edition of our own colours, the Strijders cards from a small painter
here; each is laid, photographed (perspective, light, blur, noise, JPEG) and known exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw

from vision.enroll.grids import Grid, cells
from vision.synth.cards import card_alpha, card_height, face_style, render_back, render_face
from vision.synth.fonts import font, index_fonts
from vision.synth.scene import Placement, camera, compose, paste_card_mask, photo_effects, project
from vision.tiles.board import random_board
from vision.tiles.render import render_tile
from vision.tiles.styles import Style

# Deck styles 0..199 train the card recogniser (datasets/cards/synth.yaml); these are never seen by it.
UNSEEN_STYLES: tuple[int, ...] = (4242, 5151, 6060, 7373)
CARD_MM = (63.0, 88.0)
TILE_MM = 45.0
TILE_PX = 192  # tiles are painted at one size: the painter's random draws depend on it, so copies of a letter
# painted at another size would get other decor (houses, dots), unlike the copies of a printed edition

# A tile edition of our own: autumn colours, heavy texture, thick outlines (no training style is like it).
AUTUMN = Style(
    field=(168, 150, 70), field_dark=(130, 104, 44), road=(236, 226, 214), road_edge=(110, 80, 60),
    city=(170, 96, 70), city_dark=(130, 64, 50), wall=(90, 80, 90), wall_width=0.04,
    roof=(60, 60, 120), houses=3, shield=(160, 40, 140), shield_trim=(250, 230, 120),
    monastery=(220, 210, 200), monastery_roof=(60, 90, 140), texture=0.8, decor=3.0,
    outline=(50, 30, 30), outline_width=0.01,
)

RARITY_RGB: dict[str, tuple[int, int, int]] = {
    "yellow": (230, 200, 40), "green": (60, 170, 70), "blue": (50, 90, 200), "red": (200, 40, 40),
    "hero": (120, 40, 160),
}


@dataclass
class Photo:
    image: np.ndarray
    corners: dict[str, np.ndarray]  # label -> (4, 2) image px, clockwise from the object's top-left


def cloth(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A plain dark cloth, as the dashboard asks for, with a little weave and shading."""
    base = rng.uniform(15, 95, 3).astype(np.float32)
    weave = rng.normal(0, 1, (h, w)).astype(np.float32)
    shade = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = base[None, None, :] * (1 + 0.05 * weave[..., None] + 0.08 * shade[..., None])
    return np.clip(img, 0, 255).astype(np.uint8)


def lay_grid(images: dict[str, np.ndarray], grid: Grid, size_mm: tuple[float, float], rng: np.random.Generator,
             photo_size: tuple[int, int] = (2000, 1500), gap_mm: float = 14.0, max_tilt: float = 0.3,
             alphas: dict[str, np.ndarray] | None = None, effects: bool = True) -> Photo:
    """Objects laid loosely in the grid's cells on a cloth and photographed from a random side."""
    w_mm, h_mm = size_mm
    pitch = np.array([w_mm + gap_mm, h_mm + gap_mm])
    where = cells(grid)
    local = np.array([[0, 0], [w_mm, 0], [w_mm, h_mm], [0, h_mm]], np.float32) - np.array([w_mm, h_mm]) / 2
    quads_mm: dict[str, np.ndarray] = {}
    for (r, c), label in where.items():
        a = np.radians(rng.normal(0, 2.5))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        centre = (np.array([c, r]) + 0.5) * pitch + rng.normal(0, 2.0, 2)
        quads_mm[label] = local @ rot.T + centre
    rows, cols = len(grid), max(len(row) for row in grid)
    extent = (-10.0, -10.0, cols * pitch[0] + 10.0, rows * pitch[1] + 10.0)
    hom = camera(extent, photo_size, rng, max_tilt=max_tilt, fill=(0.75, 0.92))
    scene = cloth(rng, *photo_size)
    truth: dict[str, np.ndarray] = {}
    for label, q in quads_mm.items():
        corners = project(hom, q)
        img = images[label]
        alpha = (alphas or {}).get(label)
        paste_card_mask(scene, img, corners, alpha, shadow=0.25)
        truth[label] = corners
    return Photo(photo_effects(scene, rng) if effects else scene, truth)


def deck_images(style: int, backs: tuple[int, ...], width: int = 200) -> dict[str, np.ndarray]:
    from engine.cards import full_deck

    out = {c.code: render_face(c.code, style, width) for c in full_deck()}
    out.update({f"back{i}": render_back(d, width) for i, d in enumerate(backs)})
    return out


def deck_alphas(style: int, labels: list[str], width: int = 200) -> dict[str, np.ndarray]:
    radius = face_style(style).corner_radius
    return {label: card_alpha(width, radius if not label.startswith("back") else 3.0) for label in labels}


def deck_photo(style: int, grid: Grid, backs: tuple[int, ...], rng: np.random.Generator,
               photo_size: tuple[int, int] = (2000, 1500)) -> Photo:
    """A photo of a deck laid in an enrollment grid."""
    images = deck_images(style, backs)
    labels = list(cells(grid).values())
    return lay_grid({k: images[k] for k in labels}, grid, CARD_MM, rng, photo_size,
                    alphas=deck_alphas(style, labels))


def play_scene(style: int, rng: np.random.Generator, n_cards: int = 12, backs: tuple[int, ...] = (),
               size: tuple[int, int] = (1280, 720)) -> tuple[np.ndarray, list[tuple[str, np.ndarray, float]]]:
    """Cards of one deck strewn on a table (any table, any turn, some overlap): (image, [(code, corners, visible)])."""
    from engine.cards import full_deck

    codes = [c.code for c in full_deck()]
    picked = [codes[i] for i in rng.choice(len(codes), n_cards, replace=False)]
    places = []
    cols = int(np.ceil(np.sqrt(n_cards * 1.6)))
    for i, code in enumerate(picked):
        r, c = divmod(i, cols)
        centre = (c * 80.0 + rng.normal(0, 8), r * 105.0 + rng.normal(0, 8))
        places.append(Placement(code, centre, float(rng.uniform(-180, 180)), style=style))
    for design in backs:
        places.append(Placement(None, (float(rng.uniform(0, cols * 80)), -110.0), float(rng.uniform(-30, 30)),
                                design=design))
    image, truths, _ = compose(places, rng, size=size, hands=int(rng.random() < 0.3), max_tilt=0.4,
                               fill=(0.5, 0.95))
    found = []
    for t, p in zip(truths, places, strict=True):
        label = t.code if p.code is not None else f"back{backs.index(p.design)}"
        found.append((label, t.corners, t.visible))
    return image, found


# -- tiles ---------------------------------------------------------------------------------------------
def tile_art(letter: str, rotation: int, style: Style, size: int) -> np.ndarray:
    """A tile as its edition prints it: every copy of a letter alike (the decor is seeded by the letter)."""
    return render_tile(letter, rotation, style, size, np.random.default_rng(ord(letter)))


def edition_images(style: Style, rng: np.random.Generator, size: int = TILE_PX) -> dict[str, np.ndarray]:
    from vision.tiles.catalog import TILES

    return {letter: tile_art(letter, 0, style, size) for letter in TILES}


def edition_photo(style: Style, grid: Grid, rng: np.random.Generator,
                  photo_size: tuple[int, int] = (1600, 1600)) -> Photo:
    """One tile of each letter laid in the tile grid, photographed."""
    images = edition_images(style, rng)
    square = {k: np.full(v.shape[:2], 255, np.uint8) for k, v in images.items()}
    return lay_grid(images, grid, (TILE_MM, TILE_MM), rng, photo_size, gap_mm=12.0, alphas=square)


def board_scene(style: Style, rng: np.random.Generator, n_tiles: int = 16, size: tuple[int, int] = (1280, 960),
                tile_px: int = TILE_PX) -> tuple[np.ndarray, list[tuple[str, int, np.ndarray]]]:
    """A game board in that edition: tiles touching, small gaps and turns; (image, [(letter, rotation, corners)]).

    Painted at another `tile_px` than the enrolled tiles, each tile has other decor than its enrolled copy.
    """
    board = random_board(n_tiles, rng)
    x0, y0, _, _ = board.bounds()
    images, quads_mm = {}, {}
    for (x, y), (letter, rotation) in board.tiles.items():
        key = f"{x},{y}"
        images[key] = tile_art(letter, rotation, style, tile_px)
        a = np.radians(rng.normal(0, 1.5))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        half = TILE_MM * 0.985 / 2
        local = np.array([[-half, -half], [half, -half], [half, half], [-half, half]], np.float32)
        centre = (np.array([x - x0, y - y0]) + 0.5) * TILE_MM + rng.normal(0, 0.6, 2)
        quads_mm[key] = local @ rot.T + centre
    all_mm = np.concatenate(list(quads_mm.values()))
    extent = (float(all_mm[:, 0].min() - 30), float(all_mm[:, 1].min() - 30), float(all_mm[:, 0].max() + 30),
              float(all_mm[:, 1].max() + 30))
    hom = camera(extent, size, rng, max_tilt=0.35, fill=(0.6, 0.95))
    scene = cloth(rng, *size) if rng.random() < 0.5 else _wood(rng, size)
    square = np.full((tile_px, tile_px), 255, np.uint8)
    found = []
    for key, q in quads_mm.items():
        corners = project(hom, q)
        paste_card_mask(scene, images[key], corners, square, shadow=0.2)
        x, y = (int(v) for v in key.split(","))
        letter, rotation = board.tiles[(x, y)]
        found.append((letter, rotation, corners))
    return photo_effects(scene, rng), found


def _wood(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    from vision.synth.textures import table

    return table(rng, size[0], size[1], kind="wood")


# -- Strijders -----------------------------------------------------------------------------------------
def render_strijders(card: dict[str, object], width: int = 252) -> np.ndarray:
    """A custom card: rarity frame, name, score medallion, made-up art seeded by the id, effect text."""
    h = card_height(width)
    s = width / 63.0
    rarity = RARITY_RGB.get(str(card.get("rarity", "yellow")), (128, 128, 128))
    img = Image.new("RGB", (width, h), rarity)
    d = ImageDraw.Draw(img)
    d.rectangle([2.5 * s, 2.5 * s, width - 2.5 * s, h - 2.5 * s], fill=(245, 240, 228))
    seed = int.from_bytes(str(card.get("id", "")).encode()[:8].ljust(8, b"\0"), "little") % (2**32)
    rng = np.random.default_rng(seed)
    art = [4 * s, 16 * s, width - 4 * s, 56 * s]
    d.rectangle(art, fill=tuple(int(v) for v in rng.integers(60, 220, 3)))
    for _ in range(6):
        x0, y0 = rng.uniform(art[0], art[2] - 10 * s), rng.uniform(art[1], art[3] - 10 * s)
        w, hh = rng.uniform(6, 26) * s, rng.uniform(6, 26) * s
        box = [x0, y0, min(art[2], x0 + w), min(art[3], y0 + hh)]
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        (d.ellipse if rng.random() < 0.5 else d.rectangle)(box, fill=colour)
    fonts = index_fonts()
    d.ellipse([3.5 * s, 3.5 * s, 13.5 * s, 13.5 * s], fill=rarity, outline=(20, 20, 20), width=max(1, int(s / 2)))
    d.text((8.5 * s, 8.5 * s), str(card.get("score", "")), font=font(fonts[0], int(6 * s)), fill=(255, 255, 255),
           anchor="mm")
    d.text((16 * s, 8.5 * s), str(card.get("name", "")), font=font(fonts[0], int(5 * s)), fill=(20, 20, 20),
           anchor="lm")
    d.text((5 * s, 60 * s), str(card.get("type", "")).upper(), font=font(fonts[3 % len(fonts)], int(3.5 * s)),
           fill=rarity, anchor="lt")
    text = str(card.get("text", ""))
    words, line, y = text.split(), "", 66 * s
    small = font(fonts[1 % len(fonts)], int(3.2 * s))
    for word in words:
        trial = f"{line} {word}".strip()
        if d.textlength(trial, font=small) > width - 10 * s and line:
            d.text((5 * s, y), line, font=small, fill=(30, 30, 30))
            line, y = word, y + 4.2 * s
        else:
            line = trial
    if line:
        d.text((5 * s, y), line, font=small, fill=(30, 30, 30))
    return np.ascontiguousarray(np.asarray(img)[:, :, ::-1])


def strijders_photo(card: dict[str, object], rng: np.random.Generator,
                    photo_size: tuple[int, int] = (1200, 1600)) -> Photo:
    """One custom card alone on a cloth, as a phone takes it."""
    img = render_strijders(card, 300)
    grid: Grid = ((str(card["id"]),),)
    return lay_grid({str(card["id"]): img}, grid, CARD_MM, rng, photo_size, max_tilt=0.25)


def strijders_scene(cards: list[dict[str, object]], rng: np.random.Generator,
                    size: tuple[int, int] = (1280, 720)) -> tuple[np.ndarray, list[tuple[str, np.ndarray]]]:
    """A few custom cards laid on a table at any turn: (image, [(id, corners)])."""
    from vision.synth.textures import table

    scene = table(rng, *size)
    found = []
    n = len(cards)
    hom = camera((-10, -10, n * 80.0 + 10, 110.0), size, rng, max_tilt=0.35, fill=(0.6, 0.95))
    for i, card in enumerate(cards):
        a = np.radians(rng.uniform(-20, 20))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        local = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32) - np.array([31.5, 44])
        corners = project(hom, local @ rot.T + np.array([i * 80.0 + 35, 50]))
        paste_card_mask(scene, render_strijders(card, 200), corners, card_alpha(200, 3.0), shadow=0.3)
        found.append((str(card["id"]), corners))
    return photo_effects(scene, rng), found
