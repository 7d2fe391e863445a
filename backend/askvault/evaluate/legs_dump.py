"""Each question's two legs before fusion, as JSONL: the data for studying fusion offline, without re-embedding.

`askvault eval --dump-legs FILE` writes one record per question: the dense and keyword candidate lists with their
scores, the product's fused order, the query's analysed terms with their document frequencies, and every listed
chunk's place in its note, texts and evidence flag (judged on the note's original lines, as the report judges a
hit). A fusion rule can then be tried on every set in seconds, and only a rule that wins there is worth building.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from datetime import datetime
from datetime import time as clock_time

from askvault.evaluate.metrics import JsonValue, evidence_hit_at_k
from askvault.evaluate.questions import Question
from askvault.evaluate.runner import NoteLines
from askvault.model import Chunk, RankedId, TermStat
from askvault.query.dates import reference_now
from askvault.retrieve.protocol import Searcher
from askvault.retrieve.trace import SearchTrace
from askvault.store.manifest.catalog import ChunkCatalog

FUSED_KEPT = 50
"""How much of the fused order a record keeps: as deep as the legs' default lists."""


def _ranked(entries: Sequence[RankedId]) -> list[JsonValue]:
    return [[entry.chunk_id, entry.score] for entry in entries]


def _chunk(chunk: Chunk, question: Question, lines: NoteLines) -> dict[str, JsonValue]:
    original = lines.text(chunk.path, chunk.start_line, chunk.end_line)
    return {
        "path": chunk.path,
        "heading_path": list(chunk.heading_path),
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "text": chunk.text,
        "index_text": chunk.index_text,
        "expected_note": chunk.path in question.expected_paths,
        "has_evidence": question.answerable and evidence_hit_at_k([original], question.evidence, 1),
    }


def legs_record(
    question: Question, trace: SearchTrace, terms: Sequence[TermStat], lines: NoteLines, catalog: ChunkCatalog
) -> dict[str, JsonValue]:
    """One question's record from the trace of its hybrid search; the listed chunks' texts come from `catalog`
    in one read (the trace's snapshot holds none)."""
    fused: list[JsonValue] = [hit.chunk.id for hit in trace.fused[:FUSED_KEPT]]
    ids = [*(e.chunk_id for e in trace.dense), *(e.chunk_id for e in trace.keyword)]
    listed = dict.fromkeys([*ids, *(hit.chunk.id for hit in trace.fused[:FUSED_KEPT])])
    infos = [info for cid in listed if (info := trace.chunks.get(cid)) is not None]
    chunks: Mapping[str, Chunk] = catalog.with_text(infos)
    return {
        "id": question.id,
        "type": question.type,
        "question": question.question,
        "answerable": question.answerable,
        "terms": [[term.term, term.df] for term in terms],
        "dense": _ranked(trace.dense),
        "keyword": _ranked(trace.keyword),
        "fused": fused,
        # A candidate whose chunk left the index between the legs and this read has no entry; readers skip it.
        "chunks": {cid: _chunk(chunks[cid], question, lines) for cid in listed if cid in chunks},
    }


async def dump_question(
    searcher: Searcher, catalog: ChunkCatalog, question: Question, lines: NoteLines
) -> dict[str, JsonValue]:
    """Searches once in hybrid mode with a trace, asked on the question's day as the evaluation asks it."""
    pinned = reference_now(datetime.combine(question.now, clock_time(12))) if question.now else nullcontext()
    trace = SearchTrace()
    with pinned:
        result = await searcher.search(question.question, FUSED_KEPT, "hybrid", trace=trace)
    return legs_record(question, trace, result.terms, lines, catalog)
