"""docker-compose.yml: valid for the docker client when it can check it, and safe by construction."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"


def _compose_available() -> bool:
    docker = shutil.which("docker")
    if docker is None:
        return False
    probe = subprocess.run([docker, "compose", "version"], capture_output=True, check=False)
    return probe.returncode == 0


@pytest.mark.skipif(not _compose_available(), reason="the docker client with its compose plugin is not installed")
def test_docker_compose_config_is_valid(tmp_path: Path) -> None:
    env = {**os.environ, "ASKVAULT_VAULT": str(tmp_path)}
    result = subprocess.run(
        ["docker", "compose", "-f", str(COMPOSE), "config", "-q"], capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 0, result.stderr


def _services() -> dict[str, Any]:
    data = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    services = data["services"]
    assert isinstance(services, dict)
    return services


def test_every_published_port_is_loopback_only() -> None:
    for name, service in _services().items():
        for port in service.get("ports", []):
            assert str(port).startswith("127.0.0.1:"), f"{name} publishes {port} beyond loopback"


def test_images_are_pinned_and_volumes_named() -> None:
    services = _services()
    for name, service in services.items():
        image = service.get("image")
        if image is not None:
            assert ":" in image, f"{name} image {image} has no tag"
            assert not image.endswith(":latest"), f"{name} image {image} is not pinned"
    assert "qdrant-data:/qdrant/storage" in services["qdrant"]["volumes"]
    assert any(str(v).startswith("ollama-models:") for v in services["ollama"]["volumes"])


def test_sidecar_reads_the_vault_read_only_and_points_at_the_services() -> None:
    sidecar = _services()["sidecar"]
    assert any(str(v).endswith(":/vault:ro") for v in sidecar["volumes"])
    env = sidecar["environment"]
    assert env["QDRANT_URL"] == "http://qdrant:6333"
    assert env["OLLAMA_HOST"] == "http://ollama:11434"


def test_sidecar_image_runs_as_non_root() -> None:
    dockerfile = (ROOT / "backend" / "Dockerfile").read_text(encoding="utf-8")
    users = [line.split()[1] for line in dockerfile.splitlines() if line.startswith("USER ")]
    assert users
    assert users[-1] not in ("root", "0")


def test_sidecar_command_passes_the_bind_check(tmp_path: Path) -> None:
    """The container listens on its own interface; the command must say so, or serve refuses the address."""
    from askvault.api.server import check_bind_host
    from askvault.cli.serve_cmd import serve
    from askvault.config import load_config

    sidecar = _services()["sidecar"]
    args = list(sidecar["command"])
    assert args[0] == "serve"
    context = serve.make_context("serve", args[1:])
    flags = {key: value for key, value in context.params.items() if value not in (None, ())}
    (tmp_path / "vault").mkdir()
    flags["vault"] = str(tmp_path / "vault")
    environ = {key: str(value) for key, value in sidecar["environment"].items() if key.startswith("ASKVAULT_HOST")}
    config = load_config({**flags, "data_dir": str(tmp_path / "data")}, environ)
    assert config.server.host == "0.0.0.0"
    check_bind_host(config.server)
