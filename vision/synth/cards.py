"""Card faces and backs drawn by the project itself: several index fonts and letters, pip and court styles.

Faces are drawn in millimetres on a 63 x 88 mm card (poker size) and rasterised at twice the asked
width, then shrunk, so edges are antialiased. `style` picks a deck: style 0 is a plain English deck,
every other number a reproducible random deck (font, language, ace/ten form, suit shapes, colours).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw

from vision.synth.court_art import COURT_ART, picture
from vision.synth.fonts import ACE_LETTERS, COURT_LETTERS, SUIT_GLYPHS, TEN_LETTERS, font, index_fonts, rank_label

CARD_W_MM, CARD_H_MM = 63.0, 88.0
JOKER = "JOKER"
SUPERSAMPLE = 2

# Pip positions (x, y) in the pip field (0..1 both ways) for ranks 2..10; pips below the middle are upside down.
_L, _M, _R = 0.0, 0.5, 1.0
PIP_LAYOUTS: dict[str, tuple[tuple[float, float], ...]] = {
    "A": ((_M, 0.5),),
    "2": ((_M, 0.0), (_M, 1.0)),
    "3": ((_M, 0.0), (_M, 0.5), (_M, 1.0)),
    "4": ((_L, 0.0), (_R, 0.0), (_L, 1.0), (_R, 1.0)),
    "5": ((_L, 0.0), (_R, 0.0), (_M, 0.5), (_L, 1.0), (_R, 1.0)),
    "6": ((_L, 0.0), (_R, 0.0), (_L, 0.5), (_R, 0.5), (_L, 1.0), (_R, 1.0)),
    "7": ((_L, 0.0), (_R, 0.0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_L, 1.0), (_R, 1.0)),
    "8": ((_L, 0.0), (_R, 0.0), (_M, 0.25), (_L, 0.5), (_R, 0.5), (_M, 0.75), (_L, 1.0), (_R, 1.0)),
    "9": ((_L, 0.0), (_R, 0.0), (_L, 1 / 3), (_R, 1 / 3), (_M, 0.5), (_L, 2 / 3), (_R, 2 / 3), (_L, 1.0), (_R, 1.0)),
    "10": (
        (_L, 0.0), (_R, 0.0), (_M, 1 / 6), (_L, 1 / 3), (_R, 1 / 3),
        (_L, 2 / 3), (_R, 2 / 3), (_M, 5 / 6), (_L, 1.0), (_R, 1.0),
    ),
}


@dataclass(frozen=True)
class FaceStyle:
    """One deck design. Lengths in mm on the 63 x 88 card."""

    font: Path
    language: str
    ace: str
    ten: str
    glyph_suits: bool  # font glyphs, or the project's own geometric suit shapes
    red: tuple[int, int, int]  # RGB
    black: tuple[int, int, int]
    paper: tuple[int, int, int]
    corner_radius: float
    index_x: float  # centre of the index column
    index_top: float
    rank_h: float  # cap height of the rank letters
    suit_h: float
    pip_h: float
    court_palette: tuple[tuple[int, int, int], ...]
    four_index: bool
    ten_width: float = 0.95  # widest "10", in rank heights (squeezed to a letter's width; big-index decks wider)

    @property
    def index_box_mm(self) -> tuple[float, float, float, float]:
        """The top-left index (rank and suit) as x0, y0, x1, y1 on the card, with a small margin."""
        half_w = max(self.rank_h * 0.62, self.suit_h * 0.55) + 0.6
        bottom = self.index_top + self.rank_h + 0.8 + self.suit_h + 0.6
        return (max(0.3, self.index_x - half_w), max(0.3, self.index_top - 0.7), self.index_x + half_w, bottom)


BIG_INDEX = 1_000_000  # deck styles from here are style - BIG_INDEX with a big index (`_big_index`); far above
# the styles in use (training 1..199, enrollment's unseen decks in the thousands)
BIG_INDEX_MM = ((7.5, 9.5), (4.5, 6.0), (5.5, 7.0), (3.0, 5.0), (0.65, 0.95))  # ranges of rank_h, suit_h,
# index_x, index_top (mm) and ten_width (rank heights) of a big-index deck


@cache
def face_style(style: int = 0) -> FaceStyle:
    """Deck `style`: 0 is a plain English deck, any other number a reproducible random one."""
    if style >= COURT_ART:  # the same deck, its courts printed (`_draw_court_art`)
        return face_style(style - COURT_ART)
    if style >= BIG_INDEX:
        return _big_index(face_style(style - BIG_INDEX), style)
    fonts = index_fonts()
    if style == 0:
        return FaceStyle(fonts[0], "english", "A", "10", True, (200, 20, 30), (15, 15, 15), (250, 250, 247),
                         3.0, 5.0, 3.0, 6.2, 4.6, 11.0, ((200, 30, 30), (30, 60, 170), (230, 180, 30)), False)
    rng = np.random.default_rng(7919 * style + 13)
    language = ("english", "dutch", "german", "french")[int(rng.integers(4))]
    paper = tuple(int(v) for v in 255 - rng.integers(0, 18, 3))
    return FaceStyle(
        font=fonts[int(rng.integers(len(fonts)))],
        language=language,
        ace=ACE_LETTERS[int(rng.random() < 0.25)],
        ten=TEN_LETTERS[int(rng.random() < 0.2)],
        glyph_suits=bool(rng.random() < 0.5),
        red=(int(rng.integers(170, 240)), int(rng.integers(0, 50)), int(rng.integers(10, 60))),
        black=tuple(int(v) for v in rng.integers(0, 45, 3)),
        paper=paper,  # type: ignore[arg-type]
        corner_radius=float(rng.uniform(2.0, 4.0)),
        index_x=float(rng.uniform(4.3, 6.0)),
        index_top=float(rng.uniform(2.5, 4.5)),
        rank_h=float(rng.uniform(5.0, 7.5)),
        suit_h=float(rng.uniform(3.8, 5.5)),
        pip_h=float(rng.uniform(9.0, 12.5)),
        court_palette=tuple(tuple(int(v) for v in rng.integers(0, 255, 3)) for _ in range(4)),  # type: ignore[misc]
        four_index=bool(rng.random() < 0.15),
    )


def _big_index(deck: FaceStyle, style: int) -> FaceStyle:
    """The deck with the taller index real decks often print (the real photos' pinochle deck: letters about
    8.5 mm tall, 4-5 mm from the top, a "10" of two tall narrow digits): the random decks' letters are 5-7.5 mm."""
    rng = np.random.default_rng(7919 * style + 29)
    rank_h, suit_h, index_x, index_top, ten_width = (float(rng.uniform(a, b)) for a, b in BIG_INDEX_MM)
    return replace(deck, ten=TEN_LETTERS[0], rank_h=rank_h, suit_h=suit_h, index_x=index_x, index_top=index_top,
                   ten_width=ten_width)


def card_height(width: int) -> int:
    return int(round(width * CARD_H_MM / CARD_W_MM))


class _Canvas:
    """A PIL drawing surface addressed in millimetres."""

    def __init__(self, width: int, paper: tuple[int, int, int]) -> None:
        self.scale = width * SUPERSAMPLE / CARD_W_MM
        self.image = Image.new("RGB", (width * SUPERSAMPLE, card_height(width) * SUPERSAMPLE), paper)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, mm: float) -> float:
        return mm * self.scale

    def text(self, xy_mm: tuple[float, float], text: str, font_path: Path | None, cap_h_mm: float,
             colour: tuple[int, int, int], anchor: str = "mt", upside_down: bool = False) -> None:
        """Draw text whose capital height is `cap_h_mm`, anchored at xy (mm)."""
        f = font(font_path, int(self.px(cap_h_mm) / 0.72))
        if not upside_down:
            self.draw.text((self.px(xy_mm[0]), self.px(xy_mm[1])), text, font=f, fill=colour, anchor=anchor)
            return
        box = self.draw.textbbox((0, 0), text, font=f, anchor=anchor)
        w, h = box[2] - box[0] + 4, box[3] - box[1] + 4
        patch = Image.new("L", (int(w), int(h)), 0)
        ImageDraw.Draw(patch).text((-box[0] + 2, -box[1] + 2), text, font=f, fill=255, anchor=anchor)
        patch = patch.rotate(180)
        x, y = self.px(xy_mm[0]) - (box[2] + box[0]) / 2 - 2, self.px(xy_mm[1]) + box[1] - 2
        self.image.paste(Image.new("RGB", patch.size, colour), (int(x), int(y - h + 4)), patch)

    def narrow_text(self, xy_mm: tuple[float, float], text: str, style: FaceStyle, colour: tuple[int, int, int],
                    upside_down: bool) -> None:
        """Rank letters squeezed to the index column width ("10" to `style.ten_width`)."""
        f = font(style.font, int(self.px(style.rank_h) / 0.72))
        box = self.draw.textbbox((0, 0), text, font=f, anchor="lt")
        w, h = box[2] + 4, box[3] + 4
        patch = Image.new("L", (int(w), int(h)), 0)
        ImageDraw.Draw(patch).text((2, 2), text, font=f, fill=255, anchor="lt")
        patch = patch.crop(patch.getbbox() or (0, 0, w, h))
        target_h = int(self.px(style.rank_h))
        max_w = int(self.px(style.rank_h * (style.ten_width if len(text) > 1 else 0.8)))
        new_w = min(max_w, int(patch.width * target_h / max(1, patch.height)))
        patch = patch.resize((max(1, new_w), max(1, target_h)), Image.LANCZOS)
        if upside_down:
            patch = patch.rotate(180)
            x, y = self.px(xy_mm[0]) - patch.width / 2, self.px(xy_mm[1]) - patch.height
        else:
            x, y = self.px(xy_mm[0]) - patch.width / 2, self.px(xy_mm[1])
        self.image.paste(Image.new("RGB", patch.size, colour), (int(x), int(y)), patch)

    def suit(self, centre_mm: tuple[float, float], suit: str, size_mm: float, style: FaceStyle,
             colour: tuple[int, int, int], upside_down: bool = False) -> None:
        mask = suit_mask(suit, int(self.px(size_mm)), style.glyph_suits)
        if upside_down:
            mask = mask.rotate(180)
        x = int(self.px(centre_mm[0]) - mask.width / 2)
        y = int(self.px(centre_mm[1]) - mask.height / 2)
        self.image.paste(Image.new("RGB", mask.size, colour), (x, y), mask)


@cache
def suit_mask(suit: str, size_px: int, glyph: bool) -> Image.Image:
    """A suit symbol `size_px` high as an L mask: a font glyph or the project's own shape."""
    s = max(6, size_px)
    img = Image.new("L", (s, s), 0)
    d = ImageDraw.Draw(img)
    if glyph:
        f = font(None, int(s * 1.05))
        box = d.textbbox((0, 0), SUIT_GLYPHS[suit], font=f, anchor="lt")
        big = Image.new("L", (box[2] + 4, box[3] + 4), 0)
        ImageDraw.Draw(big).text((2, 2), SUIT_GLYPHS[suit], font=f, fill=255, anchor="lt")
        big = big.crop(big.getbbox() or (0, 0, 1, 1))
        scale = s / max(big.width, big.height)
        big = big.resize((max(1, int(big.width * scale)), max(1, int(big.height * scale))), Image.LANCZOS)
        img.paste(big, ((s - big.width) // 2, (s - big.height) // 2))
        return img
    r = s / 4.0
    if suit == "D":
        d.polygon([(s / 2, 0), (s * 0.85, s / 2), (s / 2, s - 1), (s * 0.15, s / 2)], fill=255)
    elif suit == "H":
        d.ellipse([0, s * 0.05, s / 2 + 1, s * 0.05 + s / 2], fill=255)
        d.ellipse([s / 2 - 1, s * 0.05, s - 1, s * 0.05 + s / 2], fill=255)
        d.polygon([(s * 0.03, s * 0.38), (s * 0.97, s * 0.38), (s / 2, s - 1)], fill=255)
    elif suit == "S":
        d.ellipse([0, s * 0.35, s / 2 + 1, s * 0.35 + s / 2.2], fill=255)
        d.ellipse([s / 2 - 1, s * 0.35, s - 1, s * 0.35 + s / 2.2], fill=255)
        d.polygon([(s * 0.03, s * 0.58), (s * 0.97, s * 0.58), (s / 2, 0)], fill=255)
        d.polygon([(s / 2, s * 0.6), (s * 0.68, s - 1), (s * 0.32, s - 1)], fill=255)
    else:  # clubs
        d.ellipse([s / 2 - r, 0, s / 2 + r, 2 * r], fill=255)
        d.ellipse([0, s * 0.36, 2 * r, s * 0.36 + 2 * r], fill=255)
        d.ellipse([s - 2 * r - 1, s * 0.36, s - 1, s * 0.36 + 2 * r], fill=255)
        d.polygon([(s / 2, s * 0.4), (s * 0.68, s - 1), (s * 0.32, s - 1)], fill=255)
    return img


def split_code(code: str) -> tuple[str, str]:
    """`QS` -> ("Q", "S"); `10H` -> ("10", "H")."""
    return code[:-1], code[-1]


def _draw_index(c: _Canvas, style: FaceStyle, label: str, suit: str | None, colour: tuple[int, int, int]) -> None:
    """Both indices: top-left upright, bottom-right upside down (plus the other two corners on four-index decks)."""
    xs = [(style.index_x, False), (CARD_W_MM - style.index_x, True)]
    if style.four_index:
        xs += [(CARD_W_MM - style.index_x, False), (style.index_x, True)]
    for x, flip in xs:
        top = style.index_top if not flip else CARD_H_MM - style.index_top
        sign = -1 if flip else 1
        if suit is None:  # joker: letters stacked down the corner
            step = style.rank_h * 0.62
            for i, letter in enumerate(JOKER):
                c.text((x, top + sign * i * step), letter, style.font, style.rank_h * 0.55, colour,
                       anchor="mt", upside_down=flip)
            continue
        c.narrow_text((x, top), label, style, colour, upside_down=flip)
        suit_y = top + sign * (style.rank_h + 0.8 + style.suit_h / 2)
        c.suit((x, suit_y), suit, style.suit_h, style, colour, upside_down=flip)


def _draw_pips(c: _Canvas, style: FaceStyle, rank: str, suit: str, colour: tuple[int, int, int]) -> None:
    x0, x1 = 19.0, CARD_W_MM - 19.0
    y0, y1 = 17.0, CARD_H_MM - 17.0
    size = style.pip_h * (2.2 if rank == "A" else 1.0)
    for px, py in PIP_LAYOUTS[rank]:
        centre = (x0 + px * (x1 - x0), y0 + py * (y1 - y0))
        c.suit(centre, suit, size, style, colour, upside_down=py > 0.5)


COURT_FRAME_MM = (11.5, 9.0, CARD_W_MM - 11.5, CARD_H_MM - 9.0)  # x0, y0, x1, y1 of a court's picture


def _draw_court(c: _Canvas, style: FaceStyle, label: str, suit: str, colour: tuple[int, int, int],
                seed: int) -> None:
    """An abstract court figure in a frame: coloured blocks, the big letter, the suit."""
    rng = np.random.default_rng(seed)
    fx0, fy0, fx1, fy1 = COURT_FRAME_MM
    c.draw.rectangle([c.px(fx0), c.px(fy0), c.px(fx1), c.px(fy1)], outline=colour, width=max(1, int(c.px(0.5))))
    palette = style.court_palette
    for _ in range(7):
        w, h = rng.uniform(6, 20), rng.uniform(4, 16)
        x, y = rng.uniform(fx0, fx1 - w), rng.uniform(fy0, (fy0 + fy1) / 2 - h)
        fill = palette[int(rng.integers(len(palette)))]
        box = [c.px(x), c.px(y), c.px(x + w), c.px(y + h)]
        mirrored = [c.px(CARD_W_MM - x - w), c.px(CARD_H_MM - y - h), c.px(CARD_W_MM - x), c.px(CARD_H_MM - y)]
        shape = c.draw.ellipse if rng.random() < 0.5 else c.draw.rectangle
        shape(box, fill=fill)
        shape(mirrored, fill=fill)
    c.text((CARD_W_MM / 2, CARD_H_MM / 2 - 2), label, style.font, 10.0, colour, anchor="ms")
    c.suit((CARD_W_MM / 2, CARD_H_MM / 2 + 6), suit, 7.0, style, colour)


def _draw_court_art(c: _Canvas, deck: FaceStyle, code: str, style: int, colour: tuple[int, int, int]) -> None:
    """A printed court picture (`court_art.picture`) in the frame, as real decks print their courts."""
    box = [round(c.px(v)) for v in COURT_FRAME_MM]
    art = cv2.resize(picture(code, style), (box[2] - box[0], box[3] - box[1]), interpolation=cv2.INTER_AREA)
    art = (art * (np.array(deck.paper) / 255.0)).astype(np.uint8)  # its white is the deck's paper
    c.image.paste(Image.fromarray(art), (box[0], box[1]))
    c.draw.rectangle(box, outline=colour, width=max(1, int(c.px(0.3))))


def _finish(c: _Canvas, width: int, radius_mm: float) -> np.ndarray:
    """Shrink to `width`, convert to BGR and paint the rounded corners transparent-black (alpha via mask)."""
    rgb = np.asarray(c.image)
    img = cv2.resize(rgb, (width, card_height(width)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img[:, :, ::-1])


def card_alpha(width: int, radius_mm: float = 3.0) -> np.ndarray:
    """The card's rounded-rectangle mask (uint8 0/255) for a card `width` pixels wide."""
    return _card_alpha(width, round(radius_mm, 1))


@cache
def _card_alpha(width: int, radius_mm: float) -> np.ndarray:
    h = card_height(width)
    big = Image.new("L", (width * SUPERSAMPLE, h * SUPERSAMPLE), 0)
    r = radius_mm * width * SUPERSAMPLE / CARD_W_MM
    ImageDraw.Draw(big).rounded_rectangle([0, 0, big.width - 1, big.height - 1], radius=r, fill=255)
    mask = cv2.resize(np.asarray(big), (width, h), interpolation=cv2.INTER_AREA)
    mask.setflags(write=False)
    return mask


def render_face(code: str, style: int = 0, width: int = 252) -> np.ndarray:
    """A card face (`QS`, `10H`, or `JOKER`) as BGR uint8, `width` x round(width * 88 / 63)."""
    return _render_face(code, style, width).copy()


@cache
def _render_face(code: str, style: int, width: int) -> np.ndarray:
    st = face_style(style)
    c = _Canvas(width, st.paper)
    if code == JOKER:
        _draw_index(c, st, "", None, st.black)
        star = [(31.5 + 14 * np.cos(a) * (1 if i % 2 == 0 else 0.4), 44 + 14 * np.sin(a) * (1 if i % 2 == 0 else 0.4))
                for i, a in enumerate(np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False))]
        c.draw.polygon([(c.px(x), c.px(y)) for x, y in star], fill=st.red)
    else:
        rank, suit = split_code(code)
        colour = st.red if suit in ("H", "D") else st.black
        label = rank_label(rank, st.language, st.ace, st.ten)
        _draw_index(c, st, label, suit, colour)
        if rank in PIP_LAYOUTS:
            _draw_pips(c, st, rank, suit, colour)
        elif style >= COURT_ART:
            _draw_court_art(c, st, code, style, colour)
        else:
            seed = zlib.crc32(f"{code}|{style}".encode()) & 0xFFFF  # hash() of a str changes with every process
            _draw_court(c, st, COURT_LETTERS[st.language][rank], suit, colour, seed=seed)
    img = _finish(c, width, st.corner_radius)
    img.setflags(write=False)
    return img


BACK_COLOURS: tuple[tuple[int, int, int], ...] = ((170, 25, 35), (25, 55, 150))  # RGB of designs 0 and 1


def render_back(design: int = 0, width: int = 252) -> np.ndarray:
    """A card back as BGR uint8. Designs 0 (red lattice) and 1 (blue rings) are the two Superheld decks."""
    return _render_back(design, width).copy()


@cache
def _render_back(design: int, width: int) -> np.ndarray:
    rng = np.random.default_rng(104729 + design)
    if design < len(BACK_COLOURS):
        ink = BACK_COLOURS[design]
        pattern = design
    else:
        ink = tuple(int(v) for v in rng.integers(0, 200, 3))
        pattern = int(rng.integers(4))
    paper = (250, 250, 246)
    c = _Canvas(width, paper)
    border = float(rng.uniform(3.0, 5.0)) if design >= 2 else 4.0
    c.draw.rectangle([c.px(border), c.px(border), c.px(CARD_W_MM - border), c.px(CARD_H_MM - border)], fill=ink)
    light = tuple(min(255, int(v * 0.45 + 140)) for v in ink)
    step = 5.0 if design < 2 else float(rng.uniform(3.5, 7.0))
    line = max(1, int(c.px(0.5)))
    x0, y0, x1, y1 = border + 1, border + 1, CARD_W_MM - border - 1, CARD_H_MM - border - 1
    if pattern == 0:  # diagonal lattice
        for k in np.arange(-CARD_H_MM, CARD_W_MM + CARD_H_MM, step):
            c.draw.line([(c.px(k), c.px(0)), (c.px(k + CARD_H_MM), c.px(CARD_H_MM))], fill=light, width=line)
            c.draw.line([(c.px(k), c.px(CARD_H_MM)), (c.px(k + CARD_H_MM), c.px(0))], fill=light, width=line)
    elif pattern == 1:  # rings
        for yy in np.arange(y0 + step / 2, y1, step):
            for xx in np.arange(x0 + step / 2, x1, step):
                r = step * 0.35
                c.draw.ellipse([c.px(xx - r), c.px(yy - r), c.px(xx + r), c.px(yy + r)], outline=light, width=line)
    elif pattern == 2:  # stripes
        for k in np.arange(x0, x1, step):
            c.draw.rectangle([c.px(k), c.px(y0), c.px(k + step / 3), c.px(y1)], fill=light)
    else:  # concentric frames
        for k in np.arange(0, min(x1 - x0, y1 - y0) / 2, step):
            c.draw.rectangle([c.px(x0 + k), c.px(y0 + k), c.px(x1 - k), c.px(y1 - k)], outline=light, width=line)
    # The outer border painted again keeps the pattern inside it.
    w = int(c.px(border))
    c.draw.rectangle([0, 0, c.image.width, w], fill=paper)
    c.draw.rectangle([0, c.image.height - w, c.image.width, c.image.height], fill=paper)
    c.draw.rectangle([0, 0, w, c.image.height], fill=paper)
    c.draw.rectangle([c.image.width - w, 0, c.image.width, c.image.height], fill=paper)
    img = _finish(c, width, 3.0)
    img.setflags(write=False)
    return img
