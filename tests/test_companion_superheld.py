"""Superheld at the companion: where the hero may go, on the dashboard's map (real Flask + headless Chromium)
and over the camera image (the overlay drawn on a synthetic frame with read cards)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect

from companion import calibration, overlay
from companion.hero import camera_marks, superheld_board
from companion.runtime import Companion, Config
from engine.match import Match
from engine.record import Record
from engine.superheld import legal
from engine.superheld.layouts import practice_state, random_layout
from vision.synth.scene import Placement, compose
from vision.truth import truth_detections

SETUP = {"map": [list(cell) for cell in random_layout(random.Random(4))], "capital": "KS"}


@pytest.fixture()
def companion(tmp_path: Path) -> Iterator[Companion]:
    c = Companion(Config(db=tmp_path / "c.db", port=0, recognise=False)).start()
    yield c
    c.stop()


def _targets(moves: list) -> set[str]:
    """Where the engine lets the hero start or step after `moves`."""
    match = Match.replay(Record("superheld", {}, SETUP, moves))
    out = set()
    for m in match.legal_moves():
        if isinstance(m, dict) and "start" in m:
            out.add(m["start"])
        elif isinstance(m, dict) and "go" in m:
            out.add(m["go"])
    return out


def _highlighted(page: Page, expected: set[str]) -> set[str]:
    cells = page.locator("#board-map .cell.reach")
    expect(cells).to_have_count(len(expected))
    return set(cells.evaluate_all("nodes => nodes.map(n => n.dataset.code)"))


def test_dashboard_map_highlights_where_the_hero_may_go(browser: Browser, companion: Companion) -> None:
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{companion.port}/")
    expect(page.locator("#game-name")).to_have_text("scoundrel")
    expect(page.locator("#board-panel")).to_be_hidden()
    # the new-game set-up: Superheld with a whole map laid and the capital chosen
    page.select_option("#new-game", "superheld")
    page.fill("#new-setup", json.dumps(SETUP))
    page.click("#new-form button")
    expect(page.locator("#game-name")).to_have_text("superheld")
    expect(page.locator("#board-panel")).to_be_visible()
    expect(page.locator("#board-map .cell")).to_have_count(48)
    expect(page.locator("#board-map .cell.hidden")).to_have_count(8)  # the Dark Forest, face down
    starts = _targets([])
    assert _highlighted(page, starts) == starts == {"2S", "2H", "2D", "2C"}
    expect(page.locator("#board-reach")).to_contain_text("may start on: 2C, 2D, 2H, 2S")
    expect(page.locator("#board-goals li").first).to_have_text("○ henchmen defeated: 0/47")

    # a click on a highlighted cell plays the move; the highlight follows the engine's legal moves
    page.locator('#board-map .cell.reach[data-code="2S"]').click()
    steps = _targets([{"start": "2S"}])
    expect(page.locator('#board-map .cell.hero[data-code="2S"]')).to_have_count(1)
    assert _highlighted(page, steps) == steps and steps.isdisjoint(starts)
    expect(page.locator("#board-reach")).to_contain_text("or stay")
    expect(page.locator("#board-take-box")).to_be_visible()  # 2S is next on the spade pile: taken when leaving
    go = sorted(steps)[0]
    page.locator(f'#board-map .cell.reach[data-code="{go}"]').click()
    expect(page.locator(f'#board-map .cell.hero[data-code="{go}"]')).to_have_count(1)
    expect(page.locator('#board-map .cell.taken[data-code="2S"]')).to_have_count(1)  # a hole now
    after = _targets([{"start": "2S"}, {"go": go, "take": True}])
    assert _highlighted(page, after) == after != steps and "2S" not in after
    expect(page.locator("#board-coins")).to_have_text("1")  # a village left after a defeat: +1
    expect(page.locator("#board-skill-piles")).to_contain_text("2S")
    expect(page.locator("#board-goals li").first).to_have_text("○ henchmen defeated: 1/47")
    assert companion.session.record()["moves"] == [{"start": "2S"}, {"go": go, "take": True}]
    page.close()


def _frame(board: dict, seed: int) -> tuple[np.ndarray, list[dict], dict]:
    """The practice map laid on a synthetic table as the engine's cells say, seen by a tilted, turned camera."""
    placements = [Placement(c["code"], (c["x"] + c["w"] / 2, c["y"] + c["h"] / 2), 0.0) for c in board["cells"]]
    image, truths, _ = compose(placements, np.random.default_rng(seed), (960, 540), effects=False, max_tilt=0.35,
                               max_turn=180, fill=(0.6, 0.8))
    return image, truth_detections(truths).to_json(), {t.code: t.corners for t in truths}


def _on_outline(image: np.ndarray, corners: np.ndarray, colour: tuple[int, int, int]) -> float:
    """Share of the (inset) outline's edge midpoints drawn in `colour`."""
    corners = overlay.inset(corners.astype(np.float64))
    mids = (corners + np.roll(corners, -1, axis=0)) / 2
    return float(np.mean([tuple(image[int(round(y)), int(round(x))]) == colour for x, y in mids]))


def test_overlay_marks_where_the_hero_may_go_on_the_camera_image() -> None:
    s = practice_state(["2S 3S 4S", "2H 3H 4H", "7C 8C KC"], "KC", ["2S"])
    board = superheld_board(s, legal.legal_moves(s))
    assert board["reachable"] == ["2H", "3S"] and board["stay"] and board["take"] == "2S"
    for seed in (1, 2, 3):
        image, cards, truth = _frame(board, seed)
        data = calibration.measure(cards, image.shape)
        assert data is not None and data["cards"] == 9
        h = calibration.homography(data, image.shape)
        marks = camera_marks(board, cards, h)
        assert {(m["code"], m["kind"], m["seen"]) for m in marks} == {("2S", "hero", True), ("3S", "reach", True),
                                                                      ("2H", "reach", True)}
        out = overlay.draw(image, cards, set(), "still", {}, None, calibration.grid_lines(data, image.shape), marks)
        assert _on_outline(out, truth["3S"], overlay.CYAN) == 1.0 and _on_outline(out, truth["2H"], overlay.CYAN) == 1.0
        assert _on_outline(out, truth["2S"], overlay.MAGENTA) == 1.0
        for other in ("4S", "3H", "KC"):  # not reachable: outlined as read cards only
            assert _on_outline(out, truth[other], overlay.CYAN) == 0.0
        # 3S not read (covered, or a face-down forest card): placed from the map fitted in table mm
        unread = [c for c in cards if c["code"] != "3S"]
        placed = {m["code"]: m for m in camera_marks(board, unread, h)}["3S"]
        error = np.abs(np.asarray(placed["corners"]) - truth["3S"]).max()
        assert not placed["seen"] and error < 8.0, error
        dashed = overlay.draw(image, unread, set(), "still", {}, None, None, camera_marks(board, unread, h))
        assert (np.abs(dashed.astype(int) - image.astype(int)).sum(axis=2) > 0).any()
    # no read cards at all: nothing to mark on the image (the dashboard's map still shows them)
    assert camera_marks(board, [], None) == []
