"""Index fonts and the rank letters of the decks people own (English, Dutch, German, French)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from PIL import ImageFont

FONT_DIRS: tuple[str, ...] = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation")
INDEX_FONT_NAMES: tuple[str, ...] = (
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif-Bold.ttf",
    "DejaVuSansCondensed-Bold.ttf",
    "LiberationSans-Bold.ttf",
    "LiberationSerif-Bold.ttf",
    "LiberationSansNarrow-Bold.ttf",
    "DejaVuSans.ttf",
    "LiberationSerif-Regular.ttf",
    "DejaVuSerifCondensed-Bold.ttf",
    "LiberationMono-Bold.ttf",
)
SYMBOL_FONT_NAME = "DejaVuSans.ttf"  # holds the four suit glyphs

# Court and ace letters per deck language; the engine code stays J/Q/K/A.
COURT_LETTERS: dict[str, dict[str, str]] = {
    "english": {"J": "J", "Q": "Q", "K": "K"},
    "dutch": {"J": "B", "Q": "V", "K": "H"},
    "german": {"J": "B", "Q": "D", "K": "K"},
    "french": {"J": "V", "Q": "D", "K": "R"},
}
ACE_LETTERS: tuple[str, ...] = ("A", "1")
TEN_LETTERS: tuple[str, ...] = ("10", "T")
SUIT_GLYPHS: dict[str, str] = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def _find(name: str) -> Path | None:
    for folder in FONT_DIRS:
        path = Path(folder) / name
        if path.exists():
            return path
    return None


@cache
def index_fonts() -> tuple[Path, ...]:
    """The installed index fonts (at least one is needed to draw faces)."""
    found = tuple(p for p in (_find(n) for n in INDEX_FONT_NAMES) if p is not None)
    if not found:
        raise RuntimeError(f"no index font found in {', '.join(FONT_DIRS)}")
    return found


def missing_index_fonts() -> tuple[str, ...]:
    """The index fonts not installed. The decks are drawn with the fonts found, so a set-up missing some (Debian's
    Liberation fonts come with chromium) draws other synthetic scenes from the same seed, and its figures are not
    comparable with a set-up that has them all (session 16: 68 errors on the selection sets against 62)."""
    return tuple(n for n in INDEX_FONT_NAMES if _find(n) is None)


@cache
def font(path: Path | None, size_px: int) -> ImageFont.FreeTypeFont:
    """A TrueType font at a pixel size; `None` is the suit-symbol font."""
    target = path if path is not None else (_find(SYMBOL_FONT_NAME) or index_fonts()[0])
    return ImageFont.truetype(str(target), max(4, int(size_px)))


def rank_label(rank: str, language: str, ace: str, ten: str) -> str:
    """What the index prints for an engine rank in a given deck."""
    if rank == "A":
        return ace
    if rank == "10":
        return ten
    return COURT_LETTERS[language].get(rank, rank)
