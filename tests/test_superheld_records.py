"""Superheld records end to end: the example files through `companion replay`, and malformed records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Match, RecordError
from engine.record import record_from_json
from engine.superheld.layouts import row_layout

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "datasets" / "records"
FIELDS = {"coins", "hero_at", "skill", "lower_ghosts", "warriors", "top_warrior", "defeated", "forest_hidden",
          "warnings", "status", "score", "violations"}


def replay(name: str) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(RECORDS / name)], capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_readme_example_replays_with_its_two_violations() -> None:
    out = replay("superheld-example.json")
    assert FIELDS <= set(out)
    assert [(v["move"], v["rule"]) for v in out["violations"]] == [(8, "not-adjacent"), (10, "trade-too-low")]
    assert out["coins"] == [1] and out["hero_at"] == ["6S"] and out["defeated"] == 6
    assert out["skill"] == {"S": "4S", "H": "4H", "D": "AD", "C": "AC"}
    assert out["forest_hidden"] == 6 and out["lower_ghosts"] == [["3H", "6S"]] and out["status"] == "playing"


def test_a_whole_game_won_in_the_final_battle() -> None:
    out = replay("superheld-row-win.json")
    assert out["status"] == "won" and out["score"] == out["coins"][0] == 8 and out["defeated"] == 47
    assert out["violations"] == [] and out["battle"]["reshuffles"] == 1 and len(out["warriors"][0]) == 24


def test_the_coop_example() -> None:
    out = replay("superheld-coop-example.json")
    assert out["variant"] == "coop" and out["coins"] == [4, 5] and out["hero_at"] == ["4S", "4D"]
    assert out["monsters"] == ["9S", "7C"] and [v["rule"] for v in out["violations"]] == ["not-your-turn"]


def test_building_the_map_move_by_move() -> None:
    out = replay("superheld-build-example.json")
    assert [v["rule"] for v in out["violations"]] == ["forest-first", "not-touching", "card-moved", "map-incomplete"]
    assert out["map_cards"] == 3 and out["phase"] == "build" and out["forest_hidden"] == 3


def test_undo_through_match_restores_the_output() -> None:
    record = record_from_json(json.loads((RECORDS / "superheld-example.json").read_text()))
    full = Match.replay(record).to_json()
    match = Match.replay(record)
    match.undo()
    match.play(record.moves[-1])
    assert match.to_json() == full


def base(**setup: Any) -> dict[str, Any]:
    return {"game": "superheld", "setup": {"map": [list(e) for e in row_layout()], "capital": "KC", **setup}}


@pytest.mark.parametrize(
    ("record", "where"),
    [
        (base() | {"options": {"variant": "trio"}}, "options.variant"),
        (base() | {"options": {"forest": False}}, "options.forest"),
        (base() | {"options": {"colour": 1}}, "options"),
        (base(seed="x"), "setup.seed"),
        (base(lower_ghosts=["AS", "9S"]), "setup.lower_ghosts[1]"),
        (base(warriors=["8S"]), "setup.warriors"),
        (base(monsters=["3D", "7C", "9S"]), "setup.monsters"),
        (base() | {"options": {"variant": "coop"}, "setup": base(monsters=["3D", "5C", "9S"])["setup"]},
         "setup.monsters[1]"),
        (base(capital="QS"), "setup.capital"),
        (base(colour=1), "setup"),
        (base() | {"moves": [{"start": "2S"}, {"go": "XX"}]}, "moves[1]"),
        (base() | {"moves": [{"go": "3S", "stay": True}]}, "moves[0]"),
        (base() | {"moves": [{"go": "3S", "fly": True}]}, "moves[0]"),
        (base() | {"moves": [{"give": ["8S"]}]}, "moves[0]"),
    ],
)
def test_malformed_records_say_where(record: dict[str, Any], where: str) -> None:
    with pytest.raises(RecordError) as err:
        Match.replay(record_from_json(record))
    assert err.value.where == where


def test_the_cli_exits_2_on_a_malformed_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(base() | {"moves": [{"go": "9Z"}]}))
    done = subprocess.run([sys.executable, "-m", "companion", "replay", str(bad)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 2 and "moves[0]" in done.stderr and done.stdout == ""
