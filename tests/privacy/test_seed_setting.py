"""The seed-phrase setting: from flag, environment or config file, and toggling it re-chunks every note."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from askvault.cli import cli
from askvault.config import load_config
from askvault.errors import ConfigError
from tests.conftest import RunningOllama, VaultWriter

PHRASE = "mother subject brand rally fitness water grab salon urban inside undo miracle"
ENV = ("ASKVAULT_VAULT", "ASKVAULT_DATA_DIR", "ASKVAULT_REDACT_SEED_PHRASES", "ASKVAULT_INCLUDE", "ASKVAULT_EXCLUDE")


@pytest.mark.parametrize(
    ("flags", "environ", "file", "expected"),
    [
        pytest.param({}, {}, {}, True, id="default-on"),
        pytest.param({"redact_seed_phrases": False}, {}, {}, False, id="flag"),
        pytest.param({}, {"ASKVAULT_REDACT_SEED_PHRASES": "false"}, {}, False, id="environment"),
        pytest.param({}, {}, {"redact_seed_phrases": False}, False, id="file"),
        pytest.param({"redact_seed_phrases": True}, {"ASKVAULT_REDACT_SEED_PHRASES": "off"}, {}, True, id="flag-wins"),
    ],
)
def test_seed_phrase_setting_comes_from_flag_environment_or_file(
    tmp_path: Path, flags: dict[str, object], environ: dict[str, str], file: dict[str, object], expected: bool
) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    config = load_config({"vault": str(vault), "data_dir": str(tmp_path / "d"), **flags}, environ, file)
    assert config.vault.redact_seed_phrases is expected


def test_a_bad_seed_phrase_setting_names_its_source(tmp_path: Path) -> None:
    (tmp_path / "vault").mkdir()
    with pytest.raises(ConfigError, match="ASKVAULT_REDACT_SEED_PHRASES"):
        load_config({"vault": str(tmp_path / "vault")}, {"ASKVAULT_REDACT_SEED_PHRASES": "maybe"}, {})


async def test_toggling_the_setting_re_chunks_and_changes_what_is_redacted(
    make_vault: VaultWriter, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    vault = make_vault({"Wallet.md": f"# Wallet\n\nSeed phrase:\n{PHRASE}\n", "Other.md": "# Other\n\nNothing.\n"})
    config_file = tmp_path / "config.toml"
    config_file.write_text("", encoding="utf-8")
    options = [
        *("--vault", str(vault), "--data-dir", str(tmp_path / "data"), "--ollama-url", fake_ollama.url),
        *("--config", str(config_file), "--json"),
    ]
    runner = CliRunner(env=dict.fromkeys(ENV))
    # The command runs its own event loop: off this one, which serves the fake Ollama.
    off = await asyncio.to_thread(runner.invoke, cli, ["index", "--no-redact-seed-phrases", *options])
    assert off.exit_code == 0, off.output
    assert json.loads(off.output)["redactions"]["by_kind"] == {}
    on = await asyncio.to_thread(runner.invoke, cli, ["index", *options])
    assert on.exit_code == 0, on.output
    report = json.loads(on.output)
    assert report["redactions"]["by_kind"] == {"seed-phrase": 1}
    assert report["unchanged"] == 0  # the setting is part of every note's fingerprint
    assert "mother subject" not in on.output
