"""Approximate dense search for big vaults: the HNSW settings of an embedded shard and the search parameters.

Below `GraphParams.min_points` vectors a shard stays plain and every search is exact (see docs/decisions.md,
"Embedded vector engine"). Above it, the shard gets an HNSW graph over int8-quantised copies of its vectors
held in memory, the float32 originals left on disk (memory-mapped, read back only to rescore the candidates), and
unfiltered searches walk the graph; filtered ones stay exact, since the payload index narrows their scan and
HNSW loses recall under selective filters. The values are chosen by `python -m bench.ann` (bench/README.md).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from qdrant_edge import (
    Distance,
    EdgeConfig,
    EdgeOptimizersConfig,
    EdgeVectorParams,
    FloatIndexParams,
    HnswIndexConfig,
    KeywordIndexParams,
    Memory,
    PayloadSchemaType,
    QuantizationSearchParams,
    ScalarQuantizationConfig,
    ScalarType,
    SearchParams,
)

NEVER_KB = 2**31 - 1
"""An indexing threshold no segment reaches: the serving process never builds a graph itself (`optimize` holds
the GIL for the whole build, which would freeze the sidecar for minutes); a child process does (`edge_build`)."""
NO_MERGE = 2**16
"""A segment count the merge optimizer never needs to get below: a shard built segment by segment keeps them."""


@dataclass(frozen=True, slots=True)
class GraphParams:
    min_points: int = 100_000
    """Vectors from which a shard gets a graph. Below it exact search costs ≤ 10 ms at 384-d, ≈ 20-25 ms at 768-d,
    recall is 1.0 and there is no build; at 100k × 768 a graph answers in 1-2 ms."""
    m: int = 32
    ef_construct: int = 256
    ef: int = 512
    """Candidates the graph search keeps (`hnsw_ef`; the dense leg asks for 50 hits). With m = 32 it keeps
    recall@10 ≥ 0.99 and recall@50 ≥ 0.98 on all-minilm vectors up to 100k (bench/README.md, `bench.ann`);
    m = 16 or ef = 256 fall below 0.98 from 50k."""
    quantize: bool = True
    """int8 scalar quantisation in memory, float32 originals on disk; candidates are rescored with the originals."""
    oversampling: float = 2.0
    build_threads: int = 1
    """Threads of the graph build (0: one per core): one leaves a core to the sidecar and to Ollama."""
    segment_points: int = 100_000
    """Most points one graph holds: a bigger shard gets several segments of at most this many, each with its own
    graph, built one at a time (`edge_build`), so the build's memory is bounded by a segment, not the shard. Each
    search then walks every segment's graph (more segments: more time), hence not smaller."""
    segment_ef: int = 256
    """`hnsw_ef` of each graph when a shard has several segments: the engine searches every segment for the
    whole limit and merges, so each segment only has to find its own share of the top k, and the search's cost
    grows with the segment count. At 1M all-minilm vectors in 10 segments, 256 keeps recall@10 / @50 at
    0.995 / 0.990 in 7.1 ms, 512 0.999 / 0.997 in 11.1 ms, 128 0.984 / 0.974 (bench/README.md, "Segmented
    graphs")."""

    def segments(self, points: int) -> int:
        """How many graph segments a shard of `points` points is built in."""
        return max(1, -(-points // self.segment_points))

    def search_ef(self, segments: int) -> int:
        """`hnsw_ef` for a shard whose graph is built in `segments` segments."""
        return self.ef if segments <= 1 else self.segment_ef

    def to_json(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, object]) -> GraphParams:
        known = {key: data[key] for key in cls.__dataclass_fields__ if key in data}
        return cls(**known)  # type: ignore[arg-type]  # the values were written by to_json


PayloadIndex = KeywordIndexParams | FloatIndexParams | PayloadSchemaType


def payload_index(kind: PayloadSchemaType) -> PayloadIndex:
    """A payload index of `kind`, kept on disk (memory-mapped) once its segment is immutable, as a graph
    segment is: 175 bytes a point less in memory at 200k points, filtered searches as fast with the pages
    cached (0.49 → 0.52 ms); an appendable segment keeps its index in memory either way. Kinds other than
    keyword and float are returned as they are."""
    if kind == PayloadSchemaType.Keyword:
        return KeywordIndexParams(on_disk=True)
    if kind == PayloadSchemaType.Float:
        return FloatIndexParams(on_disk=True)
    return kind


def plain_config(dim: int) -> EdgeConfig:
    """Plain segments only: `optimize` vacuums deleted points and never spends seconds building a graph."""
    return EdgeConfig(
        vectors=EdgeVectorParams(size=dim, distance=Distance.Cosine),
        optimizers=EdgeOptimizersConfig(indexing_threshold=0),
    )


def graph_config(dim: int, params: GraphParams, *, build: bool, segmented: bool = False) -> EdgeConfig:
    """The shard's settings once it has a graph. `build` (the child process) lets `optimize` index every
    segment; otherwise no segment is ever indexed in-process (`NEVER_KB`). `segmented`: a shard built segment by
    segment, whose segments are never merged."""
    quantization = None
    originals = Memory.Cached
    if params.quantize:
        quantization = ScalarQuantizationConfig(type=ScalarType.Int8, quantile=0.99, memory=Memory.Cached)
        originals = Memory.Cold
    return EdgeConfig(
        vectors=EdgeVectorParams(size=dim, distance=Distance.Cosine, memory=originals),
        hnsw_config=HnswIndexConfig(
            m=params.m,
            ef_construct=params.ef_construct,
            full_scan_threshold=10_000,
            max_indexing_threads=params.build_threads,
        ),
        quantization_config=quantization,
        optimizers=EdgeOptimizersConfig(
            indexing_threshold=1 if build else NEVER_KB, default_segment_number=NO_MERGE if segmented else None
        ),
    )


def search_params(params: GraphParams | None, *, filtered: bool, segments: int = 1) -> SearchParams:
    """Exact without a graph or under a filter (over the original vectors, never their int8 copies); otherwise
    the graph (of `segments` segments), its candidates rescored with the originals."""
    if params is None:
        return SearchParams(exact=True)
    if filtered:
        return SearchParams(exact=True, quantization=QuantizationSearchParams(ignore=True) if params.quantize else None)
    quantization = None
    if params.quantize:
        quantization = QuantizationSearchParams(rescore=True, oversampling=params.oversampling)
    return SearchParams(hnsw_ef=params.search_ef(segments), quantization=quantization)
