"""An Ollama URL copied with its API path (`…/api`) is refused when the configuration is built, and a 404 from a URL
with a path says so instead of "update Ollama" (issue #33)."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.cli.options import EXIT_CONFIG
from askvault.config import OllamaConfig, load_config, read_config_file
from askvault.embed.ollama import OllamaEmbedder
from askvault.errors import ConfigError, ModelError
from tests.cli.cli_helpers import invoke
from tests.conftest import RunningOllama

REFUSED = {
    "api": ("http://127.0.0.1:11434/api", "'/api'", "http://127.0.0.1:11434"),
    "api-slash": ("http://127.0.0.1:11434/api/", "'/api'", "http://127.0.0.1:11434"),
    "api-no-scheme": ("127.0.0.1:11434/api", "'/api'", "http://127.0.0.1:11434"),
    "an-endpoint": ("http://localhost:11434/api/generate", "'/api/generate'", "http://localhost:11434"),
    "openai-compatible": ("http://127.0.0.1:11434/v1/chat/completions", "'/v1/chat/completions'", "http://127.0.0.1:11434"),
    "behind-a-proxy": ("https://box.lan/ollama/api", "'/api'", "https://box.lan/ollama"),
}  # fmt: skip
ACCEPTED = {
    "server": ("http://127.0.0.1:11434", "http://127.0.0.1:11434"),
    "trailing-slash": ("http://127.0.0.1:11434/", "http://127.0.0.1:11434"),
    "host-port": ("box.lan:11434", "http://box.lan:11434"),
    "proxy-prefix": ("https://box.lan/ollama", "https://box.lan/ollama"),
    "host-named-api": ("http://api:11434", "http://api:11434"),
}


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    return root


@pytest.mark.parametrize(("url", "path", "server"), REFUSED.values(), ids=REFUSED.keys())
def test_a_url_with_the_api_path_is_refused_with_the_server_address(
    url: str, path: str, server: str, vault: Path, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config({"vault": vault, "ollama_url": url}, {}, data_root=tmp_path)

    assert caught.value.message == (
        f"--ollama-url: {url!r} ends in {path}, but Ollama's URL is the server's address alone (the API path is "
        f"added to it): use {server}"
    )


@pytest.mark.parametrize(("url", "kept"), ACCEPTED.values(), ids=ACCEPTED.keys())
def test_a_server_address_is_accepted(url: str, kept: str, vault: Path, tmp_path: Path) -> None:
    assert load_config({"vault": vault, "ollama_url": url}, {}, data_root=tmp_path).ollama.url == kept


def test_the_variable_and_the_config_key_are_named(vault: Path, tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('ollama_url = "http://127.0.0.1:11434/api"\n', encoding="utf-8")

    with pytest.raises(ConfigError, match=r"^OLLAMA_HOST: 'http://127\.0\.0\.1:11434/api' ends in '/api'"):
        load_config({"vault": vault}, {"OLLAMA_HOST": "http://127.0.0.1:11434/api"}, data_root=tmp_path)
    with pytest.raises(ConfigError, match=r"^config file key 'ollama_url': .* use http://127\.0\.0\.1:11434$"):
        load_config({"vault": vault}, {}, read_config_file(file), data_root=tmp_path)


async def test_the_cli_says_it_before_anything_runs(vault: Path, tmp_path: Path) -> None:
    file = tmp_path / "config.toml"
    file.write_text('ollama_url = "http://127.0.0.1:11434/api"\n', encoding="utf-8")

    result = await invoke("index", "--vault", str(vault), "--data-dir", str(tmp_path / "data"), "--config", str(file))

    assert result.exit_code == EXIT_CONFIG
    assert result.stderr == (
        "askvault: config file key 'ollama_url': 'http://127.0.0.1:11434/api' ends in '/api', but Ollama's URL is "
        "the server's address alone (the API path is added to it): use http://127.0.0.1:11434\n"
    )
    assert "0.3 or newer" not in result.output
    assert not (tmp_path / "data").exists()


async def test_a_404_under_a_path_names_the_path_not_the_ollama_version(fake_ollama: RunningOllama) -> None:
    # A proxy prefix that passes validation but is wrong: the real client gets the fake server's 404 for it.
    url = f"{fake_ollama.url}/ollama"
    embedder = OllamaEmbedder(OllamaConfig(url=url, embed_model="nomic-embed-text"))
    try:
        with pytest.raises(ModelError) as caught:
            await embedder.embed_query("port")
    finally:
        await embedder.aclose()

    message = caught.value.message
    assert message.startswith(f"Ollama at {url} has no /api/embed (")
    assert message.endswith(
        f"the URL should be Ollama's server address without the path '/ollama' (e.g. {fake_ollama.url}); if that "
        "path is a proxy's, check it forwards /api/"
    )
    assert "update Ollama" not in message


async def test_a_404_at_the_server_address_still_says_update(fake_ollama: RunningOllama) -> None:
    # At the server's address a 404 that names no model still means an Ollama without the endpoint.
    fake_ollama.fake.embed_status = 404
    embedder = OllamaEmbedder(OllamaConfig(url=fake_ollama.url, embed_model="nomic-embed-text"))
    try:
        with pytest.raises(ModelError, match=r"update Ollama to 0\.3 or newer$"):
            await embedder.embed_query("port")
    finally:
        await embedder.aclose()
