"""A config file that cannot be read — not TOML, not UTF-8, a folder — is refused in one sentence with its full path."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.cli.options import EXIT_CONFIG
from askvault.config import read_config_file
from askvault.errors import ConfigError
from tests.cli.cli_helpers import invoke

CASES = {
    "unclosed-array": (
        b"exclude = [\n",
        "is not valid TOML: ",
        "at end of document; fix it there, or move the file aside",
    ),
    "bare-word": (b"chat_model = llama3\n", "is not valid TOML: invalid value at line 1, column 14; fix it there", ""),
    "latin-1": ('chat_model = "caf\xe9"\n'.encode("latin-1"), "is not UTF-8 text; save it as UTF-8", ""),
    "a-folder": (None, "cannot be read (", "; check that it is a readable file"),
}


@pytest.mark.parametrize(("content", "said", "also"), CASES.values(), ids=CASES.keys())
def test_an_unreadable_file_is_named_in_full_with_what_to_do(
    content: bytes | None, said: str, also: str, tmp_path: Path
) -> None:
    file = tmp_path / "settings" / "config.toml"
    if content is None:
        file.mkdir(parents=True)
    else:
        file.parent.mkdir()
        file.write_bytes(content)

    with pytest.raises(ConfigError) as caught:
        read_config_file(file)

    assert caught.value.message.startswith(f"config file {file} {said}")
    assert also in caught.value.message
    assert "\n" not in caught.value.message


async def test_the_cli_exits_with_the_config_code_and_no_traceback(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    file = tmp_path / "config.toml"
    file.write_text("exclude = [\n", encoding="utf-8")

    result = await invoke("token", "--vault", str(vault), "--data-dir", str(tmp_path / "data"), "--config", str(file))

    assert result.exit_code == EXIT_CONFIG
    assert result.stderr == (
        f"askvault: config file {file} is not valid TOML: invalid value at end of document; fix it there, or move the "
        "file aside\n"
    )
    assert not (tmp_path / "data").exists()
