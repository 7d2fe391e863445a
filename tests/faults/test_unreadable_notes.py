"""Notes that cannot be read: permission denied, a note replaced by a folder of the same name.

The tests run as root here, and root reads a `chmod 000` file anyway; so beside the real `chmod 000` the
note reader's `open` is wrapped to refuse files without read permission, which is what the kernel does for
everyone else.
"""

from __future__ import annotations

import builtins
import errno
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import askvault.index.note_reader
from askvault.config import Config
from askvault.index.changes import ChangeBatch
from askvault.wiring import open_engine
from tests.conftest import RunningOllama, VaultWriter
from tests.faults.helpers import keyword_paths, numbered_notes

pytestmark = pytest.mark.slow


@pytest.fixture
def honour_permissions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Opening a note without read permission fails with EACCES, as for any user but root."""

    def guarded_open(file: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, str | Path) and stat.S_IMODE(os.stat(file).st_mode) & 0o444 == 0:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))
        return builtins.open(file, *args, **kwargs)

    monkeypatch.setattr(askvault.index.note_reader, "open", guarded_open, raising=False)


@pytest.mark.usefixtures("honour_permissions")
async def test_an_unreadable_note_is_reported_keeps_its_old_text_and_the_others_are_indexed(
    make_vault: VaultWriter, config_for: Callable[[Path, str], Config], fake_ollama: RunningOllama
) -> None:
    vault = make_vault(numbered_notes(5))
    locked = vault / "Notes" / "Note 002.md"
    async with open_engine(config_for(vault, fake_ollama.url), sync_vectors=False) as engine:
        assert (await engine.indexer.run()).failed == []
        locked.write_text("# Note 2\n\nRewritten: the meadow0002 gate.\n", encoding="utf-8")
        locked.chmod(0)
        (vault / "Notes" / "Fresh.md").write_text("# Fresh\n\nThe orchard0100 list.\n", encoding="utf-8")
        try:
            report = await engine.indexer.run()
            assert [(p.path, p.reason) for p in report.failed] == [("Notes/Note 002.md", "Permission denied")]
            assert report.indexed == 1
            assert await keyword_paths(engine, "orchard0100") == {"Notes/Fresh.md"}
            assert await keyword_paths(engine, "lantern0002") == {"Notes/Note 002.md"}  # nothing lost

            await engine.indexer.apply(ChangeBatch(upserts=frozenset({"Notes/Note 002.md"})))
            assert engine.indexer.last_report is not None
            assert [p.path for p in engine.indexer.last_report.failed] == ["Notes/Note 002.md"]
        finally:
            locked.chmod(0o644)
        again = await engine.indexer.run()
        assert again.failed == []
        assert await keyword_paths(engine, "meadow0002") == {"Notes/Note 002.md"}
        assert await keyword_paths(engine, "lantern0002") == set()


@pytest.mark.parametrize("how", ["scan", "watcher-batch"])
async def test_a_note_replaced_by_a_folder_of_the_same_name(
    make_vault: VaultWriter, config_for: Callable[[Path, str], Config], fake_ollama: RunningOllama, how: str
) -> None:
    vault = make_vault({**numbered_notes(3), "x.md": "# X\n\nThe beacon0042 note.\n"})
    async with open_engine(config_for(vault, fake_ollama.url), sync_vectors=False) as engine:
        assert await engine.indexer.run() is not None
        assert await keyword_paths(engine, "beacon0042") == {"x.md"}
        (vault / "x.md").unlink()
        (vault / "x.md").mkdir()
        (vault / "x.md" / "inner.md").write_text("# Inner\n\nThe ember0043 note.\n", encoding="utf-8")
        if how == "scan":
            await engine.indexer.run()
        else:
            await engine.indexer.apply(ChangeBatch(upserts=frozenset({"x.md", "x.md/inner.md"})))
        report = engine.indexer.last_report
        assert report is not None
        assert report.failed == []
        assert await keyword_paths(engine, "beacon0042") == set()
        assert await keyword_paths(engine, "ember0043") == {"x.md/inner.md"}
        assert await keyword_paths(engine, "lantern0001") == {"Notes/Note 001.md"}
        shutil.rmtree(vault / "x.md")
        (vault / "x.md").write_text("# X\n\nThe beacon0044 note.\n", encoding="utf-8")
        back = await engine.indexer.run()
        assert back.failed == []
        assert await keyword_paths(engine, "beacon0044") == {"x.md"}
        assert await keyword_paths(engine, "ember0043") == set()
