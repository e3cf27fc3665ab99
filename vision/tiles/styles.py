"""Art styles the project draws tiles in: one table of colours and strokes per imagined edition.

Real editions differ in palette and detail but agree on meaning (green fields, light roads, walled
cities, blue shields); the styles vary everything the reader must not depend on. `pastel` is kept
out of tuning and serves as the held-out style in evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Style:
    field: RGB
    field_dark: RGB  # grass strokes, trees
    road: RGB
    road_edge: RGB
    city: RGB
    city_dark: RGB
    wall: RGB
    wall_width: float  # fraction of the tile; 0 = no wall
    roof: RGB
    houses: int  # houses drawn per city part
    shield: RGB
    shield_trim: RGB
    monastery: RGB
    monastery_roof: RGB
    texture: float  # 0 flat .. 1 strong
    decor: float  # trees and bushes per field, on average
    outline: RGB
    outline_width: float  # fraction of the tile; 0 = none


STYLES: dict[str, Style] = {
    "classic": Style(
        field=(92, 140, 62), field_dark=(58, 102, 42), road=(226, 220, 200), road_edge=(120, 108, 84),
        city=(196, 156, 98), city_dark=(160, 120, 70), wall=(140, 134, 124), wall_width=0.035,
        roof=(178, 62, 42), houses=5, shield=(38, 70, 160), shield_trim=(235, 235, 230),
        monastery=(214, 196, 160), monastery_roof=(170, 56, 40), texture=0.6, decor=2.0,
        outline=(60, 48, 36), outline_width=0.008,
    ),
    "modern": Style(
        field=(128, 172, 72), field_dark=(86, 136, 50), road=(218, 204, 166), road_edge=(150, 128, 96),
        city=(226, 192, 132), city_dark=(196, 156, 100), wall=(176, 166, 152), wall_width=0.03,
        roof=(204, 92, 52), houses=7, shield=(50, 96, 190), shield_trim=(250, 240, 220),
        monastery=(236, 220, 190), monastery_roof=(196, 80, 48), texture=0.35, decor=3.0,
        outline=(90, 70, 50), outline_width=0.005,
    ),
    "flat": Style(
        field=(104, 182, 92), field_dark=(80, 150, 70), road=(248, 248, 244), road_edge=(200, 200, 196),
        city=(190, 122, 72), city_dark=(170, 104, 60), wall=(90, 62, 44), wall_width=0.015,
        roof=(190, 122, 72), houses=0, shield=(30, 80, 200), shield_trim=(255, 255, 255),
        monastery=(230, 200, 150), monastery_roof=(200, 60, 50), texture=0.0, decor=0.5,
        outline=(40, 40, 40), outline_width=0.0,
    ),
    "painted": Style(
        field=(70, 116, 52), field_dark=(42, 84, 34), road=(204, 192, 168), road_edge=(96, 84, 66),
        city=(172, 132, 92), city_dark=(130, 96, 62), wall=(112, 104, 98), wall_width=0.045,
        roof=(150, 52, 40), houses=4, shield=(44, 72, 168), shield_trim=(220, 210, 190),
        monastery=(190, 176, 150), monastery_roof=(140, 46, 36), texture=1.0, decor=4.0,
        outline=(40, 32, 26), outline_width=0.012,
    ),
    "pastel": Style(
        field=(150, 192, 118), field_dark=(118, 164, 92), road=(242, 236, 222), road_edge=(180, 168, 150),
        city=(222, 174, 142), city_dark=(200, 150, 118), wall=(164, 152, 150), wall_width=0.025,
        roof=(194, 104, 92), houses=6, shield=(76, 110, 200), shield_trim=(250, 250, 250),
        monastery=(240, 226, 206), monastery_roof=(194, 96, 84), texture=0.3, decor=2.5,
        outline=(120, 100, 90), outline_width=0.006,
    ),
}

TRAIN_STYLES = ("classic", "modern", "flat", "painted")
HELD_OUT_STYLES = ("pastel",)
