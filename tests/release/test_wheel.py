"""The wheel carries the built plugin: built for real, installed in a fresh venv, `askvault install-plugin` from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

import askvault
from askvault.plugin_bundle import checkout_files
from tests.release.tree import BUNDLED, ROOT, source_tree

pytestmark = pytest.mark.slow

VERSION = askvault.__version__
BUILT = checkout_files(ROOT)


def run(*command: str | Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    args = [str(c) for c in command]
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False, env=env, timeout=240)


def bundle(tree: Path) -> None:
    result = run(sys.executable, "-m", "scripts.release", "--root", tree, "bundle")
    assert result.returncode == 0, result.stderr


def build(tree: Path, out: Path, *flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # No isolation: the dev environment's pinned setuptools builds it, without reaching a package index.
    return run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, *flags, tree / "backend", env=env)


def fresh_venv(folder: Path, wheel: Path) -> Path:
    """A new venv holding only the wheel; its dependencies come from this venv's site-packages through a .pth."""
    assert run(sys.executable, "-m", "venv", "--without-pip", folder).returncode == 0
    python = folder / "bin" / "python"
    installed = run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "-q", wheel)
    assert installed.returncode == 0, installed.stderr
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").stdout.strip()
    # A folder named in a .pth is not a site dir, so this venv's editable askvault (a .pth hook there) stays out.
    ours = dict.fromkeys(sysconfig.get_paths()[key] for key in ("purelib", "platlib"))
    (Path(site) / "askvault-test-deps.pth").write_text("".join(f"{p}\n" for p in ours), encoding="utf-8")
    return folder / "bin"


@pytest.mark.timeout(300)
def test_the_wheel_carries_the_plugin_and_installs_it_from_a_fresh_venv(tmp_path: Path) -> None:
    tree = source_tree(tmp_path / "checkout")
    bundle(tree)

    built = build(tree, tmp_path / "dist")

    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheel = tmp_path / "dist" / f"askvault-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as zipped:
        for name in BUNDLED:
            assert zipped.read(f"askvault/plugin_bundle/{name}") == BUILT[name].read_bytes(), name
        assert f"Version: {VERSION}\n" in zipped.read(f"askvault-{VERSION}.dist-info/METADATA").decode()
    with tarfile.open(tmp_path / "dist" / f"askvault-{VERSION}.tar.gz") as sdist:
        names = sdist.getnames()
    assert {f"askvault-{VERSION}/askvault/plugin_bundle/{name}" for name in BUNDLED} <= set(names)

    bin_dir = fresh_venv(tmp_path / "venv", wheel)
    where = run(bin_dir / "python", "-c", "import askvault.plugin_bundle as b; print(b.BUNDLE_DIR)")
    assert Path(where.stdout.strip()).is_relative_to(tmp_path / "venv"), where.stdout + where.stderr
    version = run(bin_dir / "askvault", "--version")
    assert (
        version.stdout == f"askvault {VERSION}\nAsk Vault plugin {VERSION} (the copy bundled with askvault {VERSION})\n"
    )

    vault = tmp_path / "vault"
    (vault / ".obsidian").mkdir(parents=True)
    first = run(bin_dir / "askvault", "install-plugin", "--vault", vault)
    again = run(bin_dir / "askvault", "install-plugin", "--vault", vault)

    target = vault / ".obsidian/plugins/ask-vault"
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[:3] == [
        f"Installed Ask Vault {VERSION} into {target}.",
        f"From the copy bundled with askvault {VERSION}.",
        "Replaced nothing: it was not installed in this vault.",
    ]
    assert (
        again.stdout.splitlines()[2]
        == f"Replaced Ask Vault {VERSION} (the same version); the plugin's settings (data.json) are kept."
    )
    for name in BUNDLED:
        assert (target / name).read_bytes() == BUILT[name].read_bytes(), name
    _searches_semantically(bin_dir, tmp_path)


def _searches_semantically(bin_dir: Path, tmp_path: Path) -> None:
    """The installed wheel carries the built-in embedder's files: no Ollama, no flag, and every hit has a dense rank;
    a second command without flags uses the embedder the index recorded."""
    where = run(bin_dir / "python", "-c", "from askvault.embed.builtin_files import ASSETS; print(ASSETS)")
    assert Path(where.stdout.strip()).is_relative_to(tmp_path / "venv"), where.stdout + where.stderr
    vault = tmp_path / "notes"
    (vault / ".obsidian").mkdir(parents=True)
    (vault / "Cat.md").write_text("# Cat\n\nThe cat sleeps on the warm windowsill all afternoon.\n", encoding="utf-8")
    (vault / "Revenue.md").write_text("# Revenue\n\nQuarterly revenue grew by eight percent.\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith(("OLLAMA", "ASKVAULT"))}
    env["OLLAMA_HOST"] = "http://127.0.0.1:9"  # nothing listens there: search must not need Ollama
    shared: list[str | Path] = ["--vault", vault, "--data-dir", tmp_path / "data"]
    indexed = run(bin_dir / "askvault", "index", *shared, env=env)
    assert indexed.returncode == 0, indexed.stderr
    assert "Dense search: ready with built-in all-MiniLM-L6-v2, 384-d" in indexed.stdout
    found = run(bin_dir / "askvault", "search", "a kitten napping in the sun", "--json", *shared, env=env)
    assert found.returncode == 0, found.stderr
    results = json.loads(found.stdout)["results"]
    assert results[0]["path"] == "Cat.md"
    assert all(result["dense_rank"] is not None for result in results)


def _no_bundle(tree: Path) -> None:
    pass


def _other_version(tree: Path) -> None:
    bundle(tree)
    manifest = tree / "backend/askvault/plugin_bundle/manifest.json"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(f'"{VERSION}"', '"9.9.9"'), encoding="utf-8")


def _stale(tree: Path) -> None:
    bundle(tree)
    with (tree / "plugin/dist/main.js").open("a", encoding="utf-8") as main_js:
        main_js.write("\n/* rebuilt since the bundle was copied */\n")


@pytest.mark.parametrize(
    ("prepare", "env", "complaint"),
    [
        (_no_bundle, {}, "plugin file(s) not found: manifest.json, main.js, styles.css"),
        (_other_version, {}, f"manifest.json is version 9.9.9, the package is {VERSION}"),
        (_stale, {}, "main.js differs from the checkout's current build"),
        (_no_bundle, {"ASKVAULT_BUILD_WITHOUT_PLUGIN": "1"}, None),
    ],
    ids=["missing", "other-version", "stale", "explicitly-without"],
)
def test_a_build_without_a_current_bundle_fails_clearly(
    tmp_path: Path, prepare: Callable[[Path], None], env: dict[str, str], complaint: str | None
) -> None:
    tree = source_tree(tmp_path / "checkout")
    prepare(tree)

    result = build(tree, tmp_path / "dist", "--sdist", env={**os.environ, **env})

    if complaint is None:
        assert result.returncode == 0, result.stderr[-2000:]
    else:
        assert result.returncode != 0
        assert complaint in result.stderr + result.stdout
        assert "Run `make wheel`" in result.stderr + result.stdout
