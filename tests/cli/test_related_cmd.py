"""`askvault related` from the command line, on an indexed temp vault and the fake Ollama."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.cli.options import EXIT_ERROR
from askvault.cli.related_cmd import render_related
from askvault.wire.search import related_to_json
from tests.api.samples import RELATED
from tests.cli.cli_helpers import indexed_vault, invoke
from tests.conftest import RunningOllama

NOTES: dict[str, str | bytes] = {
    "Homelab/Kodi.md": (
        "# Kodi\n\n## Library\n\nKodi scans the movie library on the NAS every night and refreshes thumbnails "
        "and artwork before anyone watches.\n"
    ),
    "Homelab/Jellyfin.md": (
        "# Jellyfin\n\n## Media\n\nJellyfin scans the same movie library on the NAS every night and refreshes "
        "thumbnails and artwork for the phones.\n"
    ),
    "Travel/Lisbon.md": "# Lisbon\n\nFerries cross the river every hour; tram 28 climbs to the castle.\n",
}


@pytest.fixture
async def flags(tmp_path: Path, fake_ollama: RunningOllama) -> list[str]:
    return await indexed_vault(tmp_path, fake_ollama.url, NOTES)


async def test_related_json_is_the_api_body(flags: list[str]) -> None:
    result = await invoke("related", *flags, "Homelab/Kodi.md", "--json")

    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    assert set(body) == {"path", "method", "results", "timings_ms"}
    assert body["method"] == "dense"
    assert [r["path"] for r in body["results"]] == ["Homelab/Jellyfin.md", "Travel/Lisbon.md"]
    assert body["results"][0]["passage"]["heading_path"] == ["Jellyfin", "Media"]


async def test_related_prints_a_ranked_table(flags: list[str]) -> None:
    result = await invoke("related", *flags, "Homelab/Kodi.md", "-k", "1")

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Related to Homelab/Kodi.md, by meaning (chunk vectors):"
    assert lines[1].split() == ["score", "path", "passage"]
    assert len(lines) == 3
    score, path, *passage = lines[2].split()
    assert 0 < float(score) <= 1
    assert path == "Homelab/Jellyfin.md"
    assert " ".join(passage) == "Jellyfin › Media (lines 3–5)"


@pytest.mark.parametrize(
    ("path", "message"),
    [
        (
            "Homelab/Nothing.md",
            "no indexed note at Homelab/Nothing.md; give its path inside the vault, such as Folder/Note.md "
            "(a new note needs `askvault index` first)",
        ),
        ("../Homelab/Kodi.md", "path must not contain '..'"),
    ],
    ids=["not-indexed", "outside-the-vault"],
)
async def test_related_refuses_with_one_line(flags: list[str], path: str, message: str) -> None:
    result = await invoke("related", *flags, path)

    assert result.exit_code == EXIT_ERROR
    assert result.stdout == ""
    assert result.stderr.strip() == f"askvault: {message}"


def test_render_names_the_method_and_the_empty_case() -> None:
    keyword = {**related_to_json(RELATED), "method": "keyword", "results": []}
    assert render_related(keyword).splitlines() == [
        "Related to Homelab/Kodi.md, by shared words (dense search is off or not ready):",
        "No related notes.",
    ]
    table = render_related(related_to_json(RELATED)).splitlines()
    assert table[2].split() == ["0.7412", "Journal/2026-11-02.md", "2026-11-02", "(lines", "3–7)"]
