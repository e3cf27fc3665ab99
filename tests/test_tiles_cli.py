"""`companion tiles-eval` and `companion tiles-bench` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_tiles_eval_on_the_quick_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tiles-eval", str(ROOT / "datasets/tiles/quick.yaml"), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["set"] == "quick" and result["boards"] == 4 and result["tiles"] >= 100
    assert result["tile_accuracy"] >= 0.93
    assert result["tiles_extra"] <= 2 and result["median_ms"] > 0


def test_every_shipped_eval_set_loads() -> None:
    from companion.commands.tiles_eval import load_config

    for path in sorted((ROOT / "datasets/tiles").glob("*.yaml")):
        config = load_config(path, None)
        assert config.boards >= 1 and config.scene.width > 0


def test_tiles_eval_refuses_a_bad_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("boards: 2\nwheels: 4\n")
    assert main(["tiles-eval", str(bad)]) == 2
    assert "wheels" in capsys.readouterr().err
    assert main(["tiles-eval", str(tmp_path / "missing.yaml")]) == 2
    assert main(["tiles-eval", str(ROOT / "datasets/tiles/quick.yaml"), "--boards", "0"]) == 2


def test_tiles_bench_prints_milliseconds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tiles-bench", "--runs", "2", "--tiles", "20", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["runs"] == 2 and result["median_ms"] > 0 and result["tiles_read"] >= 15
    assert main(["tiles-bench", "--runs", "0"]) == 2
