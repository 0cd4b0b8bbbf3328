"""``/api/languages`` and ``/api/refusals/<lang>``: the languages the browser offers and
the refusal templates it fills in."""

from __future__ import annotations

from fastapi.testclient import TestClient

from rummykit.i18n import LANGUAGES
from rummykit.refusals import refusal_templates


def test_the_languages_are_the_one_list(client: TestClient) -> None:
    assert (
        client.get("/api/languages").json()
        == dict(LANGUAGES)
        == {
            "en": "English",
            "hi": "हिन्दी",
        }
    )


def test_each_language_gets_every_template(client: TestClient) -> None:
    for language in ("en", "hi"):
        response = client.get(f"/api/refusals/{language}")
        assert response.status_code == 200
        assert response.json() == refusal_templates(language)
    hindi = client.get("/api/refusals/hi").json()
    assert hindi["card_not_in_hand"] == "{card} आपके हाथ में नहीं है।"
    assert hindi["meld_too_small"]["by"] == "least"


def test_an_unknown_language_is_a_404_naming_the_choices(client: TestClient) -> None:
    response = client.get("/api/refusals/xx")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert "en, hi" in response.json()["message"]
