"""The browser table of a cluster: a person's page on one node, the table's owner
killed (``kill -9``): the page says it is reconnecting, comes back by itself once
another node has taken the table over, and plays on."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

import pytest
from browser_helpers import chromium, needs_chromium
from cluster_helpers import LEASE, DisconnectedError, Player
from server_helpers import post

pytestmark = needs_chromium
sync_api = pytest.importorskip("playwright.sync_api", reason="needs the 'server-test' extra")


def _state(page: Any) -> str:
    return str(page.get_attribute("#connection", "data-state"))


def test_the_page_reconnects_by_itself_after_its_tables_owner_dies(cluster_nodes: Any) -> None:
    cluster_nodes.start(2)
    owner, other = cluster_nodes.ports
    created = post(
        owner,
        "/api/tables",
        {"variant": "gin", "seed": 3, "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    table_id = created["table"]["id"]
    tokens = [invite["token"] for invite in created["invites"]]
    opponent = Player([other], table_id, tokens[1])
    with chromium() as browser:
        page = browser.new_page()
        page.set_default_timeout(30_000)
        # The person's page comes from the node that does not own the table.
        page.goto(f"http://127.0.0.1:{other}/t/{table_id}#seat=0&token={tokens[0]}")
        page.wait_for_selector("#connection[data-state=connected]")
        opponent.ws.send(json.dumps({"type": "start", "id": "s"}))
        page.wait_for_selector(".gin-table")

        os.kill(cluster_nodes.processes[0].pid, signal.SIGKILL)
        cluster_nodes.processes[0].wait(timeout=10)
        page.wait_for_selector("#connection[data-state=reconnecting]")
        page.wait_for_selector("#connection[data-state=connected]", timeout=(LEASE + 20) * 1000)
        try:
            opponent.until(lambda m: False, timeout=LEASE * 4)
        except DisconnectedError:
            opponent.connect()
        # Both pass the upcard, whoever is first: the page plays on the new owner.
        for _ in range(10):
            view = opponent.view
            assert view is not None
            if view["phase"] != "offer":
                break
            try:
                if view["legal_actions"]:
                    opponent.move(next(a for a in view["legal_actions"] if a["kind"] == "pass"))
                else:
                    page.click("[data-testid=pass]")
                    opponent.until(lambda m: m["type"] == "update")
            except DisconnectedError:  # as a browser does: reconnect, look again
                opponent.connect()
        page.wait_for_selector(".gin-table[data-phase=draw]")
        assert _state(page) == "connected"
        assert cluster_nodes.health(1)["cluster"]["leases"] >= 1  # the survivor owns it
    opponent.close()
