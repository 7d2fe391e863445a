"""A search's hit texts: read ahead in one batch, never twice, and a chunk without a row left out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from askvault.model import ChunkInfo, ChunkText
from askvault.retrieve.hit_texts import HitTexts
from askvault.store.manifest.catalog import ChunkCatalog

INFOS = {f"c{n}": ChunkInfo(f"c{n}", f"n{n}.md", f"n{n}", (), 1, 2) for n in range(6)}
ROWS = {cid: ChunkText(f"text {cid}", f"index {cid}") for cid in INFOS if cid != "c3"}  # c3: removed meanwhile


def test_texts_are_read_ahead_in_one_batch_and_never_twice() -> None:
    reads: list[list[str]] = []

    def texts(ids: Sequence[str]) -> Mapping[str, ChunkText]:
        reads.append(list(ids))
        return {cid: ROWS[cid] for cid in ids if cid in ROWS}

    hits = HitTexts(ChunkCatalog(texts), INFOS)
    first = hits.get("c0", ["c0", "c1", "c3", "gone"])
    assert first is not None
    assert (first.text, first.index_text, first.path) == ("text c0", "index c0", "n0.md")
    assert reads == [["c0", "c1", "c3"]]  # one read; an id the snapshot does not hold is not asked for
    assert hits.get("c1", ["c1", "c2"]) is not None
    assert hits.get("c3", ["c3", "c4"]) is None  # tried already: no row, not asked again
    assert reads == [["c0", "c1", "c3"]]
    hits.read(["c4", "c5", "c0"])
    assert reads[-1] == ["c4", "c5"]
    assert sorted(hits.full) == ["c0", "c1", "c4", "c5"]
