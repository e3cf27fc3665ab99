"""The dashboard on a phone: real headless Chromium at a phone's screen (390 x 844 CSS px, 3 device px each,
touch), served by a real companion whose camera is an image folder with a full-HD frame.

Nothing may make the page wider than the screen (a mobile browser widens its layout instead of scrolling, so
the width is checked both ways); the live view scales to the width; the controls (correct, confirm, undo, new
game) lie on the screen, are finger-sized and are what a tap there hits; the long moves of Carcassonne wrap.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from companion.runtime import Companion, Config

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}
WIDTH = PHONE["viewport"]["width"]  # type: ignore[index]
FINGER_PX = 40  # the least height of a control a finger can hit (CSS px)
CAMERA = (1920, 1080)
OVERFLOW = """() => { const w = window.innerWidth, out = [];
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (r.width && (r.right > w + 0.5 || r.left < -0.5)) out.push(`${e.tagName}#${e.id}.${e.className}`);
  }
  return {scroll: document.scrollingElement.scrollWidth, inner: w, wider: out.slice(0, 10)}; }"""


@pytest.fixture()
def companion(tmp_path: Path) -> Iterator[Companion]:
    folder = tmp_path / "camera"
    folder.mkdir()
    frame = np.full((CAMERA[1], CAMERA[0], 3), 70, np.uint8)
    cv2.rectangle(frame, (100, 100), (CAMERA[0] - 100, CAMERA[1] - 100), (0, 200, 0), 20)
    assert cv2.imwrite(str(folder / "table.png"), frame)
    c = Companion(Config(db=tmp_path / "c.db", port=0, source=str(folder),
                         setup={"deck": ["5D", "8S", "7H", "QC", "3S"]}, recognise=False)).start()
    yield c
    c.stop()


@pytest.fixture()
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(**PHONE)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert errors == []


def _fits(page: Page) -> None:
    """No horizontal scrolling, and the layout was not widened past the screen to avoid it."""
    got: dict[str, Any] = page.evaluate(OVERFLOW)
    assert got["inner"] == WIDTH and got["scroll"] <= got["inner"] and got["wider"] == [], got


def _tappable(control: Locator) -> None:
    """On the screen once scrolled to, finger-sized, and the topmost thing at its centre."""
    control.scroll_into_view_if_needed()
    box = control.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, box
    assert box["height"] >= FINGER_PX, box
    hit = control.evaluate("(e) => { const r = e.getBoundingClientRect();"
                           " return e.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }")
    assert hit, box


def test_the_dashboard_is_usable_from_a_phone(companion: Companion, phone: Page, tmp_path: Path) -> None:
    page = phone
    page.goto(f"http://127.0.0.1:{companion.port}/")
    expect(page.locator("#headline")).to_have_text("life 20")
    page.wait_for_function("document.getElementById('live').naturalWidth > 640")  # the camera's, not the placeholder
    assert page.evaluate("document.getElementById('live').naturalWidth") == CAMERA[0]
    _fits(page)
    live = page.locator("#live").bounding_box()
    assert live is not None and 0.85 * WIDTH <= live["width"] <= WIDTH and live["x"] >= 0
    assert live["height"] == pytest.approx(live["width"] * CAMERA[1] / CAMERA[0], abs=2)  # scaled, not squeezed

    s = companion.session  # a misread: 5D on the weapon place read as 6D; corrected by taps
    s.observe({"room": ["5D", "8S", "7H", "QC"]})
    s.observe({"room": ["8S", "7H", "QC"], "weapon": "6D"})
    expect(page.locator("#pending-panel")).to_be_visible()
    _fits(page)
    wrong = page.locator("#seen button.card", has_text="6D")
    _tappable(wrong)
    wrong.tap()
    _tappable(page.locator("#correct-code"))
    page.select_option("#correct-code", "5D")
    _tappable(page.locator("#correct-send"))
    page.locator("#correct-send").tap()
    expect(page.locator("#pending-panel")).to_be_hidden()
    assert s.record()["moves"] == ["equip 5D"]

    assert s.observe({"room": ["7H", "QC"], "weapon": "5D", "weapon_monsters": ["9S"]}) == "misread"  # 8S read as 9S
    confirm = page.locator("#options button", has_text="fight 8S weapon")
    expect(confirm).to_be_visible()
    _fits(page)
    _tappable(confirm)
    confirm.tap()
    expect(page.locator("#headline")).to_have_text("life 17")

    undo = page.locator("#undo")
    _tappable(undo)
    undo.tap()
    expect(page.locator("#headline")).to_have_text("life 20")
    assert s.record()["moves"] == ["equip 5D"]
    page.screenshot(path=str(tmp_path / "phone.png"), full_page=True)

    # a new game from the phone: Carcassonne, whose legal moves are long JSON words that must wrap
    _tappable(page.locator("#new-game"))
    page.select_option("#new-game", "carcassonne")
    start = page.locator("#new-form button")
    _tappable(start)
    start.tap()
    expect(page.locator("#game-name")).to_have_text("carcassonne")
    expect(page.locator("#legal button").first).to_be_visible()
    _fits(page)
    _tappable(page.locator("#legal button").last)
    _tappable(page.locator("#undo"))


def test_a_strijders_misread_on_a_phone(phone: Page, tmp_path: Path) -> None:
    """Each player's card shown as a zone of its own (one card, not a list), a suggested round confirmed by a tap."""
    from test_companion_strijders_camera import OPTIONS, _cards, _hidden, _true_record

    record = _true_record(_cards())
    c = Companion(Config(db=tmp_path / "s.db", port=0, game="strijders", options=OPTIONS, setup=_hidden(record),
                         recognise=False)).start()
    try:
        page = phone
        page.goto(f"http://127.0.0.1:{c.port}/")
        expect(page.locator("#game-name")).to_have_text("strijders")
        first, second = record.moves[:2]
        assert c.session.observe(dict(first)) == "moves"
        assert c.session.observe({"a": "?", "b": second["b"]}) == "misread"  # a's card matched too weakly
        expect(page.locator("#pending-panel")).to_be_visible()
        expect(page.locator("#seen .zone")).to_have_text(["player a", "player b"])
        expect(page.locator("#seen .card")).to_have_text(["?", second["b"]])
        expect(page.locator("#expected .card")).to_have_text([first["a"], first["b"]])  # the last round's cards
        _fits(page)
        options = [o["moves"] for o in (c.session.state.pending or {})["options"]]
        assert options and all(m[0]["b"] == second["b"] for m in options)
        confirm = page.locator("#options button").first
        _tappable(confirm)
        confirm.tap()
        expect(page.locator("#pending-panel")).to_be_hidden()
        assert c.session.record()["moves"] == [first, options[0][0]]
    finally:
        c.stop()
