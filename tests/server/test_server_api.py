"""REST routes: variants, the lobby (create, join, start), actions, listings, web files."""

from __future__ import annotations

from fastapi.testclient import TestClient
from server_helpers import choose, create_table

from rummykit.server.app import web_root


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_variants_describe_gin(client: TestClient) -> None:
    variants = client.get("/api/variants").json()
    gin = next(v for v in variants if v["name"] == "gin")
    assert gin["min_seats"] == gin["max_seats"] == 2
    assert "gin" in gin["presets"]
    assert {"random", "heuristic"} <= set(gin["bot_levels"])
    assert any(option["name"] == "knock_limit" for option in gin["options"])


def test_create_table_gives_one_unguessable_invite_per_human_seat(client: TestClient) -> None:
    response = client.post(
        "/api/tables",
        json={"variant": "gin", "seats": [{"kind": "human"}, {"kind": "human"}]},
    )
    assert response.status_code == 201
    data = response.json()
    tokens = [invite["token"] for invite in data["invites"]]
    assert len(tokens) == 2 and len(set(tokens)) == 2
    assert all(len(token) >= 32 for token in tokens)
    assert data["invites"][1]["url"].endswith(f"/t/{data['table']['id']}#seat=1&token={tokens[1]}")
    text = response.text
    assert "token_hash" not in text and "seed" not in data["table"]
    assert data["table"]["status"] == "waiting"


def test_create_table_refuses_bad_requests_with_reasons(client: TestClient) -> None:
    cases = [
        ({"variant": "canasta"}, "unknown variant"),
        ({"variant": "gin", "options": {"knock_limit": "ten"}}, "knock_limit"),
        ({"variant": "gin", "options": {"wild": True}}, "unknown gin option"),
        ({"variant": "gin", "seats": [{"kind": "human"}]}, "2-2 seats"),
        ({"variant": "gin", "seats": [{"kind": "bot"}, {"kind": "bot"}]}, "human seat"),
        (
            {"variant": "gin", "seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}]},
            "level",
        ),
        ({"variant": "gin", "seats": [{"kind": "human"}, {"kind": "alien"}]}, "human or bot"),
    ]
    for body, words in cases:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 400, body
        assert response.json()["code"] == "bad_request"
        assert words in response.json()["message"], (body, response.json())
    assert client.post("/api/tables", content=b"{nope").json()["code"] == "bad_json"


def test_chosen_seeds_need_the_server_option(make_client) -> None:  # type: ignore[no-untyped-def]
    strict = make_client(allow_seed=False)
    response = strict.post("/api/tables", json={"variant": "gin", "seed": 4})
    assert response.status_code == 400
    assert "seed" in response.json()["message"]


def test_join_start_and_play_over_rest(client: TestClient) -> None:
    table_id, (token,) = create_table(client)
    # Starting needs a seat token.
    assert client.post(f"/api/tables/{table_id}/start").json()["code"] == "bad_token"
    assert (
        client.post(f"/api/tables/{table_id}/start", headers=bearer("x" * 32)).json()["code"]
        == "bad_token"
    )
    joined = client.post(
        f"/api/tables/{table_id}/join", headers=bearer(token), json={"name": "Ann\x07 Smith"}
    ).json()
    assert joined["table"]["seats"][0]["name"] == "Ann Smith"
    started = client.post(f"/api/tables/{table_id}/start", headers=bearer(token)).json()
    assert started["table"]["status"] == "playing"
    again = client.post(f"/api/tables/{table_id}/start", headers=bearer(token))
    assert again.status_code == 409 and again.json()["code"] == "already_started"
    moves = 0
    view = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()["view"]
    while moves < 30 and not view["is_over"]:
        if not view["legal_actions"]:
            view = client.get(f"/api/tables/{table_id}", headers=bearer(token)).json()["view"]
            continue
        response = client.post(
            f"/api/tables/{table_id}/actions", headers=bearer(token), json={"action": choose(view)}
        )
        assert response.status_code == 200, response.text
        view = response.json()["view"]
        moves += 1
    assert moves >= 3
    public = client.get(f"/api/tables/{table_id}").json()
    assert public["seat"] is None and public["view"]["legal_actions"] == []
    assert "hand" not in public["view"]
    listed = client.get("/api/tables").json()
    assert any(row["id"] == table_id and row["seq"] >= moves for row in listed)


def test_rest_errors_are_clear(client: TestClient) -> None:
    table_id, (token,) = create_table(client)
    response = client.post(
        f"/api/tables/{table_id}/actions", headers=bearer(token), json={"action": {"kind": "pass"}}
    )
    assert response.status_code == 409 and response.json()["code"] == "not_started"
    client.post(f"/api/tables/{table_id}/start", headers=bearer(token))
    response = client.post(
        f"/api/tables/{table_id}/actions",
        headers=bearer(token),
        json={"action": {"kind": "discard", "card": "ZZ"}},
    )
    assert response.json()["code"] in ("invalid_action", "not_your_turn")
    response = client.post(
        f"/api/tables/{table_id}/actions",
        headers=bearer(token),
        json={"seat": 1, "action": {"kind": "pass"}},
    )
    assert response.status_code == 403 and response.json()["code"] == "not_your_seat"
    assert client.get("/api/tables/nope").status_code == 404
    assert client.get("/api/games/nope/replay").status_code == 404
    assert client.get(f"/api/games/{table_id}/replay").json()["code"] == "not_finished"


def test_unknown_api_routes_and_malformed_queries_answer_the_error_envelope(
    client: TestClient,
) -> None:
    for method, path in [("GET", "/api/nope"), ("POST", "/api/tables/abc/nope")]:
        response = client.request(method, path)
        assert response.status_code == 404
        assert response.json() == {
            "type": "error",
            "code": "not_found",
            "message": f"no route {method} {path}",
        }
    for query, name in [("limit=0", "limit"), ("status=lost", "status")]:
        response = client.get(f"/api/tables?{query}")
        assert response.status_code == 422
        error = response.json()
        assert error["type"] == "error" and error["code"] == "bad_request", error
        assert f"query {name}: " in error["message"]
    # Outside the API (pages, static files) FastAPI's own answer stands.
    assert client.get("/static/nope.js").json() == {"detail": "Not Found"}


def test_web_table_is_served_from_package_files(client: TestClient) -> None:
    page = client.get("/t/abc")
    assert page.status_code == 200 and "/static/js/main.js" in page.text
    assert client.get("/").text == page.text
    script = client.get("/static/js/variants/gin.js")
    assert script.status_code == 200 and "createPanel" in script.text
    css = client.get("/static/css/table.css")
    assert css.status_code == 200
    root = web_root()
    files = [path for path in root.rglob("*") if path.is_file()]
    assert len(files) >= 8
    for path in files:
        served = client.get("/static/" + path.relative_to(root).as_posix())
        assert served.status_code == 200, path
        if path.suffix not in (".html", ".js", ".css"):
            continue  # a font and its licence text: nothing a browser follows
        body = served.text.replace("http://www.w3.org/2000/svg", "")  # a name, not a fetch
        assert "http://" not in body and "https://" not in body, f"{path} reaches outside"
        assert "//cdn" not in body and "@import url" not in body
