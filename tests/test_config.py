"""The configuration is built once; flags beat environment beat file; errors name what is wrong."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.config import DEFAULT_OLLAMA_URL, RetrievalParams, load_config, vault_data_dir
from askvault.config.load import read_config_file
from askvault.errors import ConfigError


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "My Vault"
    root.mkdir()
    return root


def test_defaults(vault: Path, tmp_path: Path) -> None:
    config = load_config({"vault": str(vault)}, {}, data_root=tmp_path / "data")
    assert config.vault.root == vault.resolve()
    assert config.ollama.url == DEFAULT_OLLAMA_URL
    assert config.store.qdrant_url is None
    assert config.server.host == "127.0.0.1"
    assert config.store.data_dir.parent == tmp_path / "data" / "vaults"
    assert config.store.data_dir.name.startswith("My-Vault-")


@pytest.mark.parametrize(
    ("flags", "environ", "file", "expected"),
    [
        pytest.param({}, {}, {}, None, id="default"),
        pytest.param({}, {}, {"embed_model": "from-file"}, "from-file", id="file"),
        pytest.param({}, {"ASKVAULT_EMBED_MODEL": "from-env"}, {"embed_model": "from-file"}, "from-env", id="env"),
        pytest.param(
            {"embed_model": "from-flag"}, {"ASKVAULT_EMBED_MODEL": "from-env"}, {}, "from-flag", id="flag-wins"
        ),
    ],
)
def test_precedence(
    vault: Path,
    tmp_path: Path,
    flags: dict[str, object],
    environ: dict[str, str],
    file: dict[str, object],
    expected: str | None,
) -> None:
    config = load_config({"vault": str(vault), **flags}, environ, file, data_root=tmp_path)
    assert config.ollama.embed_model == expected


@pytest.mark.parametrize(
    ("flags", "environ", "message"),
    [
        pytest.param({"vault": None}, {}, "--vault", id="no-vault"),
        pytest.param({"vault": "/nonexistent/vault"}, {}, "--vault", id="vault-missing"),
        pytest.param({}, {"OLLAMA_HOST": "ftp://x"}, "OLLAMA_HOST", id="bad-ollama-url"),
        pytest.param({}, {"QDRANT_URL": "qdrant:6333"}, "QDRANT_URL", id="bad-qdrant-url"),
        pytest.param({"port": "eighty"}, {}, "--port", id="bad-port"),
        pytest.param({}, {"ASKVAULT_PORT": "70000"}, "ASKVAULT_PORT", id="port-range"),
        pytest.param({}, {"ASKVAULT_ORIGINS": "*"}, "ASKVAULT_ORIGINS", id="wildcard-origin"),
    ],
)
def test_errors_name_the_source(
    vault: Path, tmp_path: Path, flags: dict[str, object], environ: dict[str, str], message: str
) -> None:
    merged: dict[str, object] = {"vault": str(vault), **flags}
    with pytest.raises(ConfigError, match=message):
        load_config(merged, environ, data_root=tmp_path)


def test_ollama_host_without_scheme_is_accepted(vault: Path, tmp_path: Path) -> None:
    config = load_config({"vault": str(vault)}, {"OLLAMA_HOST": "127.0.0.1:11435"}, data_root=tmp_path)
    assert config.ollama.url == "http://127.0.0.1:11435"


def test_data_dir_inside_the_vault_is_refused(vault: Path) -> None:
    with pytest.raises(ConfigError, match="outside the vault"):
        load_config({"vault": str(vault), "data_dir": str(vault / "index")}, {})


def test_one_folder_per_vault(tmp_path: Path) -> None:
    a = tmp_path / "a" / "Notes"
    b = tmp_path / "b" / "Notes"
    a.mkdir(parents=True)
    b.mkdir(parents=True)
    assert vault_data_dir(tmp_path, a) != vault_data_dir(tmp_path, b)
    assert vault_data_dir(tmp_path, a) == vault_data_dir(tmp_path, a)


def test_a_config_file_with_a_removed_switch_still_loads(vault: Path, tmp_path: Path) -> None:
    # Keys the loader does not read are ignored, those of switches removed after measurement included.
    file = tmp_path / "config.toml"
    file.write_text('link_hops = true\nkeep_stop_words = true\nfusion = "rrf"\nrerank = true\n', encoding="utf-8")
    config = load_config({"vault": str(vault)}, {}, read_config_file(file), data_root=tmp_path)
    assert config.retrieval == RetrievalParams(rerank=True)
