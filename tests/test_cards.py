import pytest

from engine.cards import Card, CardError, full_deck, parse_card, parse_cards


@pytest.mark.parametrize(
    ("text", "code"),
    [("QS", "QS"), ("10H", "10H"), ("TH", "10H"), ("Q♠", "QS"), ("a♦", "AD"), (" 1c ", "AC"), ("K♣", "KC")],
)
def test_parse_card_accepts_every_spelling(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["", "Q", "11S", "QX", "ZZ", "10", "♠"])
def test_parse_card_refuses_non_cards(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


def test_parse_card_refuses_non_strings() -> None:
    with pytest.raises(CardError, match="string"):
        parse_card(12)  # type: ignore[arg-type]


def test_full_deck_has_52_distinct_cards() -> None:
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52
    assert str(deck[0]) == "AS" and str(deck[-1]) == "KC"


def test_values_per_game() -> None:
    assert parse_card("AS").value("scoundrel") == 14
    assert parse_card("AS").value("superheld") == 1
    assert parse_card("JH").value("scoundrel") == parse_card("JH").value("superheld") == 11
    assert parse_card("10C").value("superheld") == 10


def test_parse_cards_names_the_duplicate() -> None:
    with pytest.raises(CardError, match=r"dungeon\[2\]: duplicate card QS"):
        parse_cards(["QS", "2H", "Q♠"], "dungeon")


def test_card_rejects_bad_fields() -> None:
    with pytest.raises(CardError):
        Card("1", "S")
