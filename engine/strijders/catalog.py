"""The players' own card catalog: the printed cards are custom, so the card list comes from them.

A catalog arrives already read (the engine does no I/O): a JSON object `{"cards": [...]}` or a
bare list of card objects, or `{"csv": TEXT}` for a CSV file's text. Every problem is a
RecordError whose `where` names the card and field (`setup.catalog.cards[3].rarity`,
`setup.catalog.csv line 4`).
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass
from typing import Any

from engine.game import RecordError
from engine.strijders.effects import MANUAL, NO_EFFECT, Step, parse_effect

RARITY_POINTS: dict[str, int] = {"yellow": 1, "green": 2, "blue": 3, "red": 4, "hero": 5}
TYPES: tuple[str, ...] = ("normal", "superheld", "raadslid", "vip", "karma")
SUPERHELD, RAADSLID, VIP, KARMA = "superheld", "raadslid", "vip", "karma"
REQUIRED: tuple[str, ...] = ("id", "name", "score", "rarity", "type")
OPTIONAL: tuple[str, ...] = ("text", "effect")
JSON_CATALOG_KEYS: frozenset[str] = frozenset({"title", "cards"})


@dataclass(frozen=True, slots=True)
class CardSpec:
    id: str
    name: str
    score: int
    rarity: str
    type: str
    text: str = ""
    steps: tuple[Step, ...] = NO_EFFECT


class Catalog:
    """Cards by id, in the catalog's order."""

    def __init__(self, cards: list[CardSpec]) -> None:
        self.cards = cards
        self.by_id: dict[str, CardSpec] = {c.id: c for c in cards}

    def __contains__(self, card_id: object) -> bool:
        return card_id in self.by_id

    def __getitem__(self, card_id: str) -> CardSpec:
        return self.by_id[card_id]

    def __len__(self) -> int:
        return len(self.cards)


def read_catalog(value: Any, where: str) -> Catalog:
    """A catalog from its JSON form, a bare card list, or `{"csv": text}`."""
    if isinstance(value, str):
        raise RecordError("a catalog path must be read by the replay command (companion.strijders_catalog) "
                          "before the engine sees it; or give the catalog inline", where)
    if isinstance(value, list):
        return catalog_from_rows(value, where)
    if isinstance(value, dict) and set(value) == {"csv"}:
        if not isinstance(value["csv"], str):
            raise RecordError("must be the CSV file's text", f"{where}.csv")
        return catalog_from_csv(value["csv"], f"{where}.csv")
    if isinstance(value, dict) and "cards" in value and set(value) <= JSON_CATALOG_KEYS:
        if not isinstance(value["cards"], list):
            raise RecordError("must be a list of card objects", f"{where}.cards")
        return catalog_from_rows(value["cards"], f"{where}.cards")
    raise RecordError('give {"cards": [...]}, a list of cards, {"csv": TEXT} or a catalog file path', where)


def catalog_from_rows(rows: list[Any], where: str) -> Catalog:
    return _build([(f"{where}[{i}]", row) for i, row in enumerate(rows)], where, json_types=True)


def catalog_from_csv(text: str, where: str) -> Catalog:
    """CSV with a header row naming the columns (id,name,score,rarity,type[,text][,effect])."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in REQUIRED if c not in header]
    unknown = [c for c in header if c not in REQUIRED + OPTIONAL]
    if missing or unknown:
        problem = f"missing column(s) {missing}" if missing else f"unknown column(s) {unknown}"
        raise RecordError(f"{problem}; columns are {', '.join(REQUIRED + OPTIONAL)}", f"{where} line 1")
    reader.fieldnames = header
    rows = []
    for row in reader:
        if None in row:
            raise RecordError("more cells than columns (quote text that holds commas)",
                              f"{where} line {reader.line_num}")
        cells = {k: (v or "").strip() for k, v in row.items()}
        if not any(cells.values()):
            continue
        rows.append((f"{where} line {reader.line_num}", {k: v for k, v in cells.items() if v != "" or k in REQUIRED}))
    return _build(rows, where, json_types=False)


def _build(rows: list[tuple[str, Any]], where: str, json_types: bool) -> Catalog:
    if not rows:
        raise RecordError("the catalog holds no cards", where)
    cards: list[CardSpec] = []
    first_seen: dict[str, str] = {}
    for row_where, row in rows:
        card = _read_card(row, row_where, json_types)
        if card.id in first_seen:
            raise RecordError(f"duplicate id {card.id!r} (first at {first_seen[card.id]})", row_where)
        first_seen[card.id] = row_where
        cards.append(card)
    return Catalog(cards)


def _read_card(row: Any, where: str, json_types: bool) -> CardSpec:
    if not isinstance(row, dict):
        raise RecordError("a card is an object with " + ", ".join(REQUIRED), where)
    unknown = set(row) - set(REQUIRED + OPTIONAL)
    if unknown:
        raise RecordError(f"unknown field(s) {sorted(unknown)}", where)
    for key in REQUIRED:
        if key not in row:
            raise RecordError(f"missing {key!r}", where)
    fields = {key: _text(row[key], f"{where}.{key}") for key in ("id", "name", "rarity", "type")}
    rarity, kind = fields["rarity"].lower(), fields["type"].lower()
    if rarity not in RARITY_POINTS:
        raise RecordError(f"unknown rarity {fields['rarity']!r}; one of {', '.join(RARITY_POINTS)}", f"{where}.rarity")
    if kind not in TYPES:
        raise RecordError(f"unknown type {fields['type']!r}; one of {', '.join(TYPES)}", f"{where}.type")
    text = row.get("text", "")
    if not isinstance(text, str):
        raise RecordError("must be a string", f"{where}.text")
    return CardSpec(fields["id"], fields["name"], _score(row["score"], f"{where}.score", json_types),
                    rarity, kind, text.strip(), _steps(row, text.strip(), f"{where}.effect"))


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RecordError(f"must be a non-empty string, got {value!r}", where)
    return value.strip()


def _score(value: Any, where: str, json_types: bool) -> int:
    if not json_types and isinstance(value, str) and value.lstrip("+-").isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise RecordError(f"the character score must be a whole number, got {value!r}", where)


def _steps(row: dict[str, Any], text: str, where: str) -> tuple[Step, ...]:
    """The written steps; without them, an effect text is a manual effect and no text is no effect."""
    if "effect" not in row:
        return MANUAL if text else NO_EFFECT
    try:
        return parse_effect(row["effect"])
    except ValueError as exc:
        raise RecordError(str(exc), where) from None


# -- decks ----------------------------------------------------------------------------------------
def read_deck(ids: Any, catalog: Catalog, size: int, where: str) -> list[CardSpec]:
    """A deck of `size` catalog ids, top card first; a superheld may be in it only once."""
    if not isinstance(ids, list):
        raise RecordError("must be a list of card ids, top card first", where)
    if len(ids) != size:
        raise RecordError(f"a deck holds {size} cards, this one {len(ids)}", where)
    deck: list[CardSpec] = []
    superheld_at: dict[str, int] = {}
    for i, card_id in enumerate(ids):
        if not isinstance(card_id, str) or card_id not in catalog:
            raise RecordError(f"{card_id!r} is not in the catalog", f"{where}[{i}]")
        card = catalog[card_id]
        if card.type == SUPERHELD:
            if card_id in superheld_at:
                raise RecordError(f"superheld {card_id!r} is already in this deck at [{superheld_at[card_id]}]; "
                                  "a superheld may be in a deck only once", f"{where}[{i}]")
            superheld_at[card_id] = i
        deck.append(card)
    return deck


def deal_deck(catalog: Catalog, size: int, rng: random.Random) -> list[CardSpec]:
    """A random deck from the catalog: any card any number of times, each superheld at most once."""
    deck: list[CardSpec] = []
    used: set[str] = set()
    for _ in range(size):
        choices = [c for c in catalog.cards if c.type != SUPERHELD or c.id not in used]
        if not choices:
            raise RecordError(f"the catalog has too few cards to deal a deck of {size}", "setup.catalog")
        card = rng.choice(choices)
        used.add(card.id)
        deck.append(card)
    return deck
