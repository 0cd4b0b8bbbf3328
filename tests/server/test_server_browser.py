"""The browser table in a real browser: Debian's Chromium driven by Playwright.

A person creates a Gin table against a bot in the lobby, starts it, and plays a whole
hand by clicks (and one drag) until the score shows. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import free_port, post, server_process

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium (/usr/bin/chromium) is not installed; scripts/test.sh installs it",
)
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the 'server-test' extra")

EDGE = {"x": 6, "y": 30}
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("browser")
    port = free_port()
    url = f"sqlite:///{folder / 'tables.db'}"
    with server_process(url, port, folder / "server.log", bot_delay=0.15):
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page_errors() -> list[str]:
    return []


def new_page(browser: Any, errors: list[str], width: int, height: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.set_default_timeout(15_000)
    return page


def shot(page: Any, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / name))


def my_turn_or_reveal(page: Any) -> None:
    page.wait_for_function(
        """() => document.querySelector('[data-testid=reveal]')
              || (document.querySelector('.gin-table')?.dataset.myTurn === 'true'
                  && !document.querySelector('.gin-table.busy'))"""
    )


def state_signature(page: Any) -> str:
    signature: str = page.evaluate(
        """() => {
            const t = document.querySelector('.gin-table');
            return [t.dataset.phase, t.dataset.myTurn, t.dataset.hand,
                    document.querySelectorAll('[data-testid=hand] .card').length,
                    document.querySelector('[data-testid=stock-count]').textContent].join('|');
        }"""
    )
    return signature


def wait_change(page: Any, before: str) -> None:
    page.wait_for_function(
        """(before) => document.querySelector('[data-testid=reveal]') || [
            document.querySelector('.gin-table').dataset.phase,
            document.querySelector('.gin-table').dataset.myTurn,
            document.querySelector('.gin-table').dataset.hand,
            document.querySelectorAll('[data-testid=hand] .card').length,
            document.querySelector('[data-testid=stock-count]').textContent
          ].join('|') !== before""",
        arg=before,
    )


def best_discard(page: Any) -> str:
    """The discardable card whose discard leaves the least deadwood (as the UI shows)."""
    cards: list[dict[str, Any]] = page.eval_on_selector_all(
        "[data-testid=hand] .card.discardable",
        "els => els.map(e => ({card: e.dataset.card, after: Number(e.dataset.after)}))",
    )
    assert cards, "no discardable card shown"
    return str(min(cards, key=lambda c: (c["after"], c["card"]))["card"])


def drag(page: Any, source: str, target: str) -> None:
    start = page.locator(source).bounding_box()
    end = page.locator(target).bounding_box()
    page.mouse.move(start["x"] + 8, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


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
    played = {"pass": 0, "stock": 0, "click-discard": 0, "drag-discard": 0, "knock": 0}
    for step in range(200):
        my_turn_or_reveal(page)
        if page.query_selector("[data-testid=reveal]"):
            break
        before = state_signature(page)
        phase = page.get_attribute(".gin-table", "data-phase")
        if phase == "offer":
            page.click("[data-testid=pass]")
            played["pass"] += 1
        elif phase == "draw":
            page.click("[data-testid=stock]")
            played["stock"] += 1
        elif phase == "discard":
            card = best_discard(page)
            selector = f"[data-testid=hand] .card[data-card='{card}']"
            if page.query_selector("[data-testid=gin]"):
                page.click("[data-testid=gin]")
                page.click("[data-testid=confirm-yes]")
                played["knock"] += 1
            elif step % 5 == 4:
                drag(page, selector, "[data-testid=discard-pile]")
                played["drag-discard"] += 1
            else:
                # Cards overlap: click the visible left edge, as a person would.
                page.click(selector, position=EDGE)  # select: the deadwood counter follows
                after = page.get_attribute(selector, "data-after")
                assert page.inner_text("[data-testid=deadwood]") == after
                if page.is_enabled("[data-testid=knock]"):
                    if played["knock"] == 0 and played["click-discard"] >= 1:
                        shot(page, "gin-knock-ready.png")
                    page.click("[data-testid=knock]")
                    page.wait_for_selector("[data-testid=confirm]")
                    page.click("[data-testid=confirm-yes]")
                    played["knock"] += 1
                else:
                    if played["click-discard"] == 1:
                        shot(page, "gin-table.png")
                    page.click(selector, position=EDGE)  # a second click discards
                    played["click-discard"] += 1
        else:
            page.click("[data-testid=lay-off]")
        wait_change(page, before)
    else:
        raise AssertionError("the hand never ended")
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
    created = post(int(base_url.rsplit(":", 1)[1]), "/api/tables", {"variant": "gin"})
    table_id = created["table"]["id"]
    page = new_page(browser, page_errors, 390, 844)
    page.goto(f"{base_url}/t/{table_id}#seat=0&token=forged-forged-forged-forged")
    toast = page.wait_for_selector("[data-testid=toast-error]")
    assert "not valid" in toast.inner_text()
    shot(page, "gin-bad-token.png")
    page.close()
    assert not page_errors, page_errors
