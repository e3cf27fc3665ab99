"""Fixtures shared by the tests: one real headless Chromium (Debian's, through Playwright) per module for the
browser tests, one board of a tile set read and scored for the tile round tests, the general Scoundrel card
recogniser and the demo video's frames."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

TILE_SETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def tile_board() -> Callable[[str, int], Any]:
    """(set name, board index) -> that board of `datasets/tiles/NAME.yaml` read and scored alone (`board_tally`)."""
    from vision.tiles.evaluate import EvalConfig, board_tally

    return lambda name, index: board_tally(EvalConfig.from_yaml(TILE_SETS / f"{name}.yaml"), index)


@pytest.fixture
def tile_picture() -> Callable[[str, int], Any]:
    """(set name, board index) -> that board's picture (`draw_scene`), for tests of a step before the reading."""
    from vision.tiles.evaluate import EvalConfig, draw_scene

    return lambda name, index: draw_scene(EvalConfig.from_yaml(TILE_SETS / f"{name}.yaml"), index)[0].image


@pytest.fixture(scope="module")
def vision_scoundrel() -> Any:
    """The general card recogniser with Scoundrel's layout (`companion.recognisers.VisionScoundrel`), one per module;
    skipped where it cannot run."""
    from companion.recognisers import RecogniserUnavailable, VisionScoundrel

    try:
        return VisionScoundrel()
    except RecogniserUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture
def demo_frame() -> Callable[[int], Any]:
    """pos -> that frame of the shipped demo video, read on from the start: seeking an mp4 may land on a key frame."""
    import cv2

    from companion.commands.demo import Demo

    def frame(pos: int) -> Any:
        cap = cv2.VideoCapture(str(Demo.load().video))
        for _ in range(pos + 1):
            ok, image = cap.read()
        cap.release()
        assert ok, f"the demo video has no frame {pos}"
        return image
    return frame
