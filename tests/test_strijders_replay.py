"""Strijders records through `companion replay` and Match: the examples, malformed records, catalog paths."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.strijders_catalog import record_base, resolve_catalog
from engine.game import RecordError
from engine.match import Match
from engine.record import Record, load_record

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "datasets" / "strijders"
OUTPUT_FIELDS = {"game", "status", "score", "violations", "hands", "points", "winners_piles", "points_piles", "round",
                 "pending", "field", "decks_left", "discards", "last_round", "winner", "variant", "scoring"}


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_replay_the_advanced_example() -> None:
    done = companion("replay", str(DATA / "advanced-example.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert OUTPUT_FIELDS <= set(out)
    assert out["status"] == "finished" and out["score"] == {"a": 5, "b": 1} and out["winner"] == "a"
    assert out["violations"] == [{"move": 3, "rule": "rps-pending", "message": out["violations"][0]["message"]}]
    assert out["winners_piles"] == {"a": ["filmster", "heks", "goochelaar", "burgemeester", "bliksem"],
                                    "b": ["goochelaar"]}
    assert out["points_piles"] == {"a": ["boer", "ridder", "heks", "burgemeester", "boer"], "b": ["ridder"]}
    assert out["hands"] == {"a": [], "b": []} and out["round"] == 6


def test_replay_the_classic_example_with_rarity_scoring() -> None:
    out = Match.replay(load_record((DATA / "classic-example.json").read_text(encoding="utf-8"))).to_json()
    assert out["status"] == "finished" and out["round"] == 20 and out["violations"] == []
    assert out["score"] == {"a": 23, "b": 25} and out["scoring"] == "rarity"


def test_the_readme_example_is_the_example_file() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("<!-- section: strijders -->")[1].split("<!-- end: strijders -->")[0]
    block = re.search(r"```json\n(.*?)```", section, re.S)
    assert block is not None
    assert json.loads(block[1]) == json.loads((DATA / "advanced-example.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(("record", "needle"), [
    ({"moves": [{"a": "ghost", "b": "boer"}]}, "moves[0]: cannot parse"),
    ({"moves": [{"a": "boer", "b": "boer"}, "boer vs boer"]}, "moves[1]: cannot parse"),
    ({"moves": [{"manual": {"a": 1.5, "b": 2}}]}, "moves[0]: cannot parse"),
    ({"options": {"variant": "expert"}}, "options.variant"),
    ({"setup": {"catalog": [{"id": "x", "name": "X", "score": 1, "rarity": "purple", "type": "normal"}], "seed": 1}},
     "setup.catalog[0].rarity: unknown rarity 'purple'"),
])
def test_malformed_records_exit_2_and_say_where(record: dict[str, object], needle: str) -> None:
    base = json.loads((DATA / "advanced-example.json").read_text(encoding="utf-8"))
    base["moves"] = []
    for key, value in record.items():
        base[key] = value
    done = companion("replay", "-", stdin=json.dumps(base))
    assert done.returncode == 2 and done.stdout == ""
    assert needle in done.stderr


def test_a_catalog_path_is_read_by_the_companion_layer() -> None:
    path = DATA / "advanced-seed-example.json"
    record = load_record(path.read_text(encoding="utf-8"))
    assert record.setup["catalog"] == "catalog.csv"
    with pytest.raises(RecordError, match="must be read by the replay command"):
        Match.replay(record)
    out = Match.replay(resolve_catalog(record, record_base(str(path)))).to_json()
    assert out["status"] == "finished" and out["violations"] == [] and out["score"] == {"a": 13, "b": 8}


def test_catalog_path_problems_are_record_errors(tmp_path: Path) -> None:
    record = Record("strijders", {}, {"catalog": "missing.json", "seed": 1}, [])
    with pytest.raises(RecordError) as info:
        resolve_catalog(record, tmp_path)
    assert info.value.where == "setup.catalog" and "cannot read catalog" in str(info.value)
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        resolve_catalog(Record("strijders", {}, {"catalog": "broken.json"}, []), tmp_path)
    (tmp_path / "cards.json").write_text((DATA / "catalog.json").read_text(encoding="utf-8"), encoding="utf-8")
    resolved = resolve_catalog(Record("strijders", {}, {"catalog": "cards.json", "seed": 2}, []), tmp_path)
    assert len(resolved.setup["catalog"]["cards"]) == 24 and resolved.setup["seed"] == 2


def test_records_without_a_catalog_path_pass_unchanged() -> None:
    inline = Record("strijders", {}, {"catalog": {"cards": []}}, [])
    other = Record("scoundrel", {}, {"catalog": "x.json"}, [])
    assert resolve_catalog(inline, ROOT) is inline and resolve_catalog(other, ROOT) is other
    assert record_base("-") == Path.cwd()
