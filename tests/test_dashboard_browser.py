"""The dashboard in real headless Chromium: state shown, SSE updates, a correction, an undo, a phone screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from companion.runtime import Companion, Config


@pytest.fixture()
def companion(tmp_path: Path) -> Iterator[Companion]:
    c = Companion(Config(db=tmp_path / "c.db", port=0, setup={"deck": ["5D", "8S", "7H", "QC", "3S"]},
                         recognise=False)).start()
    yield c
    c.stop()


def test_state_sse_correction_and_undo(browser: Browser, companion: Companion) -> None:
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{companion.port}/")
    expect(page.locator("#headline")).to_have_text("life 20")
    expect(page.locator("#game-name")).to_have_text("scoundrel")
    # the camera sees the first room: pushed over SSE, no reload
    companion.session.observe({"room": ["5D", "8S", "7H", "QC"]})
    expect(page.locator("#field-room")).to_have_text('["5D","8S","7H","QC"]')
    # a misread: 5D on the weapon place read as 6D
    companion.session.observe({"room": ["8S", "7H", "QC"], "weapon": "6D"})
    expect(page.locator("#pending-panel")).to_be_visible()
    expect(page.locator("#seen .card.wrong")).to_have_text("6D")
    page.locator("#seen button.card", has_text="6D").click()
    page.select_option("#correct-code", "5D")
    page.click("#correct-send")
    expect(page.locator("#pending-panel")).to_be_hidden()
    expect(page.locator("#field-weapon")).to_have_text("5D")
    expect(page.locator("#log")).to_contain_text("equip 5D (corrected)")
    assert companion.session.record()["moves"] == ["equip 5D"]
    # a move played from the legal-move buttons, then undone
    page.locator("#legal button", has_text="fight 8S weapon").click()
    expect(page.locator("#headline")).to_have_text("life 17")
    page.click("#undo")
    expect(page.locator("#headline")).to_have_text("life 20")
    expect(page.locator("#log li").first).to_have_text("undo: fight 8S weapon")
    assert companion.session.record()["moves"] == ["equip 5D"]
    # a refused action shows its reason
    page.fill("#move-text", "dance 9H")
    page.click("#move-form button")
    expect(page.locator("#action-error")).to_contain_text("cannot parse")
    page.close()


def test_violation_is_shown_in_red_and_announced(browser: Browser, companion: Companion) -> None:
    page = browser.new_page()
    page.goto(f"http://127.0.0.1:{companion.port}/")
    expect(page.locator("#headline")).to_have_text("life 20")
    page.evaluate("() => { window.spoken = []; speechSynthesis.speak = (u) => window.spoken.push(u.text); }")
    page.check("#speak")
    s = companion.session
    s.observe({"room": ["5D", "8S", "7H", "QC"]})
    s.observe({"room": ["8S", "7H", "QC"], "weapon": "5D"})
    s.observe({"room": ["7H", "QC"], "weapon": "5D", "weapon_monsters": ["8S"]})
    s.observe({"room": ["QC"], "weapon": "5D", "weapon_monsters": ["8S"]})
    s.observe({"room": ["QC", "3S"], "weapon": "5D", "weapon_monsters": ["8S"]})
    assert s.observe({"room": ["3S"], "weapon": "5D", "weapon_monsters": ["8S", "QC"]}) == "violation"
    expect(page.locator("#violations p")).to_contain_text("last slew 8S")
    expect(page.locator("#log li.violation").first).to_contain_text("violation: that weapon is blunted")
    page.wait_for_function("window.spoken.some(t => t.includes('weapon is blunted'))")
    assert "life 17" in page.evaluate("window.spoken.join('|')")
    page.close()


def test_the_dashboard_fits_a_phone_screen(browser: Browser, companion: Companion) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{companion.port}/")
    expect(page.locator("#headline")).to_have_text("life 20")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    box = page.locator("#undo").bounding_box()
    assert box is not None and box["height"] >= 40  # big enough to tap
    context.close()
