"""The browser table in Hindi, in a real browser (Debian's Chromium under Playwright).

A Hindi reader chooses हिन्दी with ``?lang=hi``, plays a whole Gin hand by clicks, opens
in Rami with two sets and has a lay-off refused in Hindi words; the choice is remembered
across reloads and the link's ``?lang=`` wins over it. Screenshots (desktop and phone
width) go to ``test-output/hi-*.png``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_helpers import (
    drag,
    hand_card,
    needs_chromium,
    new_page,
    no_overflow,
    open_and_start,
    pick,
    shot,
    table_url,
)
from gin_clicks import my_turn_or_reveal, play_gin_hand

pytestmark = needs_chromium
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the 'server-test' extra")

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
LATIN_WORD = re.compile(r"\b[a-z]{3,}\b")
RULE_LINK = re.compile(r"§[a-z]+-[\d.]+")
RAMI_SEED = 75
"""Four seats: seat 0 plays first and can open with 9C 9D 9H + TC TD TH = 57."""


def hindi(text: str) -> str:
    """``text``, checked to be in Hindi: Devanagari, and no English word in it (card
    notation such as 7H, a rule's id such as §rami-4.9 and people's names are not
    words)."""
    assert DEVANAGARI.search(text), text
    words = RULE_LINK.sub("", text)
    english = [word for word in LATIN_WORD.findall(words) if word != "rummykit"]
    assert not english, f"English words {english} in {text!r}"
    return text


def start_gin_in_hindi(page: Any, base_url: str) -> None:
    page.goto(base_url + "/?lang=hi")
    page.wait_for_selector("[data-testid=create-table]")
    assert page.get_attribute("html", "lang") == "hi"
    page.fill("[data-testid=player-name]", "अनु")
    page.select_option("[data-testid=seat-1-level]", "heuristic")
    page.click("[data-testid=create-table]")
    page.wait_for_selector("[data-testid=start]:not([disabled])")
    hindi(page.inner_text("[data-testid=waiting]"))
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] .card[data-card]")


def test_a_whole_gin_hand_in_hindi(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 860)
    page.goto(base_url + "/?lang=hi")
    page.wait_for_selector("[data-testid=create-table]")
    page.click(".rule-options summary")
    hindi(page.inner_text("[data-testid=create-form]"))
    assert page.get_attribute("[data-testid=rules-link]", "href") == "/rules/gin?lang=hi"
    shot(page, "hi-lobby.png")
    start_gin_in_hindi(page, base_url)
    my_turn_or_reveal(page)
    hindi(page.inner_text("[data-testid=prompt]"))
    hindi(page.inner_text("[data-testid=score-sheet]"))
    played = play_gin_hand(page, shots="hi-gin")
    page.wait_for_selector("[data-testid=reveal]")
    page.wait_for_timeout(300)
    shot(page, "hi-gin-reveal.png")
    hindi(page.inner_text("[data-testid=reveal-title]"))
    hindi(page.inner_text("[data-testid=reveal-points]"))
    hindi(page.inner_text("[data-testid=reveal-close]"))
    page.click("[data-testid=reveal-close]")
    assert len(page.query_selector_all("[data-testid=score-sheet] tbody tr")) == 1
    hindi(page.inner_text("[data-testid=score-sheet]"))
    shot(page, "hi-gin-score-sheet.png")
    assert played["stock"] >= 1
    assert not errors, errors
    page.close()


def test_gin_at_phone_width_in_hindi(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 390, 844)
    start_gin_in_hindi(page, base_url)
    my_turn_or_reveal(page)
    page.wait_for_timeout(400)
    shot(page, "hi-gin-phone.png")
    no_overflow(page, 390)
    prompt = page.locator("[data-testid=prompt]").bounding_box()
    assert prompt["x"] >= 0 and prompt["x"] + prompt["width"] <= 390
    assert not errors, errors
    page.close()


def test_a_rami_opening_and_a_refusal_in_hindi(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    url, _table, _token = table_url(base_url, "rami", RAMI_SEED, bots=3)
    page.goto(base_url + "/?lang=hi")  # the choice is remembered for the invite link
    page.wait_for_selector("[data-testid=create-table]")
    open_and_start(page, url)
    page.wait_for_selector(".rami-table[data-my-turn=true]")
    hindi(page.inner_text("[data-testid=prompt]"))
    assert "13 पत्ते" in page.inner_text("[data-testid=opponent-1]")
    page.click("[data-testid=stock]")
    page.wait_for_selector(".rami-table[data-phase=play]")
    for face in ("9C", "9D", "9H"):
        pick(page, hand_card(page, face))
    status = page.wait_for_selector("[data-testid=opening-status][data-total='27']")
    assert "24 और चाहिए" in hindi(status.inner_text())
    page.click("[data-testid=combine]")
    for face in ("TC", "TD", "TH"):
        pick(page, hand_card(page, face))
    status = page.wait_for_selector("[data-testid=opening-status][data-reaches=true]")
    assert "57 / 51" in hindi(status.inner_text())
    hindi(page.inner_text("[data-testid=actions]"))
    shot(page, "hi-rami-opening-ready.png")
    page.click("[data-testid=open]")
    page.wait_for_selector("[data-testid=combo-1]")
    assert page.get_attribute(".rami-table", "data-opened") == "true"
    # A card that fits nowhere, dropped on a combination: refused, in Hindi.
    drag(page, hand_card(page, "4S"), "[data-testid=combo-0]")
    toast = page.wait_for_selector("[data-testid=toast-error]")
    text = hindi(toast.inner_text())
    assert "4S" in text and "cannot" not in text
    assert (
        toast.query_selector("[data-testid=rule-link]")
        .get_attribute("href")
        .startswith("/rules/rami?lang=hi#rami-")
    )
    shot(page, "hi-rami-refused.png")
    hindi(page.inner_text("[data-testid=score-sheet]"))
    page.close()
    assert not errors, errors


def test_rami_at_phone_width_in_hindi(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 390, 844)
    url, _table, _token = table_url(base_url, "rami", RAMI_SEED, bots=3)
    address, fragment = url.split("#")
    page.goto(f"{address}?lang=hi#{fragment}")  # an invite link that chooses Hindi
    page.wait_for_selector("[data-testid=start]:not([disabled])")
    page.click("[data-testid=start]")
    page.wait_for_selector(".rami-table[data-my-turn=true]")
    page.wait_for_timeout(400)
    shot(page, "hi-rami-phone.png")
    no_overflow(page, 390)
    hindi(page.inner_text("[data-testid=prompt]"))
    page.close()
    assert not errors, errors


def test_the_language_choice_persists_and_a_link_chooses_it(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1024, 800)
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=create-table]")
    assert page.get_attribute("html", "lang") == "en"
    assert page.inner_text("[data-testid=create-table]") == "Create table"
    # Chosen in the top bar: the page shows itself again in Hindi, and stays so.
    with page.expect_navigation():
        page.select_option("[data-testid=language]", "hi")
    page.wait_for_selector("[data-testid=create-table]")
    assert page.get_attribute("html", "lang") == "hi"
    assert hindi(page.inner_text("[data-testid=create-table]")) == "मेज़ बनाएँ"
    page.reload()
    page.wait_for_selector("[data-testid=create-table]")
    assert page.input_value("[data-testid=language]") == "hi"
    # A link's ?lang= wins over the stored choice, and is stored in turn.
    page.goto(base_url + "/?lang=en")
    page.wait_for_selector("[data-testid=create-table]")
    assert page.inner_text("[data-testid=create-table]") == "Create table"
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=create-table]")
    assert page.get_attribute("html", "lang") == "en"
    page.goto(base_url + "/?lang=hi")
    page.wait_for_selector("[data-testid=create-table]")
    page.reload()
    page.wait_for_selector("[data-testid=create-table]")
    assert page.get_attribute("html", "lang") == "hi"
    assert page.evaluate("() => localStorage.getItem('rummykit:lang')") == "hi"
    page.close()
    assert not errors, errors
