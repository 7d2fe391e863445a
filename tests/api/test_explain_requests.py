"""POST /api/explain requests: every bad body is a 400 that says what is wrong; the guards of every route hold."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.api.validate import parse_explain, parse_note_path
from askvault.errors import BadRequest
from askvault.model import SearchFilters
from tests.api.conftest import ORIGIN, Sidecar, assert_error, assert_untouched
from tests.api.engine_sidecar import engine_sidecar, sidecar_config
from tests.conftest import RunningOllama

ABSOLUTE = "note must be relative to the vault, not an absolute path"
BAD_BODIES = {
    "no-question": ({"note": "A.md"}, "question is required"),
    "empty-question": ({"question": "  ", "note": "A.md"}, "question must be a non-empty string"),
    "long-question": ({"question": "x" * 2001, "note": "A.md"}, "question must be at most 2000 characters"),
    "question-not-text": ({"question": 7, "note": "A.md"}, "question must be a non-empty string"),
    "no-note": ({"question": "kodi"}, "note is required"),
    "note-not-text": (
        {"question": "kodi", "note": ["A.md"]},
        "note must be a string (a vault-relative path such as Folder/Note.md)",
    ),
    "empty-note": ({"question": "kodi", "note": ""}, "note must not be empty"),
    "absolute": ({"question": "kodi", "note": "/etc/passwd"}, ABSOLUTE),
    "drive": ({"question": "kodi", "note": "C:/Notes/A.md"}, ABSOLUTE),
    "dot-dot": ({"question": "kodi", "note": "Homelab/../../x.md"}, "note must not contain '..'"),
    "backslash": ({"question": "kodi", "note": "Homelab\\Kodi.md"}, "note must use / between folders, not a backslash"),
    "nul": ({"question": "kodi", "note": "A\x00.md"}, "note must not contain NUL characters"),
    "k-zero": ({"question": "kodi", "note": "A.md", "k": 0}, "k must be between 1 and 50"),
    "k-large": ({"question": "kodi", "note": "A.md", "k": 51}, "k must be between 1 and 50"),
    "k-text": ({"question": "kodi", "note": "A.md", "k": "3"}, "k must be between 1 and 50"),
    "filters": ({"question": "kodi", "note": "A.md", "filters": "Homelab"}, "filters must be an object"),
    "filter-key": ({"question": "kodi", "note": "A.md", "filters": {"path": "x"}}, "unknown field 'filters.path'"),
    "unknown": ({"question": "kodi", "note": "A.md", "history": []}, "unknown field 'history'"),
}


@pytest.mark.parametrize(("body", "message"), BAD_BODIES.values(), ids=BAD_BODIES.keys())
async def test_bad_bodies_are_400_with_a_specific_message(sidecar: Sidecar, body: object, message: str) -> None:
    async with sidecar.session.post(sidecar.url("/api/explain"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 400
        error = await resp.json()
    assert_error(error, "bad_request")
    assert error["error"]["message"] == message
    assert_untouched(sidecar)


GOOD_PATHS = {
    "plain": "Kodi.md",
    "folders": "Homelab/Media/Kodi.md",
    "spaces-and-dots": "Ideas/Media wall v2.0.md",
    "not-markdown": "Homelab/photo.png",
    "dots-in-a-name": "Notes/Wait...md",
    "unicode": "Küche/Rezept für Brot.md",
}


@pytest.mark.parametrize("path", GOOD_PATHS.values(), ids=GOOD_PATHS.keys())
def test_vault_paths_pass_as_they_are(path: str) -> None:
    assert parse_note_path(path) == path


def test_a_full_body_parses() -> None:
    body: dict[str, object] = {"question": " kodi ", "note": "A.md", "k": 3, "filters": {"folder": "Homelab/"}}
    parsed = parse_explain(body)
    assert (parsed.question, parsed.note, parsed.k) == ("kodi", "A.md", 3)
    assert parsed.filters == SearchFilters(folder="Homelab/")
    with pytest.raises(BadRequest, match="note is required"):
        parse_explain({"question": "kodi"})


async def test_a_sidecar_without_an_explainer_answers_404(sidecar: Sidecar) -> None:
    body = {"question": "kodi", "note": "Homelab/Kodi.md"}
    async with sidecar.session.post(sidecar.url("/api/explain"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 404
        assert_error(await resp.json(), "not_found")


async def test_the_guards_of_every_route_hold(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    config = sidecar_config(tmp_path / "vault", tmp_path / "data", fake_ollama.url)
    notes = {"Homelab/Kodi.md": "# Kodi\n\nKodi maintenance every few months.\n"}
    body = {"question": "kodi maintenance", "note": "Homelab/Kodi.md"}
    data = json.dumps(body).encode()
    async with engine_sidecar(config, notes) as car:
        url = car.url("/api/explain")
        refusals = {
            "no token": ({}, 401, "unauthorized"),
            "wrong token": ({"Authorization": "Bearer not-the-token"}, 401, "unauthorized"),
            "foreign origin": (car.auth(Origin="https://evil.example"), 403, "forbidden"),
            "foreign host": (car.auth(Host="evil.example"), 403, "forbidden"),
            "not json": (car.auth(**{"Content-Type": "text/plain"}), 415, "unsupported_media_type"),
        }
        for name, (headers, status, code) in refusals.items():
            sent = {"Content-Type": "application/json", **headers}
            async with car.session.post(url, data=data, headers=sent) as resp:
                assert resp.status == status, name
                assert_error(await resp.json(), code)
                assert not [h for h in resp.headers if h.lower().startswith("access-control-")], name
        async with car.session.get(url, headers=car.auth()) as resp:
            assert resp.status == 405
        preflight = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST"}
        async with car.session.options(url, headers=preflight) as resp:
            assert resp.status == 204
            assert resp.headers["Access-Control-Allow-Origin"] == ORIGIN
        async with car.session.post(url, json=body, headers=car.auth(Origin=ORIGIN)) as resp:
            assert resp.status == 200
            assert resp.headers["Access-Control-Allow-Origin"] == ORIGIN
            assert resp.headers["Cache-Control"] == "no-store"
            assert (await resp.json())["sent"] is True
