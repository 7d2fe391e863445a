"""A PDF and a canvas on the real sidecar: search hits and the sources of an answer name the PDF's page, the chunk
endpoint too, and a canvas is cited like a note."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from askvault.config import SourceConfig
from tests.api.engine_sidecar import engine_sidecar, results_of, sidecar_config
from tests.conftest import RunningOllama
from tests.extract.pdfs import write_pdf

PAGES = [
    "Boiler manual\nModel TX-40, wall-mounted condensing boiler.",
    "Pressure: the gauge should read between 1.0 and 1.5 bar when the heating is cold.",
    "Annual service: the installer checks the flue and the condensate trap every October.",
]
CANVAS = {
    "nodes": [
        {
            "id": "a",
            "type": "text",
            "x": 0,
            "y": 0,
            "width": 300,
            "height": 100,
            "text": "Bleed the radiators in autumn.",
        },
        {"id": "b", "type": "file", "x": 0, "y": 200, "width": 300, "height": 100, "file": "Heating.md"},
    ],
    "edges": [],
}


async def test_a_pdf_page_a_canvas_and_a_file_beside_the_vault_are_found_and_cited(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    (vault / "Manuals").mkdir(parents=True)
    write_pdf(vault / "Manuals/Boiler.pdf", PAGES)
    notes = {
        "Heating.md": "# Heating\n\nThe boiler is in the utility room; its manual is [[Boiler.pdf]].\n",
        "House.canvas": json.dumps(CANVAS),
    }
    shared = tmp_path / "Shared"
    shared.mkdir()
    (shared / "landlord.txt").write_text("The landlord replaces the boiler's expansion vessel every five years.\n")
    config = sidecar_config(vault, tmp_path / "data", fake_ollama.url)
    config = dataclasses.replace(
        config, vault=dataclasses.replace(config.vault, sources=(SourceConfig("Shared", shared.resolve()),))
    )
    async with engine_sidecar(config, notes) as car:
        status, search = await car.post("/api/search", {"query": "boiler pressure gauge bar", "k": 5})
        assert status == 200, search
        top = results_of(search)[0]
        assert (top["path"], top["page"], top["heading_path"]) == ("Manuals/Boiler.pdf", 2, ["Page 2"])
        assert top["title"] == "Boiler.pdf"
        assert "1.0 and 1.5 bar" in str(top["text"])
        assert all("page" not in hit for hit in results_of(search) if hit["path"] != "Manuals/Boiler.pdf")

        async with car.session.get(car.url(f"/api/chunks/{top['id']}"), headers=car.auth()) as resp:
            chunk = await resp.json()
        assert (resp.status, chunk["page"]) == (200, 2)

        events = await car.ask("What should the boiler pressure gauge read?")
        retrieval = events[0]
        assert retrieval["type"] == "retrieval"
        sources = retrieval["sources"]
        assert isinstance(sources, list)
        cited = next(s for s in sources if isinstance(s, dict) and s["path"] == "Manuals/Boiler.pdf" and s["sent"])
        assert cited["page"] == 2

        status, search = await car.post("/api/search", {"query": "expansion vessel landlord", "k": 3})
        assert results_of(search)[0]["path"] == "Shared:landlord.txt"
        events = await car.ask("Who replaces the expansion vessel?")
        sources = events[0]["sources"]
        assert isinstance(sources, list)
        assert any(isinstance(s, dict) and s["path"] == "Shared:landlord.txt" and s["sent"] for s in sources)

        status, search = await car.post("/api/search", {"query": "bleed the radiators", "k": 3})
        first = results_of(search)[0]
        assert (first["path"], first["title"]) == ("House.canvas", "House.canvas")
        assert "page" not in first
