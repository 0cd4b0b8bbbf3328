"""What the browser tests share: Debian's Chromium driven by Playwright, the table server
in a subprocess, pages that collect their script errors, and screenshots in
``test-output/`` (looked at by people, never compared by a test)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from server_helpers import free_port, post, server_process

CHROMIUM = Path("/usr/bin/chromium")
OUTPUT = Path(__file__).resolve().parents[2] / "test-output"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="Debian's chromium (/usr/bin/chromium) is not installed; scripts/test.sh installs it",
)


@contextmanager
def serving(folder: Path, bot_delay: float = 0.15) -> Iterator[str]:
    """A table server on SQLite in ``folder``, its bots a little slow (so animations
    show); yields its base URL."""
    port = free_port()
    url = f"sqlite:///{folder / 'tables.db'}"
    with server_process(url, port, folder / "server.log", bot_delay=bot_delay):
        yield f"http://127.0.0.1:{port}"


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, under Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def new_page(
    browser: Any, errors: list[str], width: int, height: int, timeout: int = 20_000
) -> Any:
    """A page of its own (a fresh browser context: its own storage) that appends its
    script errors and console errors to ``errors``."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.set_default_timeout(timeout)
    return page


def shot(page: Any, name: str) -> None:
    OUTPUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUTPUT / name))


def port_of(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1])


def table_url(
    base_url: str, variant: str, seed: int, bots: int, options: dict[str, Any] | None = None
) -> tuple[str, str, str]:
    """Create a table (seat 0 a person); its invite URL, id and token."""
    body: dict[str, Any] = {
        "variant": variant,
        "seed": seed,
        "seats": [{"kind": "human", "name": "Ann"}]
        + [{"kind": "bot", "level": "heuristic", "name": f"Bot {i + 1}"} for i in range(bots)],
    }
    if options:
        body["options"] = options
    created = post(port_of(base_url), "/api/tables", body)
    invite = created["invites"][0]
    return str(invite["url"]), str(created["table"]["id"]), str(invite["token"])


def open_and_start(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("[data-testid=start]:not([disabled])")
    page.click("[data-testid=start]")
    page.wait_for_selector("[data-testid=hand] .card[data-card]")


def pick(page: Any, selector: str) -> None:
    """Click a hand card where it shows: cards overlap (and a picked one rises), so the
    bottom-left corner is the part a person can always see."""
    box = page.locator(selector).first.bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + box["height"] - 6)


def hand_card(page: Any, face: str) -> str:
    """The selector of the hand card showing ``face`` (a Rami card may be ``9C@1``)."""
    token: str = page.eval_on_selector_all(
        "[data-testid=hand] .card[data-card]",
        "(els, face) => els.map(e => e.dataset.card).find(c => c.split('@')[0] === face)",
        face,
    )
    assert token, f"{face} is not in the hand"
    return f"[data-testid=hand] .card[data-card='{token}']"


def drag(page: Any, source: str, target: str) -> None:
    start = page.locator(source).first.bounding_box()
    end = page.locator(target).first.bounding_box()
    page.mouse.move(start["x"] + 5, start["y"] + start["height"] - 6)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()


def no_overflow(page: Any, width: int) -> None:
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the table is {overflow}px wider than a {width}px screen"
