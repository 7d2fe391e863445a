"""/api/status `failures` on the real sidecar and watcher: a note's problem stays listed until it is fixed or gone."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from askvault.wiring import open_engine
from askvault.wiring.control import EngineControl
from askvault.wiring.models import ModelMonitor
from tests.api.engine_sidecar import EngineSidecar, Json, engine_sidecar, sidecar_config
from tests.conftest import RunningOllama
from tests.engine_helpers import write_notes

WAIT_S = 30.0
NOTES = {
    "A.md": "# Alpha\n\nThe alpha note about lanterns.\n",
    "B.md": "# Beta\n\nThe beta note about meadows.\n",
    "C.md": "# Gamma\n\nThe gamma note about orchards.\n",
}
BAD_UTF8 = b"# Alpha\n\ncaf\xe9 au lait\n"
BROKEN_FRONTMATTER = "---\ntitle: Gamma\ntags: [a, b\n---\n# Orchards\n\nApples and pears in rows.\n"


async def status(car: EngineSidecar) -> Json:
    async with car.session.get(car.url("/api/status"), headers=car.auth()) as resp:
        assert resp.status == 200
        body: Json = await resp.json()
    return body


async def failures(car: EngineSidecar) -> dict[str, tuple[str, str]]:
    """path → (kind, reason) of /api/status `index.failures`."""
    index = (await status(car))["index"]
    assert isinstance(index, dict)
    return {f["path"]: (f.get("kind", "?"), f["reason"]) for f in index["failures"]}


async def idle(car: EngineSidecar) -> bool:
    index = (await status(car))["index"]
    assert isinstance(index, dict)
    return bool(index["state"] == "idle")


async def keyword_paths(car: EngineSidecar, query: str) -> set[str]:
    status_code, body = await car.post("/api/search", {"query": query, "mode": "keyword"})
    assert status_code == 200, body
    results = body["results"]
    assert isinstance(results, list)
    return {str(r["path"]) for r in results}


def as_note(item: tuple[str, object]) -> tuple[str, Any]:
    """An explain body's `note` (a JSON object: indexed freely below)."""
    path, note = item
    assert isinstance(note, dict)
    return path, note


async def eventually(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Polls until the watcher's batch is applied; a generous bound, no timing assertion."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while loop.time() < deadline:
        if await check():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for: {what}")


async def test_a_failure_stays_listed_until_the_note_is_fixed_or_gone(
    tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = tmp_path / "vault"
    config = sidecar_config(vault, tmp_path / "data", fake_ollama.url)
    async with engine_sidecar(config, NOTES, dense=False) as car:
        assert await failures(car) == {}

        (vault / "A.md").write_bytes(BAD_UTF8)

        async def a_listed() -> bool:
            return "A.md" in await failures(car)

        await eventually(a_listed, "A.md listed")
        reason = (await failures(car))["A.md"][1]

        # Another note's batch must not forget A's failure.
        (vault / "B.md").write_text("# Beta\n\nThe beta note about quinces.\n", encoding="utf-8")

        async def b_indexed() -> bool:
            return "B.md" in await keyword_paths(car, "quinces")

        await eventually(b_indexed, "B.md's edit indexed")
        await eventually(lambda: idle(car), "B.md's batch finished")  # searchable comes before the batch ends
        assert await failures(car) == {"A.md": ("failed", reason)}
        assert (
            reason == "not valid UTF-8 at byte 12 (bytes e9 20 61 75): invalid continuation byte; re-save it as UTF-8"
        )

        # A note whose frontmatter cannot be read is indexed from its body and listed as a notice.
        (vault / "C.md").write_text(BROKEN_FRONTMATTER, encoding="utf-8")
        (vault / "D.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")

        async def c_and_d_listed() -> bool:
            return set(await failures(car)) == {"A.md", "C.md", "D.md"}

        await eventually(c_and_d_listed, "C.md and D.md listed")
        listed = await failures(car)
        assert listed["C.md"] == (
            "notice",
            "frontmatter ignored: the '[' opened on line 3 is never closed; the note is indexed without its "
            "properties — fix the YAML between the '---' lines",
        )
        assert listed["D.md"] == ("skipped", "binary data, not a text note (NUL byte at byte 8)")

        async def c_searchable() -> bool:
            return "C.md" in await keyword_paths(car, "pears")

        await eventually(c_searchable, "C.md's body searchable")
        # Failed first, then skipped, then notices.
        index = (await status(car))["index"]
        assert isinstance(index, dict)
        assert [f["path"] for f in index["failures"]] == ["A.md", "D.md", "C.md"]

        # Fixed: indexed cleanly, so no longer listed. Deleted or renamed: gone from the list.
        (vault / "A.md").write_text("# Alpha\n\nThe alpha note about lanterns, fixed.\n", encoding="utf-8")
        (vault / "D.md").unlink()
        (vault / "C.md").rename(vault / "Orchard.md")

        async def only_the_renamed_notice() -> bool:
            return set(await failures(car)) == {"Orchard.md"}

        await eventually(only_the_renamed_notice, "A fixed, D deleted, C renamed")

        async def a_searchable() -> bool:
            return "A.md" in await keyword_paths(car, "fixed")

        await eventually(a_searchable, "the fixed A.md searchable")
        assert (await failures(car))["Orchard.md"][0] == "notice"


async def test_an_excluded_note_is_no_longer_listed(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    config = sidecar_config(vault, tmp_path / "data", fake_ollama.url)
    async with engine_sidecar(config, {**NOTES, "Drafts/Bad.md": BAD_UTF8}, dense=False) as car:
        assert set(await failures(car)) == {"Drafts/Bad.md"}
        settings = vault / ".obsidian"
        settings.mkdir(exist_ok=True)
        (settings / "app.json").write_text('{"userIgnoreFilters": ["Drafts/"]}', encoding="utf-8")
        (vault / "Drafts" / "Bad.md").write_bytes(BAD_UTF8 + b"more\n")  # the next save sees the new setting

        async def none_listed() -> bool:
            return await failures(car) == {}

        await eventually(none_listed, "the excluded note's failure gone")


async def test_the_list_survives_a_restart_and_explain_names_it(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    config = sidecar_config(vault, tmp_path / "data", fake_ollama.url)
    write_notes(vault, {**NOTES, "A.md": BAD_UTF8, "Big.md": "x" * 5_000_000})
    (vault / "Elsewhere.md").symlink_to(tmp_path / "outside.md")
    (tmp_path / "outside.md").write_text("# Outside\n", encoding="utf-8")
    (vault / "Dangling.md").symlink_to(vault / "nowhere.md")
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        assert {p.path for p in report.failed} == {"A.md", "Dangling.md"}
        assert {p.path for p in report.skipped} == {"Big.md", "Elsewhere.md"}

    # A new engine on the same index, before any run: the manifest kept the list.
    async with open_engine(config, sync_vectors=False) as engine:
        models = ModelMonitor(engine.config.ollama)
        index = EngineControl(engine, models).status()["index"]
        await models.stop()
        assert isinstance(index, dict)
        assert [(f["path"], f["kind"]) for f in index["failures"]] == [
            ("A.md", "failed"),
            ("Dangling.md", "failed"),
            ("Big.md", "skipped"),
            ("Elsewhere.md", "skipped"),
        ]
        assert (
            index["failures"][2]["reason"]
            == "too large (4.8 MiB; the limit is 4 MiB); split it into smaller files to index it"
        )

    # explain says what `index` said, never "no note at this path".
    async with engine_sidecar(config, {}, dense=False) as car:
        notes = {path: (await car.explain("lanterns", path))["note"] for path in ("Elsewhere.md", "Dangling.md")}
        notes["A.md"] = (await car.explain("lanterns", "A.md"))["note"]
        notes["Big.md"] = (await car.explain("lanterns", "Big.md"))["note"]
    summary = {
        path: (n["status"], n["reason"]["rule"], n["reason"]["detail"]) for path, n in map(as_note, notes.items())
    }
    assert summary == {
        "Elsewhere.md": ("not_indexed", "outside-vault", "Skipped by the indexer: symlink to outside the vault."),
        "Dangling.md": (
            "failed",
            "parse-failure",
            "Failed to index: symlink to a file that does not exist; fix or delete the link.",
        ),
        "A.md": (
            "failed",
            "parse-failure",
            "Failed to index: not valid UTF-8 at byte 12 (bytes e9 20 61 75): invalid continuation byte; re-save it "
            "as UTF-8.",
        ),
        "Big.md": (
            "not_indexed",
            "size-limit",
            "Skipped by the indexer: too large (4.8 MiB; the limit is 4 MiB); split it into smaller files to index it.",
        ),
    }
