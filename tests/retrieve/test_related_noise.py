"""Related notes never through a shared footer or template, on the real engine (qdrant-edge, BM25)."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, index_once, write_notes

FOOTER = (
    "\n## About this note\n\nPart of Noor's workshop notebook. Last reviewed during the spring clean-up; if "
    "something here is out of date, add a line to the inbox and review it on Sunday.\n\n"
    "[[Home]] · [[Index]] · [[Inbox]]\n"
)
TOPICS = {
    "Woodworking/Hand plane.md": "A hand plane needs a sharp iron, a flat sole and a tight chipbreaker; set the "
    "iron for a thin shaving and plane with the grain.",
    "Woodworking/Sharpening.md": "Sharpen the plane iron on a 1000 grit stone, then 6000; hone a micro bevel and "
    "strop the iron so the plane takes a thin shaving.",
    "Garden/Slugs.md": "Slugs eat the lettuce at night; beer traps and copper tape around the beds keep most of "
    "them off, and a torch walk after rain finds the rest.",
    "Garden/Beans.md": "Broad beans go in bed three in November; pinch the tops when the first pods set to keep "
    "the blackfly away.",
    "Brewing/Saison.md": "The saison ferments warm, up to 30 degrees, with a dry finish; bottle it with enough "
    "priming sugar for a lively fizz.",
    "Brewing/Kegging.md": "Kegging saves washing bottles: purge the keg with CO2, fill it cold and carbonate at "
    "12 psi for a week.",
}
MOC = "# Workshop\n\n- [[Hand plane]]\n- [[Sharpening]]\n- [[Slugs]]\n- [[Beans]]\n- [[Saison]]\n- [[Kegging]]\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    notes: dict[str, str | bytes] = {path: f"# {Path(path).stem}\n\n{text}\n" + FOOTER for path, text in TOPICS.items()}
    notes["Woodworking/Router table.md"] = "# Router table\n" + FOOTER  # a stub: only the footer
    notes["Workshop.md"] = MOC
    write_notes(root, notes)
    return root


@pytest.mark.parametrize("method", ["dense", "keyword"])
async def test_notes_are_related_by_what_they_say_never_by_their_footer(
    tmp_path: Path, vault: Path, fake_ollama: RunningOllama, method: str
) -> None:
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    await index_once(config)
    async with open_engine(config) as engine:
        for path in TOPICS:
            result = await engine.related.related(path, 3, method=method)  # type: ignore[arg-type]
            assert result.method == method
            for hit in result.hits:
                assert hit.passage.heading_path[-1:] != ("About this note",), (path, hit.path)
                assert hit.passage.noise.template < 50  # a MOC may come up through its links, never a template
        top = await engine.related.related("Woodworking/Hand plane.md", 1, method=method)  # type: ignore[arg-type]
        assert [hit.path for hit in top.hits] == ["Woodworking/Sharpening.md"]


async def test_a_note_that_is_only_a_footer_or_only_links_still_has_related_notes(
    tmp_path: Path, vault: Path, fake_ollama: RunningOllama
) -> None:
    config = engine_config(vault, tmp_path / "data", fake_ollama.url)
    await index_once(config)
    async with open_engine(config) as engine:
        stub = await engine.related.related("Woodworking/Router table.md", 3)
        assert stub.hits  # represented by all it has, and answered
        moc = await engine.related.related("Workshop.md", 3)
        assert moc.hits
        assert all(hit.passage.heading_path[-1:] != ("About this note",) for hit in (*stub.hits, *moc.hits))
        assert "Woodworking/Router table.md" not in {hit.path for hit in moc.hits}  # its only text is the template
