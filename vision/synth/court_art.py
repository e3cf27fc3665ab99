"""Printed court pictures from free card art, for decks drawn with the courts real decks print.

The generator's own courts are abstract blocks, so the court reader never saw a printed court: real decks
(the real photos' pinochle deck among them) print the Anglo-American or French pattern, double-headed
figures it told from their index letter alone. Two LGPL packages on the npm registry carry those pictures:

    python -m vision.synth.court_art OUT_DIR

packs them with `npm pack`, cuts each court's picture (its index corners painted out: the generator draws
the deck's own letters) and writes `OUT_DIR/<source>_<code>.png`. A synthetic config's `court_art: OUT_DIR`
and `court_art_share` then draw that share of its random decks with these pictures (deck style + COURT_ART).
The art is training data only: nothing of it ships, and the runtime never reads it.
"""

from __future__ import annotations

import argparse
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

COURT_ART = 2_000_000  # deck styles from here are style - COURT_ART drawn with printed court pictures
RANKS = {"J": ("jack", 11), "Q": ("queen", 12), "K": ("king", 13)}
SUITS = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
ART_WIDTH = 338  # px the pictures are rasterised at (the PNG package's 2x size)


@dataclass(frozen=True)
class ArtSource:
    """One npm package of card art: where each court lies in it, and which part of the card is its picture
    (fractions x0, y0, x1, y1 of the card), with the index corners to paint out (fractions of the card)."""

    name: str
    package: str
    path: str  # format with rank (word), number (11-13), suit (word), s (letter, lower case)
    picture: tuple[float, float, float, float]
    corners: tuple[tuple[float, float, float, float], ...] = ()


SOURCES: tuple[ArtSource, ...] = (
    ArtSource("anglo", "@younestouati/playing-cards-standard-deck@3.0.0", "cards/{number}{s}.svg",
              (0.142, 0.085, 0.858, 0.915)),
    ArtSource("french", "svg-cards@4.0.2", "png/2x/{suit}_{rank}.png", (0.03, 0.02, 0.97, 0.98),
              ((0.0, 0.0, 0.12, 0.24), (0.88, 0.76, 1.0, 1.0))),
)

_pictures: dict[str, list[np.ndarray]] = {}


def use(folder: str | Path) -> None:
    """Load the court pictures `main` wrote to `folder` for the decks of COURT_ART styles."""
    files = sorted(Path(folder).glob("*_*.png"))
    if not files:
        raise FileNotFoundError(f"no court pictures in {folder}: run python -m vision.synth.court_art {folder}")
    _pictures.clear()
    for f in files:
        image = cv2.imread(str(f), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"court picture {f} cannot be read")
        _pictures.setdefault(f.stem.split("_", 1)[1], []).append(image[:, :, ::-1].copy())  # RGB, as PIL draws


def picture(code: str, style: int) -> np.ndarray:
    """The printed picture (RGB) of court `code` in deck `style`: each deck keeps one art source."""
    if code not in _pictures:
        raise RuntimeError(f"deck style {style} asks for printed court art, none is loaded for {code}: call "
                           "vision.synth.court_art.use(DIR) (python -m vision.synth.court_art DIR makes it)")
    choices = _pictures[code]
    return choices[style % len(choices)]


def _flat(image: np.ndarray) -> np.ndarray:
    """A BGRA rendering on white paper, as BGR."""
    if image.ndim == 3 and image.shape[2] == 4:
        alpha = image[:, :, 3:4].astype(np.float32) / 255.0
        return (image[:, :, :3] * alpha + 255.0 * (1.0 - alpha)).astype(np.uint8)
    return image


def _rasterise(path: Path) -> np.ndarray:
    if path.suffix == ".svg":
        import cairosvg  # training extra: only this preparation step draws SVG

        png = cairosvg.svg2png(url=str(path), output_width=ART_WIDTH)
        image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    else:
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise ValueError(f"card art {path} cannot be read")
    return _flat(image)


def cut_picture(card: np.ndarray, source: ArtSource) -> np.ndarray:
    """The court's picture: its card's index corners painted white, then the picture's part cut out."""
    h, w = card.shape[:2]
    card = card.copy()
    for x0, y0, x1, y1 in source.corners:
        card[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)] = 255
    x0, y0, x1, y1 = source.picture
    return card[int(y0 * h):int(y1 * h), int(x0 * w):int(x1 * w)]


def fetch(out: Path) -> list[Path]:
    """Pack each source with npm, cut its twelve courts' pictures into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        for source in SOURCES:
            done = subprocess.run(["npm", "pack", source.package, "--silent"], cwd=tmp, capture_output=True,
                                  text=True, timeout=300)
            if done.returncode != 0:
                raise RuntimeError(f"npm pack {source.package} failed: {done.stderr.strip()}")
            root = Path(tmp) / source.name
            with tarfile.open(Path(tmp) / done.stdout.strip().splitlines()[-1]) as tar:
                tar.extractall(root, filter="data")
            for rank, (word, number) in RANKS.items():
                for suit, suit_word in SUITS.items():
                    rel = source.path.format(rank=word, number=number, suit=suit_word, s=suit.lower())
                    target = out / f"{source.name}_{rank}{suit}.png"
                    cv2.imwrite(str(target), cut_picture(_rasterise(root / "package" / rel), source))
                    written.append(target)
    return written


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the court pictures")
    args = parser.parse_args(argv)
    print(f"wrote {len(fetch(args.out))} court pictures to {args.out}")


if __name__ == "__main__":
    main()
