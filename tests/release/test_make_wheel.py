"""`make wheel` as a contributor runs it: quiet unless asked, the build's output shown when it fails, the path last."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import askvault
from tests.release.tree import ROOT, source_tree

pytestmark = pytest.mark.slow

VERSION = askvault.__version__
BUILT = f"Built dist/askvault-{VERSION}-py3-none-any.whl and dist/askvault-{VERSION}.tar.gz."


def checkout(tmp_path: Path) -> Path:
    """The sources `make wheel` reads, with the Makefile and the release script, in a folder of the test's own."""
    tree = source_tree(tmp_path / "checkout")
    shutil.copyfile(ROOT / "Makefile", tree / "Makefile")
    shutil.copytree(ROOT / "scripts", tree / "scripts", ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def make_wheel(tree: Path, *variables: str) -> subprocess.CompletedProcess[str]:
    # The venv and the plugin's build are this checkout's (`-o`: taken as they are, never remade).
    command = ["make", "-o", ".venv/.installed", "-o", "plugin/dist/main.js", f"PY={sys.executable}", "wheel"]
    # As a contributor's shell runs it: not as a sub-make of `make test`, which would add "Entering directory" lines.
    env = {key: value for key, value in os.environ.items() if key not in {"MAKELEVEL", "MAKEFLAGS", "MFLAGS"}}
    return subprocess.run(
        [*command, *variables], cwd=tree, env=env, capture_output=True, text=True, check=False, timeout=240
    )


@pytest.mark.timeout(600)
def test_make_wheel_is_quiet_names_what_it_built_and_keeps_the_log(tmp_path: Path) -> None:
    tree = checkout(tmp_path)
    quiet = make_wheel(tree)
    assert quiet.returncode == 0, quiet.stdout + quiet.stderr
    assert "adding '" not in quiet.stdout + quiet.stderr
    lines = quiet.stdout.splitlines()
    assert len(lines) <= 8, lines
    assert lines[-1] == BUILT
    assert (tree / "dist" / f"askvault-{VERSION}-py3-none-any.whl").is_file()
    assert "adding 'askvault/" in (tree / "dist" / "build.log").read_text(encoding="utf-8")

    verbose = make_wheel(tree, "VERBOSE=1")
    assert verbose.returncode == 0, verbose.stdout + verbose.stderr
    assert "adding 'askvault/" in verbose.stdout
    assert verbose.stdout.splitlines()[-1] == BUILT


def test_a_failed_build_shows_its_output_and_says_so(tmp_path: Path) -> None:
    tree = checkout(tmp_path)
    pyproject = tree / "backend" / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + "\n[project\n", encoding="utf-8")
    failed = make_wheel(tree)
    assert failed.returncode != 0
    assert "pyproject.toml" in failed.stdout  # the build's own words, from the log
    assert "make wheel: the build failed; its output above (also in dist/build.log) says why." in failed.stderr
    assert "Built dist/" not in failed.stdout
