"""The GitHub workflows: valid against GitHub's workflow schema, and made of the make targets contributors run."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from scripts.release import load_json

from tests.release.tree import ROOT

WORKFLOWS = ROOT / ".github" / "workflows"
VERSION = str(load_json(ROOT / "manifest.json")["version"])


def workflow(name: str) -> dict[object, object]:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def steps(data: dict[object, object]) -> list[dict[str, object]]:
    jobs = data["jobs"]
    assert isinstance(jobs, dict)
    return [step for job in jobs.values() for step in job.get("steps", [])]


def make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([a-z][a-z0-9-]*):", text, flags=re.MULTILINE))


def test_the_workflows_are_valid_github_workflows() -> None:
    checker = Path(sys.executable).parent / "check-jsonschema"
    files = sorted(str(path) for path in WORKFLOWS.glob("*.yml"))
    result = subprocess.run(
        [str(checker), "--builtin-schema", "vendor.github-workflows", *files],
        capture_output=True,
        text=True,
        check=False,
    )

    assert files == [str(WORKFLOWS / "ci.yml"), str(WORKFLOWS / "release.yml")]
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("name", ["ci.yml", "release.yml"])
def test_every_command_is_a_make_target_or_the_release_upload(name: str) -> None:
    commands = [str(step["run"]).strip() for step in steps(workflow(name)) if "run" in step]

    assert commands
    for command in commands:
        if command.startswith("gh release create"):
            continue
        match = re.fullmatch(r"make ([a-z-]+)( [A-Z]+=\S+)*", command)
        assert match, command
        assert match.group(1) in make_targets(), command


def test_ci_runs_make_test() -> None:
    ci = workflow("ci.yml")
    assert [step["run"] for step in steps(ci) if "run" in step] == ["make test"]
    # PyYAML reads the key `on` as the boolean true (YAML 1.1).
    assert "workflow_call" in ci[True]  # type: ignore[operator]


def test_release_runs_on_the_version_tag_and_attaches_obsidians_files() -> None:
    release = workflow("release.yml")
    trigger = release[True]
    assert isinstance(trigger, dict)
    (pattern,) = trigger["push"]["tags"]
    # GitHub's filter: `+` repeats the class before it and `.` is a plain dot.
    as_regex = pattern.replace(".", r"\.")
    assert re.fullmatch(as_regex, VERSION)
    assert not re.fullmatch(as_regex, f"v{VERSION}")

    runs = [str(step["run"]) for step in steps(release) if "run" in step]
    assert runs[:2] == ['make release-check TAG="$GITHUB_REF_NAME"', "make wheel"]
    upload = runs[2].split()
    assert [a for a in upload if a.startswith("plugin/")] == [
        "plugin/dist/main.js",
        "plugin/dist/manifest.json",
        "plugin/dist/styles.css",
    ]
    assert {"dist/*.whl", "dist/*.tar.gz"} <= set(upload)
    jobs = release["jobs"]
    assert isinstance(jobs, dict)
    assert jobs["test"]["uses"] == "./.github/workflows/ci.yml"
    assert jobs["release"]["needs"] == "test"
