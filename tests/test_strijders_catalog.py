"""The players' catalog: JSON and CSV forms, validation with clear `where`s, and deck rules."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine.game import RecordError
from engine.strijders.catalog import RARITY_POINTS, deal_deck, read_catalog, read_deck
from engine.strijders.effects import MANUAL, NO_EFFECT, Step

DATA = Path(__file__).resolve().parent.parent / "datasets" / "strijders"


def row(card_id: str, **extra: object) -> dict[str, object]:
    return {"id": card_id, "name": card_id.title(), "score": 3, "rarity": "yellow", "type": "normal"} | extra


def error(value: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        read_catalog(value, "setup.catalog")
    return info.value


def test_example_catalog_json_and_csv_hold_the_same_cards() -> None:
    from_json = read_catalog(json.loads((DATA / "catalog.json").read_text(encoding="utf-8")), "c")
    from_csv = read_catalog({"csv": (DATA / "catalog.csv").read_text(encoding="utf-8")}, "c")
    assert from_json.cards == from_csv.cards
    assert len(from_json) == 24
    assert {c.type for c in from_json.cards} == {"normal", "superheld", "raadslid", "vip", "karma"}
    assert {c.rarity for c in from_json.cards} == set(RARITY_POINTS)


def test_card_fields_and_effect_kinds() -> None:
    catalog = read_catalog([row("plain"), row("manual", text="Roll a die."), row("auto", text="+2", effect="self +2"),
                            row("flavour", text="Just a story.", effect="none")], "c")
    assert catalog["plain"].steps == NO_EFFECT
    assert catalog["manual"].steps == MANUAL
    assert catalog["auto"].steps == (Step("add", "self", 2),)
    assert catalog["flavour"].steps == NO_EFFECT
    assert catalog["auto"].name == "Auto" and catalog["auto"].score == 3


def test_a_bare_list_and_the_cards_object_are_the_same_catalog() -> None:
    rows = [row("x"), row("y", score=7, rarity="Hero", type="Superheld")]
    assert read_catalog(rows, "c").cards == read_catalog({"title": "t", "cards": rows}, "c").cards
    assert read_catalog(rows, "c")["y"].rarity == "hero"


def test_duplicate_id_names_both_places() -> None:
    exc = error({"cards": [row("x"), row("y"), row("x")]})
    assert exc.where == "setup.catalog.cards[2]"
    assert "duplicate id 'x'" in str(exc) and "cards[0]" in str(exc)


@pytest.mark.parametrize(("field", "value", "words"), [
    ("rarity", "purple", "unknown rarity 'purple'"),
    ("type", "wizard", "unknown type 'wizard'"),
    ("score", "7", "whole number"),
    ("score", True, "whole number"),
    ("name", "", "non-empty"),
    ("effect", "fly away", "unknown step 'fly'"),
    ("text", 5, "must be a string"),
])
def test_bad_field_is_named(field: str, value: object, words: str) -> None:
    exc = error({"cards": [row("ok"), row("bad", **{field: value})]})
    assert exc.where == f"setup.catalog.cards[1].{field}"
    assert words in str(exc)


def test_missing_and_unknown_fields() -> None:
    assert "missing 'rarity'" in str(error([{"id": "x", "name": "X", "score": 1, "type": "normal"}]))
    assert "unknown field(s) ['colour']" in str(error([row("x", colour="red")]))
    assert error([]).where == "setup.catalog"


def test_a_catalog_path_must_be_resolved_outside_the_engine() -> None:
    exc = error("catalog.json")
    assert exc.where == "setup.catalog" and "path" in str(exc)
    assert error({"cards": 3}).where == "setup.catalog.cards"
    assert error({"csv": 3}).where == "setup.catalog.csv"


def test_csv_errors_name_the_line() -> None:
    header = "id,name,score,rarity,type,text,effect\n"
    exc = error({"csv": header + "a,A,1,yellow,normal,,\nb,B,2,purple,normal,,\n"})
    assert exc.where == "setup.catalog.csv line 3.rarity"
    exc = error({"csv": header + "a,A,1,yellow,normal,,\na,A2,2,green,normal,,\n"})
    assert exc.where == "setup.catalog.csv line 3" and "line 2" in str(exc)
    exc = error({"csv": "id,name,score,rarity\na,A,1,yellow\n"})
    assert exc.where == "setup.catalog.csv line 1" and "missing column(s) ['type']" in str(exc)
    exc = error({"csv": header + "a,A,1,yellow,normal,x,self +1,extra\n"})
    assert "more cells than columns" in str(exc)
    exc = error({"csv": header + "a,A,x,yellow,normal,,\n"})
    assert exc.where == "setup.catalog.csv line 2.score"


def test_csv_without_optional_columns_and_quoted_text() -> None:
    catalog = read_catalog({"csv": 'id,name,score,rarity,type\r\nx,"Knight, brave",4,red,vip\r\n\r\n'}, "c")
    assert catalog["x"].name == "Knight, brave" and catalog["x"].type == "vip" and catalog["x"].steps == NO_EFFECT


def test_superheld_twice_in_one_deck_is_refused() -> None:
    catalog = read_catalog([row("hero", type="superheld", rarity="hero"), row("pawn")], "c")
    ids = ["pawn", "hero", "pawn", "hero"]
    with pytest.raises(RecordError) as info:
        read_deck(ids, catalog, 4, "setup.decks.a")
    assert info.value.where == "setup.decks.a[3]"
    assert "superheld 'hero' is already in this deck at [1]" in str(info.value)
    fine = ["pawn", "hero", "pawn", "pawn"]
    assert [c.id for c in read_deck(fine, catalog, 4, "d")] == fine


def test_deck_size_and_unknown_card() -> None:
    catalog = read_catalog([row("pawn")], "c")
    with pytest.raises(RecordError, match="holds 3 cards, this one 2"):
        read_deck(["pawn", "pawn"], catalog, 3, "setup.decks.b")
    with pytest.raises(RecordError) as info:
        read_deck(["pawn", "ghost"], catalog, 2, "setup.decks.b")
    assert info.value.where == "setup.decks.b[1]"


def test_dealt_decks_hold_each_superheld_at_most_once() -> None:
    catalog = read_catalog([row("h1", type="superheld"), row("h2", type="superheld"), row("pawn")], "c")
    for seed in range(50):
        ids = [c.id for c in deal_deck(catalog, 20, random.Random(seed))]
        assert len(ids) == 20 and ids.count("h1") <= 1 and ids.count("h2") <= 1
    with pytest.raises(RecordError, match="too few cards"):
        deal_deck(read_catalog([row("h", type="superheld")], "c"), 2, random.Random(0))
