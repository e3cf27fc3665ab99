"""`companion analyze IMAGE [--game G] [--json]`: the observation of one image (cards, homography, layout)."""

from __future__ import annotations

import argparse
import importlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from companion.cli import UsageError

GAMES = ("superheld", "scoundrel", "carcassonne", "strijders")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="find and identify every card (or tile) in one image")
    p.add_argument("image", help="a photo or frame (JPEG, PNG, ...)")
    p.add_argument("--game", choices=GAMES, default=None, help="also read the game's layout")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def read_image(name: str) -> np.ndarray:
    import cv2

    if not Path(name).is_file():
        raise UsageError(f"cannot read {name}: no such file")
    image = cv2.imread(name, cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise UsageError(f"cannot read {name}: not an image OpenCV can decode")
    return image


def carcassonne(image: np.ndarray) -> dict[str, Any]:
    """The tile recogniser lives in vision.tiles (issue 4's helper); imported only when asked for."""
    try:
        tiles = importlib.import_module("vision.tiles")
    except ImportError as exc:
        raise UsageError(f"the Carcassonne recogniser is not available (vision.tiles: {exc})") from None
    predict = getattr(tiles, "predict", None)
    if predict is None:
        raise UsageError("the Carcassonne recogniser is not available (vision.tiles has no predict)")
    return predict(image)


def observe(image: np.ndarray, game: str | None) -> dict[str, Any]:
    """Cards, the table homography (image px -> table mm, or null) and the game's layout (or null)."""
    from companion.recognisers import cards_in_play
    from vision.cards import predict
    from vision.homography import table_homography
    from vision.layout import scoundrel_zones, superheld_map

    try:
        dets = predict(image, codes=cards_in_play(game))
    except FileNotFoundError as exc:
        raise UsageError(str(exc)) from None
    hom = table_homography(dets)
    layout: dict[str, Any] | None = None
    if game == "superheld":
        layout = superheld_map(dets, hom)
    elif game == "scoundrel":
        layout = scoundrel_zones(dets, image.shape)
    return {"cards": dets.to_json(),
            "homography": None if hom is None else [[round(float(v), 6) for v in row] for row in hom],
            "layout": layout}


def run(args: argparse.Namespace) -> int:
    image = read_image(args.image)
    result = carcassonne(image) if args.game == "carcassonne" else observe(image, args.game)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, default=_plain))
        return 0
    if args.game == "carcassonne":
        print(f"{len(result.get('tiles', []))} tiles, {len(result.get('meeples', []))} meeples")
        return 0
    cards = result["cards"]
    print(f"{len(cards)} cards" + ("" if result["homography"] is not None else " (no table homography)"))
    for c in cards:
        where = ", ".join(f"({x:.0f},{y:.0f})" for x, y in c["corners"])
        label = c["code"] if c["code"] != "back" else f"back (design {c['back']})"
        print(f"  {label:<18} {c['confidence']:.2f}  {where}")
    if result["layout"] is not None:
        print(json.dumps(result["layout"], ensure_ascii=False, default=_plain))
    return 0


def _plain(value: Any) -> Any:
    """numpy scalars and strings inside layouts, as JSON."""
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"not JSON: {type(value).__name__}")
