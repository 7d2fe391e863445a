"""The privacy settings from flag, environment and config file; include-only scans; the CLI's redaction summary."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from askvault.cli import cli
from askvault.cli.index_cmd import format_redactions
from askvault.config import VaultConfig, load_config
from askvault.index.scan import scan_vault
from tests.conftest import RunningOllama, VaultWriter

ENV = ("ASKVAULT_VAULT", "ASKVAULT_DATA_DIR", "ASKVAULT_INCLUDE", "ASKVAULT_EXCLUDE", "ASKVAULT_EXCLUDE_HEADINGS")


@pytest.mark.parametrize(
    ("flags", "environ", "file", "include", "headings"),
    [
        pytest.param({"include": ("Work/**", "Notes/")}, {}, {}, ("Work/**", "Notes/"), (), id="flags"),
        pytest.param({}, {"ASKVAULT_INCLUDE": "Work/**, Notes/", "ASKVAULT_EXCLUDE_HEADINGS": "Private,Journal"}, {},
                     ("Work/**", "Notes/"), ("Private", "Journal"), id="environment"),
        pytest.param({}, {}, {"include": ["A/"], "exclude_headings": ["Privat"]}, ("A/",), ("Privat",), id="file"),
        pytest.param({"exclude_headings": ("Flag",)}, {"ASKVAULT_EXCLUDE_HEADINGS": "Env"}, {}, (), ("Flag",),
                     id="flag-wins"),
    ],
)  # fmt: skip
def test_privacy_settings_come_from_flags_environment_or_file(
    tmp_path: Path,
    flags: dict[str, object],
    environ: dict[str, str],
    file: dict[str, object],
    include: tuple[str, ...],
    headings: tuple[str, ...],
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    config = load_config({"vault": str(vault), "data_dir": str(tmp_path / "d"), **flags}, environ, file)
    assert config.vault.include_globs == include
    assert config.vault.exclude_headings == headings


def test_include_only_mode_indexes_only_matching_notes(make_vault: VaultWriter) -> None:
    root = make_vault({"Work/a.md": "a", "Work/Deep/b.md": "b", "Notes/c.md": "c", "Other/d.md": "d", "e.md": "e"})
    result = scan_vault(VaultConfig(root=root, include_globs=("Work/", "*.md"), exclude_globs=("Work/Deep/",)))
    assert [n.path for n in result.notes] == ["Notes/c.md", "Other/d.md", "Work/a.md", "e.md"]
    result = scan_vault(VaultConfig(root=root, include_globs=("Work/",)))
    assert [n.path for n in result.notes] == ["Work/Deep/b.md", "Work/a.md"]
    assert {s.path: s.reason for s in result.skipped}["e.md"] == "not matched by the include globs"


def test_format_redactions_names_kinds_and_notes_never_values() -> None:
    summary = {
        "total": 3,
        "by_kind": {"aws-access-key": 1, "password": 2},
        "notes": [{"path": "Homelab/B2.md", "kinds": {"aws-access-key": 1, "password": 2}}],
    }
    assert format_redactions(summary) == [
        "Secrets redacted before indexing: 3 (aws-access-key 1, password 2); the notes themselves are untouched.",
        "  redacted Homelab/B2.md: aws-access-key 1, password 2",
    ]
    assert format_redactions({"total": 0, "by_kind": {}, "notes": []}) == []


async def test_index_command_reports_redactions_in_summary_and_json(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = make_vault(
        {
            "Keys.md": "# Keys\n\nPassword: Canary-Pw-8f1e\n\n## Private\n\nCANARY-HEADING\n",
            "Draft.md": "# Draft\n\nCANARY-INCLUDE\n",
        }
    )
    config_file = tmp_path / "config.toml"
    config_file.write_text("", encoding="utf-8")
    options = [
        *("--vault", str(vault), "--data-dir", str(tmp_path / "data"), "--ollama-url", fake_ollama.url),
        *("--config", str(config_file), "--include", "Keys.md", "--exclude-heading", "private"),
    ]
    clean: dict[str, str | None] = {name: None for name in ENV}
    runner = CliRunner(env=clean)
    # The command runs its own event loop: off this one, which serves the fake Ollama.
    result = await asyncio.to_thread(runner.invoke, cli, ["index", *options])
    assert result.exit_code == 0, result.output
    assert "Secrets redacted before indexing: 1 (password 1)" in result.output
    assert "redacted Keys.md: password 1" in result.output
    assert "skipped Draft.md: not matched by the include globs" in result.output
    assert "Canary-Pw" not in result.output
    assert "CANARY" not in result.output
    result = await asyncio.to_thread(runner.invoke, cli, ["index", "--json", *options])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["redactions"]["by_kind"] == {"password": 1}
