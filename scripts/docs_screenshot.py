"""Take the browser-table screenshot of the README and the docs (docs/images/table-gin.png).

Starts ``rummykit serve`` on a free localhost port with a fresh SQLite file, creates a
Gin table (you against the expert bot, a fixed seed), plays a few of your turns through
the REST API (draw from the stock, discard what leaves the least deadwood), then opens
your seat in Debian's Chromium, driven headless by Playwright, and saves the page.

    python scripts/docs_screenshot.py [--out docs/images/table-gin.png] [--seed 6] [--turns 6]

Needs the ``server`` and ``server-test`` extras and /usr/bin/chromium.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from rummykit.cards import parse_cards
from rummykit.games.gin import best_discard

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def call(url: str, body: Any = None, token: str | None = None) -> Any:
    """A JSON request: POST when there is a body (or a token), else GET."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    method = "POST" if body is not None else "GET"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def wait_until_ready(base: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server exited")
        try:
            call(f"{base}/api/health")
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not answer within 30 s")


def my_view(base: str, table_id: str, token: str) -> dict[str, Any]:
    """The seat's view once it is this seat's turn (the bot moves in between)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        snapshot: dict[str, Any] = call(f"{base}/api/tables/{table_id}", token=token)
        view = snapshot["view"]
        if snapshot["table"]["status"] != "playing" or view.get("current_player") == 0:
            return snapshot
        time.sleep(0.2)
    raise SystemExit("the bot did not move")


def play_turns(base: str, table_id: str, token: str, turns: int) -> None:
    """Decline the upcard, then draw from the stock and discard the least deadwood."""
    for _ in range(turns):
        snapshot = my_view(base, table_id, token)
        view = snapshot["view"]
        if snapshot["table"]["status"] != "playing":
            return
        if view["phase"] == "offer":
            action: dict[str, Any] = {"kind": "pass"}
        elif view["phase"] == "draw":
            action = {"kind": "draw_stock"}
        else:
            discard = best_discard(parse_cards(" ".join(view["hand"])))
            action = {"kind": "discard", "card": str(discard.card)}
        call(f"{base}/api/tables/{table_id}/actions", {"action": action}, token)
        if action["kind"] == "draw_stock":
            call(f"{base}/api/tables/{table_id}/actions", _discard(base, table_id, token), token)


def _discard(base: str, table_id: str, token: str) -> dict[str, Any]:
    view = call(f"{base}/api/tables/{table_id}", token=token)["view"]
    discard = best_discard(parse_cards(" ".join(view["hand"])))
    return {"action": {"kind": "discard", "card": str(discard.card)}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images" / "table-gin.png"))
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--width", type=int, default=1100)
    parser.add_argument("--height", type=int, default=660)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        command = [
            sys.executable, "-m", "rummykit", "serve", "--port", str(port),
            "--database-url", f"sqlite:///{folder}/tables.db", "--bot-delay", "0",
            "--allow-seed", "--log-level", "warning",
        ]  # fmt: skip
        process = subprocess.Popen(command, cwd=folder)
        try:
            wait_until_ready(base, process)
            created = call(
                f"{base}/api/tables",
                {
                    "variant": "gin",
                    "seed": args.seed,
                    "seats": [{"kind": "human", "name": "You"}, {"kind": "bot", "level": "expert"}],
                },
            )
            table_id = created["table"]["id"]
            invite = created["invites"][0]
            call(f"{base}/api/tables/{table_id}/join", {"name": "You"}, invite["token"])
            call(f"{base}/api/tables/{table_id}/start", {}, invite["token"])
            play_turns(base, table_id, invite["token"], args.turns)
            view = my_view(base, table_id, invite["token"])["view"]
            print(f"seed {args.seed}: your hand {' '.join(view['hand'])}")
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
                )
                page = browser.new_page(viewport={"width": args.width, "height": args.height})
                page.goto(invite["url"])
                page.wait_for_selector("[data-testid=hand] .card")
                page.wait_for_timeout(1500)  # let the deal's animation settle
                Path(args.out).parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=args.out)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
