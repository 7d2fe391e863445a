"""The golden bodies' one home (tests/fixtures/api/, read by the plugin's tests too) and the check against it."""

from __future__ import annotations

import json
import os
from pathlib import Path

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "api"
UPDATE = os.environ.get("ASKVAULT_UPDATE_GOLDEN") == "1"


def check_golden(name: str, produced: str) -> None:
    """Fails when `produced` differs from the committed file by one byte; with ASKVAULT_UPDATE_GOLDEN=1 writes it."""
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(produced, encoding="utf-8", newline="\n")
        return
    assert path.exists(), f"{path.name} is missing: run with ASKVAULT_UPDATE_GOLDEN=1"
    committed = path.read_text(encoding="utf-8")
    assert produced == committed, f"{name} differs from the committed golden body (ASKVAULT_UPDATE_GOLDEN=1 updates)"


def pretty(body: object) -> str:
    """A JSON body re-indented for reading (the wire form is compact)."""
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"
