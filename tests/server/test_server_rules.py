"""The rules on the table server: /rules/<game> pages, rules_url, rule_id on refusals."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from server_helpers import act, create_table, hello, receive_until, start

from rummykit.errors import IllegalActionError
from rummykit.games.gin.views import GinTableGame
from rummykit.i18n import translator
from rummykit.refusals import TEMPLATES


def test_a_rules_page_is_html_in_the_sites_look_with_an_anchor_per_rule(
    client: TestClient,
) -> None:
    response = client.get("/rules/gin")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = response.text
    assert "<title>Gin Rummy: the rules rummykit plays · rummykit</title>" in page
    assert '<link rel="stylesheet" href="/static/css/table.css">' in page
    assert client.get("/static/css/rules.css").status_code == 200
    assert '<a id="gin-3.2"></a>\n<strong>§gin-3.2 The upcard offer.</strong>' in page
    assert page.count('<a id="gin-') == 36
    # Headings get their ids (the page's contents link to them), tables are tables.
    assert '<h2 id="3-playing-a-hand">3. Playing a hand</h2>' in page
    assert '<a href="#3-playing-a-hand">' in page
    assert "<table>" in page and "<td><code>knock_limit</code></td>" in page
    # Links to other pages become routes.
    assert '<a href="/rules/">rules index</a>' in page


def test_the_index_links_every_games_page(client: TestClient) -> None:
    for path in ("/rules", "/rules/"):
        response = client.get(path)
        assert response.status_code == 200
        for game in ("gin", "rami", "carousel"):
            assert f'<a href="/rules/{game}">' in response.text


def test_a_page_in_another_language(client: TestClient) -> None:
    response = client.get("/rules/gin?lang=hi")
    assert response.status_code == 200
    assert '<html lang="hi">' in response.text and '<a id="gin-3.2"></a>' in response.text
    assert '<a name="3-playing-a-hand"></a>' in response.text


def test_a_presets_page_redirects_to_its_games(client: TestClient) -> None:
    response = client.get("/rules/rami40", follow_redirects=False)
    assert response.status_code == 307
    assert response.headers["location"] == "/rules/rami"
    hindi = client.get("/rules/rami40?lang=hi", follow_redirects=False)
    assert hindi.headers["location"] == "/rules/rami?lang=hi"
    followed = client.get("/rules/rami40")
    assert followed.status_code == 200 and '<a id="rami-4.5"></a>' in followed.text


def test_an_unknown_game_is_a_404_in_html_or_json(client: TestClient) -> None:
    response = client.get("/rules/poker")
    assert response.status_code == 404
    body = response.json()
    assert body["type"] == "error" and body["code"] == "not_found"
    assert "'poker'" in body["message"] and "gin, rami, carousel" in body["message"]
    page = client.get("/rules/poker", headers={"Accept": "text/html,*/*"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "No such rules page" in page.text and "&#x27;poker&#x27;" in page.text
    assert client.get("/rules/gin?lang=xx").status_code == 404


def test_variants_carry_their_rules_url(client: TestClient) -> None:
    urls = {variant["name"]: variant["rules_url"] for variant in client.get("/api/variants").json()}
    assert urls == {"gin": "/rules/gin", "carousel": "/rules/carousel", "rami": "/rules/rami"}
    for url in urls.values():
        assert client.get(url).status_code == 200


def _refusal(client: TestClient, discard: str | None = None) -> dict[str, Any]:
    """Take the upcard, then discard it (or ``discard``): the refusal the mover gets."""
    table_id, tokens = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as ws0,
        client.websocket_connect(f"/ws/tables/{table_id}") as ws1,
    ):
        hello(ws0, tokens[0])
        hello(ws1, tokens[1])
        view0 = start(ws0)["view"]
        view1 = receive_until(ws1, lambda m: m["type"] == "snapshot")["view"]
        first, view = (ws0, view0) if view0["legal_actions"] else (ws1, view1)
        assert act(first, {"kind": "take_upcard"}, request_id=1)["type"] == "ack"
        return act(first, {"kind": "discard", "card": discard or view["upcard"]}, request_id=2)


def test_a_refused_move_carries_the_rule_it_breaks(client: TestClient) -> None:
    reply = _refusal(client)
    assert reply["type"] == "error" and reply["code"] == "illegal_action"
    # ``rule`` stays the engine's code; ``rule_id`` names the rule of the rules page.
    assert reply["rule"] == "discard_taken_card"
    assert reply["rule_id"] == "gin-3.5"


def test_the_engines_own_rule_id_comes_first(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(self: GinTableGame, seat: int, action: Any) -> Any:
        raise IllegalActionError("not now (§gin-3.4)", code="discard_taken_card", rule="gin-3.4")

    original = GinTableGame.apply

    def apply(self: GinTableGame, seat: int, action: Any) -> Any:
        if action.get("kind") == "discard":
            return refuse(self, seat, action)
        return original(self, seat, action)

    monkeypatch.setattr(GinTableGame, "apply", apply)
    reply = _refusal(client)
    assert (reply["rule"], reply["rule_id"]) == ("discard_taken_card", "gin-3.4")


def test_a_refusal_that_enforces_no_rule_has_no_rule_id(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def apply(self: GinTableGame, seat: int, action: Any) -> Any:
        raise IllegalActionError(
            "you do not hold that card", code="card_not_in_hand", rule="cards in hand"
        )

    table_id, tokens = create_table(client, seats=[{"kind": "human"}, {"kind": "human"}])
    headers = [{"Authorization": f"Bearer {token}"} for token in tokens]
    for seat_headers in headers:
        assert client.post(f"/api/tables/{table_id}/join", headers=seat_headers).is_success
    assert client.post(f"/api/tables/{table_id}/start", headers=headers[0]).is_success
    monkeypatch.setattr(GinTableGame, "apply", apply)
    reply = client.post(
        f"/api/tables/{table_id}/actions", json={"action": {"kind": "pass"}}, headers=headers[0]
    )
    body = reply.json()
    assert reply.status_code == 409
    assert (body["code"], body["rule"]) == ("illegal_action", "card_not_in_hand")
    assert "rule_id" not in body


def test_a_refusal_carries_its_params_for_the_readers_language(client: TestClient) -> None:
    """``params``: what a client needs to say the refusal from ``rule`` in its language."""
    reply = _refusal(client)
    params = reply["params"]
    assert set(params) >= {"seat", "card"} and re.fullmatch(r"[2-9TJQKA][SHDC]", params["card"])
    hindi = translator("hi").gettext(TEMPLATES[reply["rule"]], **params)
    assert params["card"] in hindi and "फेंक" in hindi
