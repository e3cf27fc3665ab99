"""The shipped Carcassonne records replay through `companion replay`, and bad ones exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RECORDS = Path(__file__).resolve().parent.parent / "datasets" / "records"


def replay(path: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "replay", path],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_example_record_replays_with_every_output_field() -> None:
    done = replay(str(RECORDS / "carcassonne-example.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert [v["rule"] for v in out["violations"]] == ["edges-mismatch", "meeple-owed", "wrong-tile"]
    assert out["scores"] == [5, 8, 3] and out["result"] == 3 == out["score"]
    assert out["meeples_left"] == [2, 3, 4] and out["status"] == "finished" and out["end"] == "tiles-out"
    assert out["goals"] == [{"goal": "all-tiles", "turn": 6}]
    kinds = [(s["kind"], s["points"], s["to"]) for s in out["scorings"]]
    assert kinds[:2] == [("road", 4, [1]), ("city", 6, [2])] and [k for k, _, _ in kinds[2:]] == ["final"] * 3


def test_seeded_record_replays_without_violations() -> None:
    done = replay(str(RECORDS / "carcassonne-seed.json"))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["violations"] == [] and out["status"] == "finished"
    assert out["result"] == min(out["scores"]) and out["tiles_placed"] == 41


def test_a_malformed_move_exits_2_naming_where() -> None:
    record = {"game": "carcassonne", "setup": {"seed": 1}, "moves": [{"tile": "A", "x": 0, "y": 1, "rot": 45}]}
    done = replay("-", json.dumps(record))
    assert done.returncode == 2 and done.stdout == ""
    assert "moves[0]" in done.stderr and "rot" in done.stderr
