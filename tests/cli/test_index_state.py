"""What search, ask and related say when the running sidecar holds no note yet."""

from __future__ import annotations

from pathlib import Path

import pytest

from askvault.cli.index_state import require_indexed_there
from askvault.cli.remote import Sidecar
from askvault.config import load_config
from askvault.errors import NotIndexed


def sidecar(notes: int | None, state: str = "idle", done: int = 0, total: int = 0) -> Sidecar:
    status: dict[str, object] = {"index": {"state": state, "done": done, "total": total}}
    if notes is not None:
        status["vault"] = {"name": "v", "notes": notes, "chunks": 0}
    return Sidecar("127.0.0.1", 1, 4242, "token", status)


@pytest.mark.parametrize(
    ("car", "expected"),
    [
        (sidecar(3), None),
        (sidecar(None), None),  # an older sidecar without the count: let it answer
        (sidecar(0, "indexing", 12, 161), "is still indexing {root} for the first time (12 of 161 notes); run this"),
        (sidecar(0, "indexing"), "is still indexing {root} for the first time; run this again when it is done"),
        (sidecar(0), "found no notes (.md files) in {root}; is --vault the right folder?"),
    ],
)
def test_require_indexed_there(tmp_path: Path, car: Sidecar, expected: str | None) -> None:
    (tmp_path / "vault").mkdir()
    config = load_config({"vault": str(tmp_path / "vault"), "data_dir": str(tmp_path / "data")}, {})
    if expected is None:
        require_indexed_there(car, config)
        return
    with pytest.raises(NotIndexed) as caught:
        require_indexed_there(car, config)
    assert expected.format(root=config.vault.root) in caught.value.message
    assert caught.value.message.startswith("the running sidecar (pid 4242)")
