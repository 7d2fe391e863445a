"""`askvault token` where nothing was indexed, and the hints that name it: the same data folder as the sidecar's
(issue #33)."""

from __future__ import annotations

import asyncio
import re
import shlex
from pathlib import Path

import aiohttp
import pytest

from askvault.cli.hints import data_root, suggest
from askvault.cli.options import EXIT_NOT_INDEXED
from askvault.cli.serve_cmd import print_banner
from askvault.config import load_config
from askvault.wiring.sidecar import Started, run_sidecar
from tests.cli.cli_helpers import OLLAMA_EMBED_MODEL, config_of
from tests.cli.first_hour_helpers import assert_one_sentence, invoke_with_env, location_flags, write_vault
from tests.conftest import RunningOllama

UNWRITABLE = Path("/sys/askvault-test-data")
"""Refused even to root: sysfs allows no new folder."""


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    return write_vault(tmp_path)


async def test_token_in_a_data_dir_nobody_may_create_says_nothing_is_indexed(vault: Path) -> None:
    result = await invoke_with_env("token", *location_flags(vault, UNWRITABLE), ollama_url="http://127.0.0.1:9")

    assert result.exit_code == EXIT_NOT_INDEXED, result.output
    assert_one_sentence(result.stderr, f"nothing is indexed for {vault} in {UNWRITABLE}")


async def test_token_where_nothing_was_indexed_says_so_and_creates_nothing(vault: Path, tmp_path: Path) -> None:
    data_root = tmp_path / "data"

    result = await invoke_with_env("token", *location_flags(vault, data_root), ollama_url="http://127.0.0.1:9")

    assert result.exit_code == EXIT_NOT_INDEXED, result.output
    assert result.stdout == ""
    assert_one_sentence(
        result.stderr,
        f"nothing is indexed for {vault} in {data_root}",
        f"`askvault serve --vault {vault} --data-dir {data_root}`",
        f"`askvault index --vault {vault} --data-dir {data_root}`",
    )
    assert not data_root.exists()


async def test_token_after_index_prints_the_one_serve_will_use(
    vault: Path, tmp_path: Path, fake_ollama: RunningOllama
) -> None:
    flags = location_flags(vault, tmp_path / "data")
    indexed = await invoke_with_env("index", *flags, ollama_url=fake_ollama.url)
    assert indexed.exit_code == 0, indexed.output

    first = await invoke_with_env("token", *flags, ollama_url=fake_ollama.url)
    second = await invoke_with_env("token", *flags, ollama_url=fake_ollama.url)

    assert first.exit_code == second.exit_code == 0, first.output + second.output
    token_file = config_of(vault, tmp_path / "data").store.data_dir / "token"
    assert first.stdout == second.stdout == token_file.read_text(encoding="ascii").strip() + "\n"


async def test_the_banner_token_hint_reaches_the_sidecar_of_another_data_dir(
    vault: Path,
    tmp_path: Path,
    fake_ollama: RunningOllama,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The default data folder is an empty one of this test's: a hint without --data-dir would land there.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    data_root = tmp_path / "data with space"
    config = load_config(
        {"vault": vault, "data_dir": data_root, "ollama_url": fake_ollama.url, "embed_model": OLLAMA_EMBED_MODEL,
         "port": 0}, {}
    )  # fmt: skip
    started: asyncio.Future[Started] = asyncio.get_running_loop().create_future()

    def on_started(info: Started) -> None:
        print_banner(info)
        started.set_result(info)

    stop = asyncio.Event()
    task = asyncio.create_task(
        run_sidecar(config, on_started=on_started, stop=stop, reconcile_every_s=3600, model_poll_s=3600)
    )
    try:
        info = await asyncio.wait_for(started, 30)
        banner = capsys.readouterr().out
        hint = re.search(r"paste the token from `([^`]+)`", banner)
        assert hint is not None, banner
        assert f"--data-dir '{data_root}'" in hint.group(1)
        words = shlex.split(hint.group(1))
        assert words[:2] == ["askvault", "token"]

        printed = await invoke_with_env(*words[1:], ollama_url=fake_ollama.url)

        assert printed.exit_code == 0, printed.output
        headers = {"Authorization": f"Bearer {printed.stdout.strip()}"}
        async with aiohttp.ClientSession() as session, session.get(f"{info.url}/api/status", headers=headers) as resp:
            assert resp.status == 200, await resp.text()
    finally:
        stop.set()
        await asyncio.wait_for(task, 30)
    assert not (tmp_path / "xdg").exists()


@pytest.mark.parametrize(
    ("data_dir", "expected"),
    [
        (None, "askvault token --vault VAULT"),
        ("data", "askvault token --vault VAULT --data-dir DATA"),
        ("my data", "askvault token --vault VAULT --data-dir 'DATA'"),
    ],
    ids=["default-data-root", "given-data-root", "quoted"],
)
def test_suggested_commands_carry_the_data_dir_when_it_is_not_the_default(
    data_dir: str | None, expected: str, vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    flags: dict[str, object] = {"vault": vault}
    if data_dir is not None:
        flags["data_dir"] = tmp_path / data_dir
    config = load_config(flags, {})

    wanted = expected.replace("VAULT", str(vault)).replace("DATA", str(tmp_path / (data_dir or "")))
    assert suggest("token", config) == wanted
    assert data_root(config) == (None if data_dir is None else str(tmp_path / data_dir))
