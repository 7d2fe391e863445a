"""Folders beside the vault in the configuration: `--source LABEL=PATH`, the variable, `[[sources]]` tables, and
every wrong one named in one sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.config import SourceConfig, load_config
from askvault.errors import ConfigError


@pytest.fixture
def places(tmp_path: Path) -> dict[str, Path]:
    made = {name: tmp_path / name for name in ("vault", "docs", "notes", "data")}
    for folder in made.values():
        folder.mkdir()
    return made


def _load(
    places: dict[str, Path],
    flags: dict[str, object],
    environ: dict[str, str] | None = None,
    file: dict[str, object] | None = None,
) -> tuple[SourceConfig, ...]:
    config = load_config(
        {"vault": str(places["vault"]), "data_dir": str(places["data"]), **flags}, environ or {}, file or {}
    )
    return config.vault.sources


def test_flags_the_variable_and_tables_name_folders(places: dict[str, Path]) -> None:
    docs, notes = places["docs"], places["notes"]
    assert _load(places, {"sources": (f"Docs={docs}", f"Work notes={notes}")}) == (
        SourceConfig("Docs", docs.resolve()),
        SourceConfig("Work notes", notes.resolve()),
    )
    assert _load(places, {}, {"ASKVAULT_SOURCES": f"Docs={docs}"}) == (SourceConfig("Docs", docs.resolve()),)
    table = {"label": "Docs", "path": str(docs), "include": ["*.md", "guides/**"], "exclude": "drafts/"}
    assert _load(places, {}, file={"sources": [table]}) == (
        SourceConfig("Docs", docs.resolve(), ("*.md", "guides/**"), ("drafts/",)),
    )


def test_a_folder_not_there_yet_is_accepted(places: dict[str, Path]) -> None:
    missing = places["vault"].parent / "unmounted"
    assert _load(places, {"sources": (f"USB={missing}",)}) == (SourceConfig("USB", missing.resolve()),)


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("Docs", "is not LABEL=PATH"),
        ("=/tmp/x", "is not LABEL=PATH"),
        ("Docs:x=/tmp/x", "a label is 2-40 letters"),
        ("D=/tmp/x", "a label is 2-40 letters"),
        ("Docs=relative/folder", "is not an absolute path"),
        ("Docs={vault}", "overlaps the vault"),
        ("Docs={vault}/Sub", "overlaps the vault"),
        ("Docs={parent}", "overlaps the vault"),
        ("Docs={data}", "overlaps the index folder"),
    ],
)
def test_a_wrong_source_is_named(places: dict[str, Path], entry: str, said: str) -> None:
    entry = entry.format(vault=places["vault"], parent=places["vault"].parent, data=places["data"])
    with pytest.raises(ConfigError) as caught:
        _load(places, {"sources": (entry,)})
    assert said in caught.value.message
    assert caught.value.message.startswith("--source")
    assert "\n" not in caught.value.message


def test_two_sources_may_share_neither_a_label_nor_a_folder(places: dict[str, Path]) -> None:
    docs = places["docs"]
    with pytest.raises(ConfigError, match="two sources are labelled 'docs'"):
        _load(places, {"sources": (f"Docs={docs}", f"docs={places['notes']}")})
    with pytest.raises(ConfigError, match="overlaps the source 'Docs'"):
        _load(places, {"sources": (f"Docs={docs}", f"Inner={docs}/inner")})


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ({"label": "Docs"}, "each source needs a label and a path"),
        ({"label": "Docs", "path": "/x", "globs": []}, "unknown key 'globs'"),
        ({"label": "Docs", "path": "/x", "include": [1]}, "expected a list of gitignore-style patterns"),
    ],
)
def test_a_wrong_table_is_named(places: dict[str, Path], table: dict[str, object], said: str) -> None:
    with pytest.raises(ConfigError, match=said):
        _load(places, {}, file={"sources": [table]})
