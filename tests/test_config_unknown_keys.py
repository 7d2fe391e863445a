"""A config file key Ask Vault does not know is refused by name, with the closest known key (issue #33)."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.cli.options import EXIT_CONFIG
from askvault.config import load_config, read_config_file
from askvault.config.load import CONFIG_KEYS
from askvault.errors import ConfigError
from tests.cli.cli_helpers import invoke

CASES = {
    "misspelt": ('embed_modle = "nomic-embed-text"\n', "unknown key 'embed_modle'; did you mean 'embed_model'?"),
    "dash-for-underscore": ('chat-model = "llama3.2:3b"\n', "unknown key 'chat-model'; did you mean 'chat_model'?"),
    "wrong-case": ('Ollama_URL = "http://127.0.0.1:11434"\n', "unknown key 'Ollama_URL'; did you mean 'ollama_url'?"),
    "after-a-good-key": ("rerank = true\nrerank_candidate = 8\n", "did you mean 'rerank_candidates'?"),
    "nothing-close": ("zzz = 1\n", "unknown key 'zzz'; the keys are canvases, chat_model, data_dir, embed_model,"),
    "a-section": (
        '[ollama]\nollama_url = "http://127.0.0.1:11434"\n',
        "[ollama] is a section, but the config file has none; write its keys at the top level, above any [section] "
        "line (e.g. ollama_url = ...)",
    ),
    "a-section-of-unknown-keys": (
        '[askvault]\nembed = "bge-m3"\n',
        "[askvault] is a section, but the config file has none; write its keys at the top level",
    ),
    "a-dotted-key": ('ollama.url = "http://127.0.0.1:11434"\n', "[ollama] is a section"),
}


@pytest.mark.parametrize(("text", "said"), CASES.values(), ids=CASES.keys())
def test_an_unknown_key_is_named_with_the_file_and_the_closest_key(text: str, said: str, tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text(text, encoding="utf-8")

    with pytest.raises(ConfigError) as caught:
        read_config_file(file)

    assert caught.value.message.startswith(f"config file {file}: ")
    assert said in caught.value.message
    assert "\n" not in caught.value.message


def test_every_documented_key_is_accepted() -> None:
    # The Configuration table (flag | variable | default | config key), wherever the docs keep it.
    root = Path(__file__).resolve().parents[1]
    docs = [root / "README.md", root / "docs" / "configuration.md"]
    lines = [line for doc in docs if doc.is_file() for line in doc.read_text(encoding="utf-8").splitlines()]
    documented = {row.rstrip(" |").rsplit("|", 1)[1].strip().strip("`") for row in lines if row.startswith("| `--")}
    assert documented == CONFIG_KEYS


def test_a_removed_switch_still_loads_and_a_good_file_applies(vault: Path, tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('fusion = "rrf"\nlink_hops = 1\nchat_model = "qwen2.5:7b"\nrerank_timeout = 5\n', encoding="utf-8")

    config = load_config({"vault": str(vault)}, {}, read_config_file(file), data_root=tmp_path)

    assert config.ollama.chat_model == "qwen2.5:7b"
    assert config.retrieval.rerank_timeout_s == 5


async def test_the_cli_refuses_the_file_in_one_sentence(vault: Path, tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('embed_modle = "nomic-embed-text"\n', encoding="utf-8")

    result = await invoke("token", "--vault", str(vault), "--data-dir", str(tmp_path / "data"), "--config", str(file))

    assert result.exit_code == EXIT_CONFIG
    assert result.stderr == f"askvault: config file {file}: unknown key 'embed_modle'; did you mean 'embed_model'?\n"
    assert not (tmp_path / "data").exists()


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    return root
