"""The classes of the index-crop classifier: the 52 cards, the joker, and "none" (no readable index)."""

from __future__ import annotations

from engine.cards import full_deck

CARD_CODES: tuple[str, ...] = tuple(c.code for c in full_deck())
CROP_CLASSES: tuple[str, ...] = (*CARD_CODES, "JOKER", "none")
NONE_CLASS: int = CROP_CLASSES.index("none")
JOKER_CLASS: int = CROP_CLASSES.index("JOKER")
UNREAD = "?"  # the code of a card that was found but whose index could not be read
