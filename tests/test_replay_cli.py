"""`companion replay` and `companion bench` as a user runs them: a real process, real files."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "datasets" / "records" / "scoundrel-example.json"


def companion(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "companion", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, cwd=ROOT)


def test_replay_example_file() -> None:
    done = companion("replay", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["game"] == "scoundrel" and out["status"] == "won" and out["score"] == 17
    assert [v["move"] for v in out["violations"]] == [4, 7]
    assert {"life", "room", "weapon", "weapon_monsters", "dungeon_left", "can_run",
            "potion_used_this_turn"} <= set(out)


def test_replay_reads_stdin() -> None:
    done = companion("replay", "-", stdin=EXAMPLE.read_text())
    assert done.returncode == 0 and json.loads(done.stdout)["score"] == 17


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("{not json", "not valid JSON"),
        ('{"game": "chess"}', "unknown game 'chess'"),
        ('{"game": "scoundrel", "setup": {"dungeon": ["2S", "2S"]}}', "duplicate card 2S"),
        ('{"game": "scoundrel", "setup": {"dungeon": ["2S", "ZZ"]}}', "not a card code"),
        ('{"game": "scoundrel", "setup": {"dungeon": ["2S", "QH"]}}', "QH is not a Scoundrel card"),
        ('{"game": "scoundrel", "setup": {"seed": 1}, "moves": ["run", "dance"]}', "moves[1]"),
    ],
)
def test_malformed_record_exits_2_with_message_and_no_stdout(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    done = companion("replay", str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert needle in done.stderr


def test_missing_file_exits_2() -> None:
    done = companion("replay", "/nonexistent/record.json")
    assert done.returncode == 2 and "cannot read /nonexistent/record.json" in done.stderr


def test_bench_prints_games_per_second() -> None:
    done = companion("bench", "scoundrel", "--games", "500")
    assert done.returncode == 0, done.stderr
    assert "games/s" in done.stdout


def test_bench_unknown_game_exits_2() -> None:
    done = companion("bench", "chess")
    assert done.returncode == 2 and "no benchmark for 'chess'" in done.stderr
