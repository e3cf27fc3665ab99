import pytest

from engine import Match, RecordError, load_record


def test_load_record_defaults() -> None:
    record = load_record('{"game": "scoundrel"}')
    assert record.options == {} and record.setup == {} and record.moves == []


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("not json", "record"),
        ("[]", "record"),
        ('{"moves": []}', "game"),
        ('{"game": "scoundrel", "moves": {}}', "moves"),
        ('{"game": "scoundrel", "setup": []}', "setup"),
        ('{"game": "scoundrel", "extra": 1}', "record"),
    ],
)
def test_malformed_records_say_where(text: str, where: str) -> None:
    with pytest.raises(RecordError) as info:
        load_record(text)
    assert info.value.where == where


def test_unknown_game_is_refused() -> None:
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        Match.replay(load_record('{"game": "chess"}'))


def test_record_round_trip_through_match() -> None:
    text = '{"game": "scoundrel", "setup": {"seed": 3}, "moves": ["run", "run"]}'
    match = Match.replay(load_record(text))
    again = Match.replay(load_record(match.record.dumps()))
    assert again.to_json() == match.to_json()
    assert match.to_json()["violations"] == [{"move": 1, "rule": "run-twice",
                                               "message": "you may not flee two rooms in a row"}]
