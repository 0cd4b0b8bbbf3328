"""A whole Gin hand played in the browser by clicks (and a drag now and then), as a
person would: pass the upcard, draw from the stock, discard the card that leaves the
least deadwood, knock or go gin as soon as the table offers it."""

from __future__ import annotations

from typing import Any

from browser_helpers import shot

EDGE = {"x": 6, "y": 30}
"""Cards overlap: their visible left edge is where a person clicks."""

MOST_STEPS = 200
"""Our moves in a hand: a draw and a discard a turn, the stock down to its floor in at
most 29 turns, so a hand that lasts longer is a failure of the table."""


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


def discard(page: Any, step: int, played: dict[str, int], shots: str) -> None:
    """The discard phase: gin when offered, else the best discard (a knock when it is
    allowed), dragged onto the pile every fifth step and clicked otherwise."""
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
        page.click(selector, position=EDGE)  # select: the deadwood counter follows
        after = page.get_attribute(selector, "data-after")
        assert page.inner_text("[data-testid=deadwood]") == after
        if page.is_enabled("[data-testid=knock]"):
            if played["knock"] == 0 and played["click-discard"] >= 1:
                shot(page, f"{shots}-knock-ready.png")
            page.click("[data-testid=knock]")
            page.wait_for_selector("[data-testid=confirm]")
            page.click("[data-testid=confirm-yes]")
            played["knock"] += 1
        else:
            if played["click-discard"] == 1:
                shot(page, f"{shots}-table.png")
            page.click(selector, position=EDGE)  # a second click discards
            played["click-discard"] += 1


def play_gin_hand(page: Any, shots: str) -> dict[str, int]:
    """Play the person's seat until the end-of-hand reveal shows; how many of each move.

    A draw is always from the stock (never the discard pile, which any first turn
    after a double pass allows too), so the stock runs down and the hand ends."""
    played = {"pass": 0, "stock": 0, "click-discard": 0, "drag-discard": 0, "knock": 0}
    for step in range(MOST_STEPS):
        my_turn_or_reveal(page)
        if page.query_selector("[data-testid=reveal]"):
            return played
        before = state_signature(page)
        phase = page.get_attribute(".gin-table", "data-phase")
        if phase == "offer":
            page.click("[data-testid=pass]")
            played["pass"] += 1
        elif phase == "draw":
            page.click("[data-testid=stock]")
            played["stock"] += 1
        elif phase == "discard":
            discard(page, step, played, shots)
        else:
            page.click("[data-testid=lay-off]")
        wait_change(page, before)
    raise AssertionError(f"the hand never ended: {played}")
