"""`askvault install-plugin` and `askvault token`: the two setup chores, on real folders."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

import askvault
from askvault.cli.options import EXIT_CONFIG
from askvault.cli.plugin_source import checkout_root
from tests.cli.cli_helpers import common, config_of, invoke
from tests.conftest import RunningOllama

ROOT = Path(__file__).resolve().parents[2]
PLUGIN_FILES = {
    "manifest.json": json.dumps({"id": "ask-vault", "name": "Ask Vault", "version": "9.9.9"}),
    "main.js": "module.exports = class AskVault {};\n",
    "styles.css": ".ask-vault { color: inherit; }\n",
}


@pytest.fixture
def build(tmp_path: Path) -> Path:
    folder = tmp_path / "dist"
    folder.mkdir()
    for name, text in PLUGIN_FILES.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


async def test_install_plugin_copies_the_three_files(tmp_path: Path, build: Path) -> None:
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / ".obsidian/plugins/ask-vault").mkdir(parents=True)
    (vault / ".obsidian/plugins/ask-vault/main.js").write_text("old build", encoding="utf-8")

    result = await invoke("install-plugin", "--vault", str(vault), "--from", str(build))

    assert result.exit_code == 0, result.output
    target = vault / ".obsidian/plugins/ask-vault"
    assert sorted(p.name for p in target.iterdir()) == sorted(PLUGIN_FILES)
    for name, text in PLUGIN_FILES.items():
        assert (target / name).read_text(encoding="utf-8") == text
    assert result.stdout.splitlines()[:3] == [
        f"Installed Ask Vault 9.9.9 into {target}.",
        f"From {build}.",
        "Replaced an earlier copy without a readable manifest.",
    ]
    assert 'turn "Ask Vault" off and on' in result.stdout


@pytest.mark.parametrize(
    ("existing", "said"),
    [
        (None, "Replaced nothing: it was not installed in this vault."),
        (
            {"id": "ask-vault", "version": "0.0.9"},
            "Replaced Ask Vault 0.0.9; the plugin's settings (data.json) are kept.",
        ),
        (
            {"id": "ask-vault", "version": "9.9.9"},
            "Replaced Ask Vault 9.9.9 (the same version); the plugin's settings (data.json) are kept.",
        ),
        ("not json", "Replaced an earlier copy without a readable manifest."),
    ],
    ids=["first-install", "older", "same-version", "unreadable"],
)
async def test_install_plugin_says_what_it_replaced(
    tmp_path: Path, build: Path, existing: dict[str, str] | str | None, said: str
) -> None:
    target = tmp_path / "vault/.obsidian/plugins/ask-vault"
    (tmp_path / "vault/.obsidian").mkdir(parents=True)
    if existing is not None:
        target.mkdir(parents=True)
        (target / "manifest.json").write_text(
            existing if isinstance(existing, str) else json.dumps(existing), encoding="utf-8"
        )
        (target / "data.json").write_text('{"topK": 3}', encoding="utf-8")

    result = await invoke("install-plugin", "--vault", str(tmp_path / "vault"), "--from", str(build))

    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[2] == said
    assert lines[3] == f"Note: this sidecar is askvault {askvault.__version__}; the two work best at the same version."
    assert lines[4].startswith(
        "In Obsidian: Settings → Community plugins → enable" if existing is None else "In Obsidian: turn"
    )
    assert json.loads((target / "manifest.json").read_text(encoding="utf-8"))["version"] == "9.9.9"
    if existing is not None:
        assert (target / "data.json").read_text(encoding="utf-8") == '{"topK": 3}'


async def test_version_names_the_sidecar_and_the_plugin_install_plugin_would_install() -> None:
    result = await invoke("--version")

    assert result.exit_code == 0, result.output
    sidecar, plugin = result.stdout.splitlines()
    assert sidecar == f"askvault {askvault.__version__}"
    # From a checkout: its own build once the plugin is built, else whatever an earlier `make wheel` bundled.
    assert plugin.startswith("Ask Vault plugin ")
    assert checkout_root() == ROOT


async def test_install_plugin_honours_another_config_folder(tmp_path: Path, build: Path) -> None:
    vault = tmp_path / "vault"
    (vault / ".obsidian-mobile").mkdir(parents=True)

    result = await invoke(
        "install-plugin", "--vault", str(vault), "--from", str(build), "--config-dir", ".obsidian-mobile"
    )

    assert result.exit_code == 0, result.output
    assert (vault / ".obsidian-mobile/plugins/ask-vault/main.js").is_file()


@pytest.mark.parametrize("exists", [True, False], ids=["plain-folder", "missing-folder"])
async def test_install_plugin_refuses_what_is_not_a_vault(tmp_path: Path, build: Path, exists: bool) -> None:
    target = tmp_path / "notes"
    if exists:
        target.mkdir()
        (target / "a.md").write_text("# A\n", encoding="utf-8")

    result = await invoke("install-plugin", "--vault", str(target), "--from", str(build))

    assert result.exit_code == EXIT_CONFIG
    if exists:
        assert result.stderr.strip() == (
            f"askvault: --vault: {target} is not an Obsidian vault (no .obsidian/ folder); "
            "open it in Obsidian once first"
        )
        assert not (target / ".obsidian").exists()
    else:
        assert result.stderr.strip() == f"askvault: --vault: {target} is not a folder"


async def test_install_plugin_refuses_an_incomplete_or_foreign_build(tmp_path: Path, build: Path) -> None:
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (build / "styles.css").unlink()
    incomplete = await invoke("install-plugin", "--vault", str(vault), "--from", str(build))
    (build / "styles.css").write_text("", encoding="utf-8")
    (build / "manifest.json").write_text(json.dumps({"id": "other-plugin"}), encoding="utf-8")
    foreign = await invoke("install-plugin", "--vault", str(vault), "--from", str(build))

    assert incomplete.exit_code == EXIT_CONFIG
    assert incomplete.stderr.strip() == "askvault: plugin file(s) not found: styles.css"
    assert foreign.exit_code == EXIT_CONFIG
    assert "is not Ask Vault's manifest (id 'other-plugin')" in foreign.stderr
    assert not (vault / ".obsidian/plugins/ask-vault").exists()


async def test_token_is_stable_and_private(tmp_path: Path, fake_ollama: RunningOllama) -> None:
    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / "Note.md").write_text("# Note\n\nSomething to index.\n", encoding="utf-8")
    flags = common(vault, tmp_path / "data", fake_ollama.url)
    # `token` answers for a vault that was indexed or served (tests/cli/test_first_hour_errors.py: nothing else).
    indexed = await invoke("index", *flags)
    assert indexed.exit_code == 0, indexed.output
    location = flags[: flags.index("--ollama-url")] + flags[flags.index("--config") :]

    first = await invoke("token", *location)
    second = await invoke("token", *location)

    assert first.exit_code == 0, first.output
    assert second.exit_code == 0, second.output
    token = first.stdout.strip()
    assert len(token) >= 43
    assert first.stdout == second.stdout == token + "\n"
    data_dir = config_of(vault, tmp_path / "data").store.data_dir
    token_file = data_dir / "token"
    assert token_file.read_text(encoding="ascii").strip() == token
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert vault not in token_file.parents
    assert token not in "".join(p.read_text(errors="replace") for p in vault.rglob("*") if p.is_file())
