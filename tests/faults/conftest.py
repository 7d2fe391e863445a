"""Fixtures for the fault tests: engines on real temp vaults, with their index under the test's temp folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from askvault.config import Config
from reliability.engine_runs import make_config


@pytest.fixture
def config_for(tmp_path: Path) -> Callable[[Path, str], Config]:
    """The configuration of a vault with its index under this test's temp folder."""

    def build(vault: Path, ollama_url: str) -> Config:
        return make_config(vault, tmp_path / "data", ollama_url)

    return build
