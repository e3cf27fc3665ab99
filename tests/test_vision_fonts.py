"""The synthetic decks are drawn with the index fonts installed, so evaluations say which are missing (session 16:
without the Liberation fonts the same seeds drew other scenes, and session 15's code read 68 errors instead of 62)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.synth import fonts


def test_the_fonts_not_found_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed = fonts._find("DejaVuSans-Bold.ttf")
    if installed is None:
        pytest.skip("DejaVu is not installed")
    (tmp_path / "DejaVuSans-Bold.ttf").symlink_to(installed)
    monkeypatch.setattr(fonts, "FONT_DIRS", (str(tmp_path),))
    missing = fonts.missing_index_fonts()
    assert "DejaVuSans-Bold.ttf" not in missing
    assert set(missing) == set(fonts.INDEX_FONT_NAMES) - {"DejaVuSans-Bold.ttf"}


def test_an_evaluation_on_missing_fonts_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main
    from vision.cards.detect import DETECTOR

    if not DETECTOR.exists():
        pytest.skip("card models not built")
    installed = fonts._find("DejaVuSans-Bold.ttf")
    if installed is None:
        pytest.skip("DejaVu is not installed")
    (tmp_path / "DejaVuSans-Bold.ttf").symlink_to(installed)
    monkeypatch.setattr(fonts, "FONT_DIRS", (str(tmp_path),))  # one index font left
    assert main(["vision-eval", "--scenes", "1", "--seed", "1", "--real", str(tmp_path / "none")]) == 0
    out = capsys.readouterr().out
    assert f"note: {len(fonts.INDEX_FONT_NAMES) - 1} index fonts not installed" in out
    assert "LiberationSans-Bold.ttf" in out
