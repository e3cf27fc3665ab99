"""Recognisers: pixels to a game's observation. The live loop takes any object with `read(image)`.

The Scoundrel recogniser joins the card-vision package's detector (`vision.cards.predict`) and its
zone layout (`vision.layout.scoundrel_zones`). A game without a recogniser is refereed from the
dashboard (the player enters moves); the camera then only feeds the live view.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np


@dataclass
class Reading:
    observation: dict[str, Any]  # the game's zone dict, e.g. Scoundrel's room / weapon / weapon_monsters
    cards: list[dict[str, Any]] = field(default_factory=list)  # {code, corners [[x, y] x4], confidence}


class Recogniser(Protocol):
    name: str

    def read(self, image: np.ndarray) -> Reading: ...


class RecogniserUnavailable(RuntimeError):
    """The vision package this recogniser needs is not there (yet)."""


class VisionScoundrel:
    name = "vision.cards + vision.layout.scoundrel_zones"

    def __init__(self) -> None:
        try:
            self._cards = importlib.import_module("vision.cards")
            self._layout = importlib.import_module("vision.layout")
            self._predict = self._cards.predict
            self._zones = self._layout.scoundrel_zones
        except (ImportError, AttributeError) as exc:
            raise RecogniserUnavailable(f"the card recogniser is not available: {exc}") from None
        try:  # the package may be there before its trained model is
            self._predict(np.zeros((96, 96, 3), np.uint8))
        except Exception as exc:  # noqa: BLE001 - whatever stops it, the loop must run without it
            raise RecogniserUnavailable(f"the card recogniser cannot run: {type(exc).__name__}: {exc}") from None

    def read(self, image: np.ndarray) -> Reading:
        dets = self._predict(image)
        zones = self._zones(dets, image.shape)
        cards = [{"code": str(code), "corners": np.asarray(corners, float).round(1).tolist(), "confidence": float(c)}
                 for code, corners, c in zip(dets.codes, dets.corners, dets.confidence, strict=False)]
        obs = {"room": list(zones.get("room", [])), "weapon": zones.get("weapon"),
               "weapon_monsters": list(zones.get("weapon_monsters", [])),
               "dungeon": zones.get("dungeon"), "discard": zones.get("discard")}
        return Reading(obs, cards)


# game -> "module:class" of its recogniser; data, not branches.
RECOGNISERS: dict[str, str] = {
    "scoundrel": "companion.recognisers:VisionScoundrel",
}


def recogniser_for(game: str) -> Recogniser | None:
    """The game's recogniser, or None (with the reason raised as RecogniserUnavailable by the caller's choice)."""
    target = RECOGNISERS.get(game)
    if target is None:
        return None
    module_name, _, class_name = target.partition(":")
    return getattr(importlib.import_module(module_name), class_name)()
