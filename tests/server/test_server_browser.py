"""The browser table in a real browser: Debian's Chromium driven by Playwright.

A person creates a Gin table against a bot in the lobby, starts it, and plays a whole
hand by clicks (and one drag) until the score shows. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import needs_chromium, new_page, port_of, shot
from gin_clicks import my_turn_or_reveal, play_gin_hand
from server_helpers import post

pytestmark = needs_chromium
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the 'server-test' extra")


@pytest.fixture
def page_errors() -> list[str]:
    return []


def create_and_start(page: Any, base_url: str, name: str) -> None:
    page.goto(base_url + "/")
    page.fill("[data-testid=player-name]", name)
    page.select_option("[data-testid=seat-1-level]", "heuristic")
    page.click("[data-testid=create-table]")
    page.wait_for_selector("[data-testid=start]:not([disabled])")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] .card[data-card]")


def test_play_a_whole_gin_hand_by_clicks(
    base_url: str, browser: Any, page_errors: list[str]
) -> None:
    page = new_page(browser, page_errors, 1280, 860)
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=create-table]")
    shot(page, "lobby.png")
    create_and_start(page, base_url, "Tess")
    assert "Tess" in page.inner_text("[data-testid=seats]")
    played = play_gin_hand(page, shots="gin")
    reveal = page.wait_for_selector("[data-testid=reveal]")
    page.wait_for_timeout(300)
    shot(page, "gin-reveal.png")
    points = page.inner_text("[data-testid=reveal-points]")
    assert "scores" in points or "No points" in points
    assert reveal.get_attribute("data-outcome") in ("knock", "gin", "big_gin", "undercut", "draw")
    page.click("[data-testid=reveal-close]")
    rows = page.query_selector_all("[data-testid=score-sheet] tbody tr")
    assert len(rows) == 1
    shot(page, "gin-score-sheet.png")
    assert played["stock"] >= 1 and played["click-discard"] >= 1
    assert not page_errors, page_errors
    page.close()


def test_phone_width_and_server_errors_in_words(
    base_url: str, browser: Any, page_errors: list[str]
) -> None:
    page = new_page(browser, page_errors, 390, 844)
    create_and_start(page, base_url, "Pho")
    my_turn_or_reveal(page)
    page.wait_for_timeout(400)
    shot(page, "gin-phone.png")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the table is {overflow}px wider than a phone screen"
    hand = page.locator("[data-testid=hand]").bounding_box()
    assert hand["x"] >= 0 and hand["x"] + hand["width"] <= 390
    # Sorting by rank and by suit keeps every card.
    count = len(page.query_selector_all("[data-testid=hand] .card"))
    page.click("[data-testid=sort-rank]")
    assert len(page.query_selector_all("[data-testid=hand] .card")) == count
    page.click("[data-testid=sort-melds]")
    page.close()

    # A forged invite link: the server's refusal is shown in words.
    created = post(port_of(base_url), "/api/tables", {"variant": "gin"})
    table_id = created["table"]["id"]
    page = new_page(browser, page_errors, 390, 844)
    page.goto(f"{base_url}/t/{table_id}#seat=0&token=forged-forged-forged-forged")
    toast = page.wait_for_selector("[data-testid=toast-error]")
    assert "not valid" in toast.inner_text()
    shot(page, "gin-bad-token.png")
    page.close()
    assert not page_errors, page_errors
