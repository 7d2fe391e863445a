"""The README's examples run as written, on a copy of the sample vault.

A ```sh block right under the line `<!-- example: tests/release/test_readme_examples.py -->` is an example. Each of
its commands (a line, with its `\\` continuations; `#` comments included) runs through bash, in order, and must exit
0 and print something. The setting is a checkout as the README describes it after `make setup`:

- the working folder is a temporary one holding a copy of `eval/sample-vault/` and a `.venv/bin/askvault` that runs
  the `askvault` these tests import;
- `ASKVAULT_DATA_DIR` is a temporary folder (indexes never land in the user's data folder), and no other
  `ASKVAULT_*`, `QDRANT_URL` or proxy variable of the caller's shell is passed on;
- `OLLAMA_HOST` is the fake Ollama of `tests/fakes/` (for `ask`'s chat model); no example names an embedding
  model, so the real built-in embedder indexes and searches, as it does for a user;
- `NAME=$(command)` sets NAME for the commands after it (its output must not be empty either).

A block that talks to the sidecar (it holds `http://127.0.0.1:PORT`, PORT the default port) runs after the others,
while the sidecar `make run` starts (`askvault serve --vault eval/sample-vault`) runs on a free port instead; PORT
is replaced by that port. A `curl` command runs with curl when it is installed, and is always replayed with the
same method, headers and body from Python, so an equivalent request is checked where curl is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import shutil
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest

from askvault.api.discovery import read_discovery
from askvault.config import DEFAULT_PORT, load_config
from tests.conftest import RunningOllama
from tests.release.tree import ROOT

README = ROOT / "README.md"
MARKER = "<!-- example: tests/release/test_readme_examples.py -->"
SIDECAR_URL = f"http://127.0.0.1:{DEFAULT_PORT}"
TOUR = {"index", "search", "ask", "related", "explain", "token"}
"""The `askvault` commands the README's tour shows; each must be among the examples."""
COMMAND_TIMEOUT_S = 300.0
"""Only bounds how long a broken example may hang; the first `index` embeds the whole sample vault."""
PASSED_ON = re.compile(r"^(?!ASKVAULT_|OLLAMA_HOST$|QDRANT_URL$|(?i:(?:https?|all|no)_proxy)$)")


@dataclass(frozen=True)
class Example:
    line: int
    """Where its ```sh fence is in the README (1-based)."""
    commands: tuple[str, ...]

    @property
    def needs_sidecar(self) -> bool:
        return any(SIDECAR_URL in command for command in self.commands)


def shell_commands(body: list[str]) -> list[str]:
    """The block's commands: continuation lines joined, blank and comment-only lines dropped."""
    commands: list[str] = []
    parts: list[str] = []
    for raw in body:
        line = raw.strip()
        if line.endswith("\\"):
            parts.append(line[:-1].strip())
            continue
        command = " ".join(part for part in [*parts, line] if part)
        if command and not command.startswith("#"):
            commands.append(command)
        parts = []
    return commands


def fenced_blocks(text: str) -> list[tuple[int, str, list[str]]]:
    """Every fenced block: (line of its fence, 1-based; the fence's info string; its lines)."""
    lines = text.splitlines()
    found: list[tuple[int, str, list[str]]] = []
    index = 0
    while index < len(lines):
        opening = lines[index].strip()
        if opening.startswith("```"):
            end = next(n for n in range(index + 1, len(lines)) if lines[n].strip() == "```")
            found.append((index + 1, opening[3:].strip(), lines[index + 1 : end]))
            index = end
        index += 1
    return found


def examples(text: str) -> list[Example]:
    """The marked ```sh blocks, in README order."""
    lines = text.splitlines()
    marked: list[Example] = []
    for line, info, body in fenced_blocks(text):
        above = [lines[n].strip() for n in range(line - 2, -1, -1) if lines[n].strip()][:1]
        if above == [MARKER]:
            assert info == "sh", f"README.md:{line}: the example marker must stand right above a ```sh block"
            marked.append(Example(line, tuple(shell_commands(body))))
    return marked


def askvault_commands(found: list[Example]) -> set[str]:
    """The `askvault` subcommands the examples run."""
    names = re.findall(r"\.venv/bin/askvault\s+([a-z-]+)", " ".join(c for e in found for c in e.commands))
    return set(names)


def test_the_readme_has_examples_for_the_tour_and_the_api() -> None:
    found = examples(README.read_text(encoding="utf-8"))
    assert askvault_commands(found) >= TOUR
    assert any(example.needs_sidecar for example in found), f"no example calls the API at {SIDECAR_URL}"


def test_every_sample_vault_or_api_block_is_an_example() -> None:
    text = README.read_text(encoding="utf-8")
    tested = {example.line for example in examples(text)}
    for line, _info, body in fenced_blocks(text):
        code = "\n".join(body)
        if "eval/sample-vault" in code or "http://127.0.0.1:" in code:
            assert line in tested, f"README.md:{line}: an example on the sample vault or the API lacks {MARKER}"
            assert SIDECAR_URL in code or "http://127.0.0.1:" not in code, (
                f"README.md:{line}: the sidecar's default address is {SIDECAR_URL}"
            )


def test_make_run_serves_the_sample_vault() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^VAULT\s*\?=\s*eval/sample-vault\s*$", makefile, re.MULTILINE)
    assert re.search(r"^run:.*\n\t\$\(BIN\)/askvault serve --vault \$\(VAULT\)\s*$", makefile, re.MULTILINE)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(["a \\", "  b  # c", "", "# only a comment", "d"], ["a b  # c", "d"], id="continuations"),
        pytest.param(["TOKEN=$(x token)"], ["TOKEN=$(x token)"], id="assignment"),
    ],
)
def test_commands_of_a_block(body: list[str], expected: list[str]) -> None:
    assert shell_commands(body) == expected


@dataclass
class Checkout:
    """The temporary stand-in for a checkout after `make setup`."""

    root: Path
    env: dict[str, str]

    @classmethod
    def make(cls, tmp_path: Path, ollama_url: str) -> Checkout:
        root = tmp_path / "checkout"
        shutil.copytree(ROOT / "eval" / "sample-vault", root / "eval" / "sample-vault")
        launcher = root / ".venv" / "bin" / "askvault"
        launcher.parent.mkdir(parents=True)
        python = shlex.quote(sys.executable)
        launcher.write_text(f'#!/bin/sh\nexec {python} -c "from askvault.cli import main; main()" "$@"\n')
        launcher.chmod(0o755)
        env = {key: value for key, value in os.environ.items() if PASSED_ON.match(key)}
        env |= {"ASKVAULT_DATA_DIR": str(tmp_path / "data"), "OLLAMA_HOST": ollama_url}
        return cls(root, env)

    async def bash(self, script: str) -> tuple[int, str, str]:
        process = await asyncio.create_subprocess_exec(
            "bash",
            "-c",
            script,
            cwd=self.root,
            env=self.env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            out, err = await asyncio.wait_for(process.communicate(), COMMAND_TIMEOUT_S)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
        assert process.returncode is not None
        return process.returncode, out.decode(), err.decode()

    async def run(self, command: str) -> str:
        """Runs one command; `NAME=$(…)` also sets NAME for the next ones."""
        assignment = re.match(r"([A-Za-z_]\w*)=\$\(", command)
        script = command if assignment is None else f'{command}\nstatus=$?\nprintf %s "${assignment[1]}"\nexit $status'
        code, out, err = await self.bash(script)
        assert code == 0, f"`{command}` exited {code}\n--- stdout\n{out}\n--- stderr\n{err}"
        assert out.strip(), f"`{command}` printed nothing\n--- stderr\n{err}"
        if assignment is not None:
            self.env[assignment[1]] = out.strip()
        return out

    async def curl_argv(self, command: str) -> list[str]:
        """The arguments bash hands curl for this command (variables expanded, quotes removed)."""
        code, out, err = await self.bash('curl() { printf "%s\\0" "$@"; }\n' + command)
        assert code == 0, err
        return out.split("\0")[:-1]


@contextlib.asynccontextmanager
async def sidecar(checkout: Checkout) -> AsyncIterator[str]:
    """`make run`'s command on a free port, until the block ends; yields its base URL."""
    process = await asyncio.create_subprocess_exec(
        str(checkout.root / ".venv" / "bin" / "askvault"),
        "serve",
        "--vault",
        "eval/sample-vault",
        "--port",
        "0",
        cwd=checkout.root,
        env=checkout.env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    config = load_config({"vault": checkout.root / "eval" / "sample-vault"}, checkout.env)
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(int(COMMAND_TIMEOUT_S / 0.2)):
                assert process.returncode is None, "the sidecar exited"
                found = read_discovery(config.store.data_dir)
                if found is not None and found.pid == process.pid:
                    url = f"http://127.0.0.1:{found.port}"
                    with contextlib.suppress(aiohttp.ClientError):
                        async with session.get(url + "/api/health") as response:
                            if response.status == 200:
                                break
                await asyncio.sleep(0.2)
            else:
                raise AssertionError("the sidecar did not start")
        yield url
    finally:
        if process.returncode is None:
            process.terminate()
        _, err = await asyncio.wait_for(process.communicate(), 60)
        assert "Traceback" not in err.decode(), err.decode()


async def replay_curl(argv: list[str]) -> tuple[int, str]:
    """The request curl would send for `argv` (the options the README uses), sent from Python."""
    headers: dict[str, str] = {}
    method, data, url = "", None, ""
    args = iter(argv)
    for arg in args:
        if arg in ("-s", "--silent", "-S", "--show-error", "-N", "--no-buffer"):
            continue
        if arg in ("-H", "--header"):
            name, _, value = next(args).partition(":")
            headers[name.strip()] = value.strip()
        elif arg in ("-d", "--data", "--data-raw"):
            data = next(args).encode()
        elif arg in ("-X", "--request"):
            method = next(args)
        elif not arg.startswith("-"):
            url = arg
        else:
            raise AssertionError(f"the README's curl uses {arg}, which this test does not replay yet")
    if data is not None:
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    async with (
        aiohttp.ClientSession() as session,
        session.request(method or ("POST" if data is not None else "GET"), url, headers=headers, data=data) as response,
    ):
        return response.status, await response.text()


def assert_no_api_error(command: str, output: str) -> None:
    """A JSON body from the API must not be an error (curl -s prints a 401's body and exits 0)."""
    first = output.strip().splitlines()[0]
    if first.startswith("{"):
        body = json.loads(first)
        assert "error" not in body, f"`{command}`: {body}"


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_every_readme_example_runs_on_the_sample_vault(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    found = examples(README.read_text(encoding="utf-8"))
    checkout = Checkout.make(tmp_path, fake_ollama.url)
    for example in [e for e in found if not e.needs_sidecar]:
        for command in example.commands:
            await checkout.run(command)
    assert fake_ollama.fake.calls("/api/chat"), "`ask` did not reach the chat model"

    async with sidecar(checkout) as url:
        for example in [e for e in found if e.needs_sidecar]:
            for written in example.commands:
                command = written.replace(SIDECAR_URL, url)
                if shlex.split(command)[0] == "curl":
                    status, body = await replay_curl(await checkout.curl_argv(command))
                    assert status == 200, f"`{written}` (replayed): {status} {body}"
                    assert_no_api_error(written, body)
                    if shutil.which("curl") is None:
                        continue
                assert_no_api_error(written, await checkout.run(command))
