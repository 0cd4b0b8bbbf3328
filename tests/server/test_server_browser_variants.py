"""Rami and Carousel tables in a real browser: Debian's Chromium driven by Playwright.

A person opens a Rami table against three bots and opens with two sets through the UI,
lays off, and sees a refusal in words; another opens a Carousel table against two bots
and lays a meld with the layout editor, then asks for the solver's hint. A third plays
whole rounds (the moves sent by a script on the same seat) until the end-of-round
reveal and the score sheet show. Screenshots go to ``test-output/``.
"""

from __future__ import annotations

import json
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
    port_of,
    shot,
    table_url,
)

pytestmark = needs_chromium
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the 'server-test' extra")
websockets_sync = pytest.importorskip("websockets.sync.client")

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
RAMI_SEED = 75
"""Four seats: seat 0 plays first and can open with 9C 9D 9H + TC TD TH = 57."""
LAYOFF_SEED = 204
"""Four seats: seat 0 plays first; after its draw it can open with KS KD KH, 3C 4C 5C and
3D 4D 5D (54), then lay 6D off onto the diamonds."""
CAROUSEL_SEED = 6
"""Three seats: seat 0 plays first holding 3S 4S 5S."""
JOKER_SEED = 26
"""Three seats: seat 0 plays first holding QS QC QD and a joker."""


def test_the_lobby_offers_every_variant_preset_and_seat_count(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    page.goto(base_url + "/")
    page.wait_for_selector("[data-testid=create-table]")
    variants = page.eval_on_selector_all(
        "[data-testid=variant] option", "els => els.map(e => e.value)"
    )
    assert variants == ["gin", "rami", "carousel"]
    page.select_option("[data-testid=variant]", "rami")
    presets = page.eval_on_selector_all(
        "[data-testid=preset] option", "els => els.map(e => e.value)"
    )
    assert presets == ["rami51", "rami40", "rami51-house", "rami40-house"]
    seats = page.eval_on_selector_all("[name=seats] option", "els => els.map(e => e.value)")
    assert seats == ["2", "3", "4", "5", "6"]
    assert len(page.query_selector_all(".seat-row")) == 4
    # Choosing a preset shows its values in the rule options.
    page.select_option("[data-testid=preset]", "rami40-house")
    page.click(".rule-options summary")
    assert page.input_value("[name=opening_threshold]") == "40"
    assert page.input_value("[name=unopened_penalty]") == "flat:100"
    assert page.input_value("[name=jokers]") == "per_deck"
    shot(page, "rami-lobby.png")
    page.select_option("[data-testid=variant]", "carousel")
    seats = page.eval_on_selector_all("[name=seats] option", "els => els.map(e => e.value)")
    assert seats == ["2", "3", "4", "5"]
    # A table made in the lobby: Rami 40 for three, then the waiting room starts it.
    page.select_option("[data-testid=variant]", "rami")
    page.select_option("[data-testid=preset]", "rami40")
    page.select_option("[name=seats]", "3")
    page.fill("[data-testid=player-name]", "Lou")
    page.click("[data-testid=create-table]")
    page.click("[data-testid=start]")
    page.wait_for_selector(".rami-table [data-testid=hand] .card")
    assert len(page.query_selector_all(".opponent-chip")) == 2
    assert len(page.query_selector_all("[data-testid=hand] .card")) == 13
    page.close()
    assert not errors, errors


def test_rami_opening_lay_off_and_a_refusal_in_words(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    url, _table, _token = table_url(base_url, "rami", RAMI_SEED, bots=3)
    open_and_start(page, url)
    page.wait_for_selector(".rami-table[data-my-turn=true]")
    assert len(page.query_selector_all(".opponent-chip")) == 3
    assert "13 cards" in page.inner_text("[data-testid=opponent-1]")
    page.click("[data-testid=stock]")
    page.wait_for_selector(".rami-table[data-phase=play]")
    # Build the opening: the first set is put aside, the second stays selected.
    for face in ("9C", "9D", "9H"):
        pick(page, hand_card(page, face))
    status = page.wait_for_selector("[data-testid=opening-status][data-total='27']")
    assert "24 more needed" in status.inner_text()
    assert page.is_disabled("[data-testid=open]")
    page.click("[data-testid=combine]")
    for face in ("TC", "TD", "TH"):
        pick(page, hand_card(page, face))
    status = page.wait_for_selector("[data-testid=opening-status][data-reaches=true]")
    assert "57 of 51" in status.inner_text()
    shot(page, "rami-opening-ready.png")
    page.click("[data-testid=open]")
    page.wait_for_selector("[data-testid=combo-1]")
    heads = page.eval_on_selector_all(".combo .combo-head", "els => els.map(e => e.innerText)")
    assert [head.split("·")[0].strip() for head in heads] == ["#1 Ann", "#2 Ann"]
    assert page.get_attribute(".rami-table", "data-opened") == "true"
    # A card that fits nowhere, dropped on a combination: the server says why, in words.
    drag(page, hand_card(page, "4S"), "[data-testid=combo-0]")
    toast = page.wait_for_selector("[data-testid=toast-error]")
    assert "4S" in toast.inner_text() or "lay off" in toast.inner_text()
    shot(page, "rami-refused.png")
    # Discard by dragging onto the pile (ends the play phase, then discards).
    hand_before = len(page.query_selector_all("[data-testid=hand] .card"))
    drag(page, hand_card(page, "KD"), "[data-testid=discard-pile]")
    page.wait_for_selector(".rami-table[data-my-turn=false]")
    assert len(page.query_selector_all("[data-testid=hand] .card")) == hand_before - 1
    # The bots play (with animations); then it is our turn again.
    page.wait_for_selector(".rami-table[data-my-turn=true]", timeout=60_000)
    page.wait_for_timeout(500)
    shot(page, "rami-table.png")
    assert "Penalties" in page.inner_text("[data-testid=score-sheet]")
    page.close()
    assert not errors, errors


def test_rami_lay_off_by_click_after_opening(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    url, _table, _token = table_url(base_url, "rami", LAYOFF_SEED, bots=3)
    open_and_start(page, url)
    page.wait_for_selector(".rami-table[data-my-turn=true]")
    page.click("[data-testid=stock]")
    page.wait_for_selector(".rami-table[data-phase=play]")
    for group in (("KS", "KD", "KH"), ("3C", "4C", "5C")):
        for face in group:
            pick(page, hand_card(page, face))
        page.click("[data-testid=combine]")
    for face in ("3D", "4D", "5D"):
        pick(page, hand_card(page, face))
    page.wait_for_selector("[data-testid=opening-status][data-reaches=true]")
    assert page.get_attribute("[data-testid=opening-status]", "data-total") == "54"
    page.click("[data-testid=open]")
    page.wait_for_selector("[data-testid=combo-2]")
    # Select 6D: the run it extends is outlined; a click on it lays the card off.
    pick(page, hand_card(page, "6D"))
    page.wait_for_selector("[data-testid=combo-2].fits")
    shot(page, "rami-lay-off.png")
    page.click("[data-testid=combo-2]")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=combo-2] .card').length === 4"
    )
    cards = page.eval_on_selector_all(
        "[data-testid=combo-2] .card", "els => els.map(e => e.dataset.card)"
    )
    assert cards == ["3D", "4D", "5D", "6D"]
    page.close()
    assert not errors, errors


def test_carousel_meld_with_the_editor_and_a_hint(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    url, _table, _token = table_url(base_url, "carousel", CAROUSEL_SEED, bots=2)
    open_and_start(page, url)
    page.wait_for_selector(".carousel-table[data-my-turn=true]")
    assert "Draws this turn: 1 of 3" in page.inner_text("[data-testid=draw-info]")
    # A meld that is not legal yet: the server's check says why.
    for face in ("3S", "4S"):
        pick(page, f"[data-testid=hand] .card[data-card='{face}']")
    page.click("[data-testid=new-meld]")
    bad = page.wait_for_selector("[data-testid=layout-status][data-ok=false]")
    assert bad.inner_text()
    assert page.is_disabled("[data-testid=meld]")
    # Drag the third card onto the new meld: now it is legal.
    drag(page, "[data-testid=hand] .card[data-card='5S']", "[data-testid=meld-0]")
    good = page.wait_for_selector("[data-testid=layout-status][data-ok=true]")
    assert "3S 4S 5S" in good.inner_text()
    shot(page, "carousel-editor.png")
    page.click("[data-testid=meld]")
    page.wait_for_selector(".carousel-table[data-melded=true]")
    assert page.eval_on_selector_all(
        "[data-testid=meld-0] .card", "els => els.map(e => e.dataset.card)"
    ) == ["3S", "4S", "5S"]
    # Reset turn undoes edits; end the turn, let the bots play, ask for a hint.
    pick(page, "[data-testid=hand] .card[data-card='AS']")
    page.click("[data-testid=move-to-0]")
    page.wait_for_selector("[data-testid=layout-status][data-ok=false]")
    page.click("[data-testid=reset]")
    assert len(page.query_selector_all("[data-testid=meld-0] .card")) == 3
    page.click("[data-testid=end-turn]")
    page.wait_for_selector(".carousel-table[data-my-turn=false]")
    page.wait_for_selector(".carousel-table[data-my-turn=true]", timeout=60_000)
    page.click("[data-testid=hint]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=advice]').innerText.length > 0"
    )
    advice = page.inner_text("[data-testid=advice]")
    if advice.startswith("Best placement"):
        page.wait_for_selector("[data-testid=layout-status][data-ok=true]")
    page.wait_for_timeout(300)
    shot(page, "carousel-hint.png")
    page.close()
    assert not errors, errors


def test_carousel_joker_declared_in_the_editor(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1024, 900)
    url, _table, _token = table_url(base_url, "carousel", JOKER_SEED, bots=2)
    open_and_start(page, url)
    page.wait_for_selector(".carousel-table[data-my-turn=true]")
    for face in ("QS", "QC", "JK"):
        pick(page, f"[data-testid=hand] .card[data-card='{face}']")
    page.click("[data-testid=new-meld]")
    # A joker from the hand asks which card it stands for.
    page.wait_for_selector("[data-testid=declare-dialog]")
    page.select_option("[data-testid=declare-rank]", "Q")
    page.select_option("[data-testid=declare-suit]", "H")
    shot(page, "carousel-declare.png")
    page.click("[data-testid=declare-ok]")
    good = page.wait_for_selector("[data-testid=layout-status][data-ok=true]")
    assert "JK" in good.inner_text()
    page.click("[data-testid=meld]")
    page.wait_for_selector(".carousel-table[data-melded=true]")
    cards = page.eval_on_selector_all(
        "[data-testid=meld-0] .card", "els => els.map(e => e.dataset.card)"
    )
    assert sorted(cards) == ["JK=QH", "QC", "QS"]
    page.close()
    assert not errors, errors


def play_seat_from_a_script(port: int, table_id: str, token: str, variant: str) -> None:
    """Play seat 0's moves over its own websocket (the hint's move, or draw / end)."""
    with websockets_sync.connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}") as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        view: dict[str, Any] | None = None
        moves = 0
        while moves < 600:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] in ("welcome", "snapshot", "update") and message.get("view"):
                view = message["view"]
            if not view or view["is_over"]:
                if view and view["is_over"]:
                    return
                continue
            if not view["legal_actions"] and not view.get("may_meld"):
                continue
            if message["type"] not in ("welcome", "snapshot", "update"):
                continue
            ws.send(json.dumps({"type": "hint", "id": f"h{moves}"}))
            while True:
                reply = json.loads(ws.recv(timeout=60))
                if reply.get("id") == f"h{moves}":
                    break
            hint = reply.get("hint", {})
            action = None
            if variant == "rami":
                action = hint.get("suggestion", {}).get("action")
            elif hint.get("placement") and view["may_meld"] and not view["melded"]:
                action = hint["placement"]["action"]
            if action is None:
                kinds = {a["kind"]: a for a in view["legal_actions"]}
                action = next(kinds[k] for k in ("draw", "knock", "end_turn") if k in kinds)
            ws.send(json.dumps({"type": "act", "id": f"a{moves}", "action": action}))
            moves += 1
            view = None  # wait for the update of this move
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("language", ["en", "hi"])
@pytest.mark.parametrize(
    ("variant", "seed", "bots", "options"),
    [
        ("rami", RAMI_SEED, 3, {"end_mode": "rounds", "rounds": 1}),
        ("carousel", CAROUSEL_SEED, 2, {"target": 1}),
    ],
)
def test_round_end_reveal_and_score_sheet(
    base_url: str,
    browser: Any,
    variant: str,
    seed: int,
    bots: int,
    options: dict[str, Any],
    language: str,
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    url, table_id, token = table_url(base_url, variant, seed, bots=bots, options=options)
    address, fragment = url.split("#")
    open_and_start(page, f"{address}?lang={language}#{fragment}")
    play_seat_from_a_script(port_of(base_url), table_id, token, variant)
    reveal = page.wait_for_selector("[data-testid=reveal]", timeout=60_000)
    page.wait_for_timeout(400)
    prefix = "" if language == "en" else f"{language}-"
    shot(page, f"{prefix}{variant}-reveal.png")
    assert page.query_selector("[data-testid=final]")
    rows = reveal.query_selector_all(".reveal-table tbody tr")
    assert len(rows) == bots + 1
    words = [reveal.inner_text(), page.inner_text("[data-testid=score-sheet]")]
    assert all(bool(DEVANAGARI.search(text)) == (language == "hi") for text in words)
    page.click("[data-testid=reveal-close]")
    sheet = page.query_selector_all("[data-testid=score-sheet] tbody tr")
    assert len(sheet) >= 2
    shot(page, f"{prefix}{variant}-score-sheet.png")
    page.close()
    assert not errors, errors


@pytest.mark.parametrize(("variant", "seed", "bots"), [("rami", RAMI_SEED, 3), ("carousel", 17, 4)])
def test_phone_width(base_url: str, browser: Any, variant: str, seed: int, bots: int) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 390, 844)
    url, _table, _token = table_url(base_url, variant, seed, bots=bots)
    open_and_start(page, url)
    page.wait_for_timeout(600)
    no_overflow(page, 390)
    hand = page.locator("[data-testid=hand]").bounding_box()
    assert hand["x"] >= 0 and hand["x"] + hand["width"] <= 390
    shot(page, f"{variant}-phone.png")
    page.close()
    assert not errors, errors


# -- the hand: sort by rank, drag a card to a new place, the order kept ------------------

RANKS = "A23456789TJQK"
SUITS = "SCDH"


def rank_key(card: str) -> tuple[int, int]:
    """The browser's rank sort: rank, then suit; jokers last."""
    face = card.split("@")[0]
    if face.startswith("JK"):
        return (13, 4)
    return (RANKS.index(face[:-1]), SUITS.index(face[-1]))


def hand_order(page: Any) -> list[str]:
    order: list[str] = page.eval_on_selector_all(
        "[data-testid=hand] .card[data-card]", "els => els.map(e => e.dataset.card)"
    )
    return order


def drag_after(page: Any, card: str, after: int, picture: str) -> None:
    """Drag ``card`` (the hand's first card) to just after the card shown at ``after``,
    dropping it on the right part of that card's visible strip; ``picture`` is a
    screenshot taken before the drop, the place it will go marked."""
    source = page.locator(f"[data-testid=hand] .card[data-card='{card}']").first.bounding_box()
    cards = page.locator("[data-testid=hand] .card[data-card]")
    target = cards.nth(after).bounding_box()
    following = cards.nth(after + 1).bounding_box()
    right = min(target["x"] + target["width"], following["x"])
    page.mouse.move(source["x"] + 5, source["y"] + source["height"] - 6)
    page.mouse.down()
    page.mouse.move(
        target["x"] + 0.8 * (right - target["x"]), target["y"] + target["height"] / 2, steps=10
    )
    marked = page.eval_on_selector_all(
        "[data-testid=hand] .card.insert-before", "els => els.map(e => e.dataset.card)"
    )
    assert marked == [
        page.locator("[data-testid=hand] .card[data-card]")
        .nth(after + 1)
        .get_attribute("data-card")
    ]
    shot(page, picture)
    page.mouse.up()


def moved(order: list[str], card: str, after: int) -> list[str]:
    """``order`` with its first card ``card`` placed after the card at ``after`` (so
    ``after`` of the others come before it)."""
    assert order[0] == card
    others = order[1:]
    return [*others[:after], card, *others[after:]]


def added(before: list[str], now: list[str]) -> list[str]:
    """The cards of ``now`` that ``before`` did not have (as a multiset)."""
    pool = list(now)
    for card in before:
        pool.remove(card)
    return pool


def sort_and_drag(page: Any, table: str, picture: str) -> list[str]:
    """Sort by rank, drag the first card after the sixth; the order now shown."""
    page.click("[data-testid=sort-rank]")
    sorted_order = hand_order(page)
    assert sorted_order == sorted(sorted_order, key=rank_key)
    assert page.get_attribute("[data-testid=sort-rank]", "aria-pressed") == "true"
    first = sorted_order[0]
    # Dropped on the seventh card shown (the sixth of the others): it goes after it.
    drag_after(page, first, 6, picture)
    expected = moved(sorted_order, first, 6)
    page.wait_for_selector("[data-testid=sort-custom]")
    assert hand_order(page) == expected, (sorted_order, hand_order(page))
    assert page.get_attribute("[data-testid=sort-rank]", "aria-pressed") == "false"
    assert not page.query_selector(f"{table}[data-my-turn=false]")  # nothing was sent
    return expected


def test_rami_hand_sorted_by_rank_then_dragged_keeps_its_order(base_url: str, browser: Any) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    url, _table, _token = table_url(base_url, "rami", RAMI_SEED, bots=3)
    open_and_start(page, url)
    page.wait_for_selector(".rami-table[data-my-turn=true][data-phase=draw]")
    expected = sort_and_drag(page, ".rami-table", "rami-hand-dragging.png")
    # The draw's update from the server: the same order, the new card at the end.
    page.click("[data-testid=stock]")
    page.wait_for_selector(".rami-table[data-phase=play]")
    now = hand_order(page)
    new = added(expected, now)
    assert len(new) == 1 and now == [*expected, *new]
    shot(page, "rami-hand-order.png")
    # Kept in the browser: a reload shows the same order.
    page.reload()
    page.wait_for_selector(".rami-table[data-phase=play] [data-testid=hand] .card[data-card]")
    assert hand_order(page) == now
    # Sorting again forgets the own order.
    page.click("[data-testid=sort-rank]")
    assert hand_order(page) == sorted(now, key=rank_key)
    assert not page.query_selector("[data-testid=sort-custom]")
    page.close()
    assert not errors, errors


def test_carousel_hand_sorted_by_rank_then_dragged_keeps_its_order(
    base_url: str, browser: Any
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors, 1280, 900)
    url, _table, _token = table_url(base_url, "carousel", CAROUSEL_SEED, bots=2)
    open_and_start(page, url)
    page.wait_for_selector(".carousel-table[data-my-turn=true]")
    expected = sort_and_drag(page, ".carousel-table", "carousel-hand-dragging.png")
    # A second draw (an update from the server): the order holds, the new card appended.
    page.click("[data-testid=draw]")
    page.wait_for_selector(".carousel-table[data-draws='2']")
    now = hand_order(page)
    new = added(expected, now)
    assert len(new) == 1 and now == [*expected, *new]
    # A hand card dropped on a meld keeps its meaning: it moves there in the editor.
    pick(page, f"[data-testid=hand] .card[data-card='{now[0]}']")
    page.click("[data-testid=new-meld]")
    page.wait_for_selector("[data-testid=meld-0] .card")
    assert hand_order(page) == now[1:]
    page.click("[data-testid=reset]")
    assert hand_order(page) == now
    shot(page, "carousel-hand-order.png")
    page.close()
    assert not errors, errors
