"""The rules in a real browser (Debian's Chromium driven by Playwright): the lobby links
each game's rules, a rules page opens at the rule a link names, and a refused move's
message links the rule it breaks. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browser_helpers import needs_chromium, new_page, shot
from server_helpers import post

pytestmark = needs_chromium
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the 'server-test' extra")

OFFER_SEED = 7
"""A Gin deal whose seat 0 is offered the upcard first."""


def test_the_lobby_links_each_games_rules(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 860)
    page.goto(base_url + "/")
    link = page.wait_for_selector("[data-testid=rules-link]")
    assert link.is_visible() and link.inner_text() == "Rules of Gin Rummy"
    assert (link.get_attribute("href"), link.get_attribute("target")) == ("/rules/gin", "_blank")
    page.select_option("[data-testid=variant]", "rami")
    assert page.get_attribute("[data-testid=rules-link]", "href") == "/rules/rami"
    page.select_option("[data-testid=variant]", "carousel")
    with page.context.expect_page() as opened:
        page.click("[data-testid=rules-link]")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == base_url + "/rules/carousel"
    assert rules.inner_text("h1") == "Carousel: the rules rummykit plays"
    rules.close()
    page.close()
    assert not errors, errors


def test_a_rules_page_opens_at_the_rule_it_names(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 860)
    page.goto(base_url + "/rules/gin#gin-6.2")
    anchor = page.locator("#gin-6\\.2")
    assert anchor.count() == 1
    # The rule is scrolled into view, and its paragraph marked.
    top = page.evaluate("() => document.getElementById('gin-6.2').getBoundingClientRect().top")
    assert 0 <= top < 200
    marked = page.evaluate(
        "() => getComputedStyle(document.getElementById('gin-6.2').parentElement).backgroundColor"
    )
    assert marked not in ("rgba(0, 0, 0, 0)", "transparent")
    shot(page, "rules-gin-6.2.png")
    page.close()
    assert not errors, errors


def test_a_refused_moves_message_links_its_rule(base_url: str, browser: Any) -> None:
    """The page's discard is turned, on its way to the server, into a discard of the
    upcard just taken: the server refuses it (§gin-3.5) and the message links the rule."""
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 860)
    port = int(base_url.rsplit(":", 1)[1])
    created = post(
        port,
        "/api/tables",
        {
            "variant": "gin",
            "seed": OFFER_SEED,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
        },
    )
    taken: list[str] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def to_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "act" and data["action"].get("kind") == "discard" and taken:
                data["action"]["card"] = taken[0]
                message = json.dumps(data)
            server.send(message)

        ws.on_message(to_server)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.goto(created["invites"][0]["url"])
    page.wait_for_selector("[data-testid=start]:not([disabled])")
    page.click("[data-testid=start]")
    page.wait_for_selector(".gin-table[data-phase=offer][data-my-turn=true]")
    upcard = page.get_attribute("[data-testid=discard-pile] .card[data-card]", "data-card")
    assert upcard
    taken.append(upcard)
    page.click("[data-testid=discard-pile]")
    page.wait_for_selector(".gin-table[data-phase=discard][data-my-turn=true]")
    other = page.get_attribute("[data-testid=hand] .card.discardable", "data-card")
    selector = f"[data-testid=hand] .card[data-card='{other}']"
    page.click(selector, position={"x": 6, "y": 30})
    page.click(selector, position={"x": 6, "y": 30})
    link = page.wait_for_selector("[data-testid=toast-error] [data-testid=rule-link]")
    assert link.inner_text() == "§gin-3.5"
    assert link.get_attribute("href") == "/rules/gin#gin-3.5"
    assert upcard in page.inner_text("[data-testid=toast-error]")
    shot(page, "rules-refusal-link.png")
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url == base_url + "/rules/gin#gin-3.5"
    assert rules.locator("#gin-3\\.5").count() == 1
    rules.close()
    page.close()
    assert not errors, errors
