"""`POST /api/related`: request validation on the fake service, then the real sidecar over a real index."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from askvault.config import Config, load_config
from askvault.retrieve.note_paths import not_found_message
from tests.api.conftest import Sidecar, assert_error
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import LiveSidecar, live_sidecar

BAD_BODIES = {
    "no-path": ({}, "path is required"),
    "null-path": ({"path": None}, "path is required"),
    "empty-path": ({"path": ""}, "path must not be empty"),
    "blank-path": ({"path": "   "}, "path must not be empty"),
    "number-path": ({"path": 5}, "path must be a string (a vault-relative path such as Folder/Note.md)"),
    "list-path": (
        {"path": ["Homelab/Kodi.md"]},
        "path must be a string (a vault-relative path such as Folder/Note.md)",
    ),
    "absolute": ({"path": "/etc/passwd"}, "path must be relative to the vault, not an absolute path"),
    "drive": ({"path": "C:/Users/x.md"}, "path must be relative to the vault, not an absolute path"),
    "backslash": ({"path": "Homelab\\Kodi.md"}, "path must use / between folders, not a backslash"),
    "dot-dot": ({"path": "../outside.md"}, "path must not contain '..'"),
    "dot-dot-inside": ({"path": "Homelab/../../x.md"}, "path must not contain '..'"),
    "nul": ({"path": "Kodi\x00.md"}, "path must not contain NUL characters"),
    "too-long": ({"path": "a" * 1025 + ".md"}, "path must be at most 1024 characters"),
    "k-zero": ({"path": "Homelab/Kodi.md", "k": 0}, "k must be between 1 and 50"),
    "k-too-big": ({"path": "Homelab/Kodi.md", "k": 51}, "k must be between 1 and 50"),
    "k-string": ({"path": "Homelab/Kodi.md", "k": "5"}, "k must be between 1 and 50"),
    "k-bool": ({"path": "Homelab/Kodi.md", "k": True}, "k must be between 1 and 50"),
    "k-float": ({"path": "Homelab/Kodi.md", "k": 2.5}, "k must be between 1 and 50"),
    "unknown-field": ({"path": "Homelab/Kodi.md", "mode": "dense"}, "unknown field 'mode'"),
}


@pytest.mark.parametrize(("body", "message"), BAD_BODIES.values(), ids=BAD_BODIES.keys())
async def test_bad_requests_name_the_problem(sidecar: Sidecar, body: dict[str, object], message: str) -> None:
    async with sidecar.session.post(sidecar.url("/api/related"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 400
        found = await resp.json()
    assert_error(found, "bad_request")
    assert found["error"]["message"] == message
    assert sidecar.related.calls == []


@pytest.mark.parametrize(
    ("body", "call"),
    [
        ({"path": "Homelab/Kodi.md"}, ("Homelab/Kodi.md", 10)),
        ({"path": "Homelab/Kodi.md", "k": None}, ("Homelab/Kodi.md", 10)),
        ({"path": "Homelab/Kodi.md", "k": 1}, ("Homelab/Kodi.md", 1)),
        ({"path": "Homelab/Kodi.md", "k": 50}, ("Homelab/Kodi.md", 50)),
    ],
    ids=["default-k", "null-k", "k-1", "k-50"],
)
async def test_path_and_k_reach_the_service(sidecar: Sidecar, body: dict[str, object], call: tuple[str, int]) -> None:
    async with sidecar.session.post(sidecar.url("/api/related"), json=body, headers=sidecar.auth()) as resp:
        assert resp.status == 200
        found = await resp.json()
    assert sidecar.related.calls == [call]
    assert len(found["results"]) == min(2, call[1])


async def test_a_path_with_spaces_and_unicode_is_kept_as_sent(sidecar: Sidecar) -> None:
    path = " Reise/Café plan .md"
    async with sidecar.session.post(sidecar.url("/api/related"), json={"path": path}, headers=sidecar.auth()) as resp:
        assert resp.status == 404
    assert sidecar.related.calls == [(path, 10)]


# ----- the real sidecar ------------------------------------------------------------------------------------

NOTES = {
    "Homelab/Kodi.md": (
        "# Kodi\n\n## Library\n\nKodi scans the movie library on the NAS every night and refreshes thumbnails "
        "and artwork before anyone watches.\n\n## Remote\n\nThe Kore remote app pairs with Kodi over the LAN.\n"
    ),
    "Homelab/Jellyfin.md": (
        "# Jellyfin\n\nJellyfin scans the same movie library on the NAS every night and refreshes thumbnails "
        "and artwork for the phones.\n"
    ),
    "Private/Bank.md": "# Bank\n\nThe movie library on the NAS every night; thumbnails and artwork. Account 123.\n",
    "Homelab/Postgres.md": "# Postgres\n\nThe database listens on port 5433 behind the proxy.\n",
    "Travel/Lisbon.md": "# Lisbon\n\nFerries cross the river every hour; tram 28 climbs to the castle.\n",
}
EXCLUDED = "Private/Bank.md"


def _config(vault: Path, data: Path, ollama_url: str) -> Config:
    flags = {"vault": str(vault), "data_dir": str(data), "ollama_url": ollama_url, "port": 0, "exclude": ["Private/**"]}
    flags["embed_model"] = "nomic-embed-text"  # the fake Ollama's vectors (or, at a closed port, none)
    return load_config(flags, {})


@contextlib.asynccontextmanager
async def _running(make_vault: VaultWriter, tmp_path: Path, ollama_url: str) -> AsyncIterator[LiveSidecar]:
    async with live_sidecar(_config(make_vault(NOTES), tmp_path / "data", ollama_url)) as car:
        yield car


async def test_the_real_sidecar_relates_by_vectors_and_hides_what_it_must(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    async with _running(make_vault, tmp_path, fake_ollama.url) as car:
        await car.until(lambda: _dense_ready(car), "dense search ready")
        status, body = await car.post("/api/related", {"path": "Homelab/Kodi.md", "k": 50})
        missing = await car.post("/api/related", {"path": "Homelab/Nothing here.md"})
        excluded = await car.post("/api/related", {"path": EXCLUDED})
    assert status == 200, body
    assert set(body) == {"path", "method", "results", "timings_ms"}
    assert body["path"] == "Homelab/Kodi.md"
    assert body["method"] == "dense"
    found = [result["path"] for result in body["results"]]
    assert found[0] == "Homelab/Jellyfin.md"
    assert "Homelab/Kodi.md" not in found
    assert EXCLUDED not in found
    assert sorted(found) == ["Homelab/Jellyfin.md", "Homelab/Postgres.md", "Travel/Lisbon.md"]
    first = body["results"][0]
    assert set(first) == {"path", "title", "score", "passage"}
    assert first["title"] == "Jellyfin"
    assert -1.0 <= first["score"] <= 1.0
    assert set(first["passage"]) == {"chunk_id", "heading_path", "start_line", "end_line", "text"}
    assert "movie library" in first["passage"]["text"]
    assert set(body["timings_ms"]) == {"total"}
    # Missing and excluded read the same: the excluded note's answer is the one an absent note at its path gets
    # (suggestions come from the visible notes only), so nothing tells that it exists.
    visible = [path for path in NOTES if path != EXCLUDED]
    assert excluded == (404, {"error": {"code": "not_found", "message": not_found_message(EXCLUDED, visible)}})
    absent = not_found_message("Homelab/Nothing here.md", visible)
    assert missing == (404, {"error": {"code": "not_found", "message": absent}})
    assert EXCLUDED not in str(missing)


async def test_the_real_sidecar_falls_back_to_keywords_without_dense_search(
    make_vault: VaultWriter, tmp_path: Path, closed_port_url: str
) -> None:
    async with _running(make_vault, tmp_path, closed_port_url) as car:
        status, body = await car.post("/api/related", {"path": "Homelab/Kodi.md"})
    assert status == 200, body
    assert body["method"] == "keyword"
    found = [result["path"] for result in body["results"]]
    assert found[0] == "Homelab/Jellyfin.md"
    assert body["results"][0]["score"] == 1.0
    assert "Homelab/Kodi.md" not in found
    assert EXCLUDED not in found


async def _dense_ready(car: LiveSidecar) -> bool:
    status, body = await car.get("/api/status")
    return status == 200 and body["index"]["dense"] == "ready"
