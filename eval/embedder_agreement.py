"""How closely the built-in embedder agrees with all-minilm served over Ollama's API, text by text.

Usage: `.venv/bin/python eval/embedder_agreement.py --ollama-url http://127.0.0.1:11435 [--vault eval/sample-vault]
[--questions eval/questions.jsonl …] [--model all-minilm] [--json agreement.json]`

Indexes the vault with the built-in embedder (the default: no embedding model configured; a temporary data folder,
no config file), reads back the exact `index_text` of every chunk from the manifest (what indexing embeds), and
embeds each once more with the built-in embedder and once with `OllamaEmbedder` (`--model`, default `all-minilm`,
at `--ollama-url`) as documents. `--questions` adds the questions of those files, embedded as queries. Prints,
per kind of text, the cosine of each pair of vectors: minimum, mean, median and the share at or above 0.99, and
the texts that agree least with their length in characters. Both sides should run the same int8 ONNX weights and
tokenizer, truncated at 256 word pieces, so every cosine should be close to 1 (eval/README.md, "The built-in
embedder").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tokenizers import Tokenizer

from askvault.config import OllamaConfig, load_config
from askvault.embed.builtin import BuiltinEmbedder
from askvault.embed.builtin_files import ASSETS
from askvault.embed.ollama import OllamaEmbedder
from askvault.wiring import open_engine

THRESHOLD = 0.99
MAX_PIECES = 256
"""all-MiniLM-L6-v2's truncation: a text longer than this in word pieces is embedded from its first 256 only."""


@dataclass(frozen=True, slots=True)
class Pair:
    """One text embedded both ways."""

    label: str
    text: str
    cosine: float
    pieces: int
    """Word pieces of the text with [CLS] and [SEP], untruncated."""


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    dot = math.fsum(x * y for x, y in zip(a, b, strict=True))
    norm = math.sqrt(math.fsum(x * x for x in a)) * math.sqrt(math.fsum(y * y for y in b))
    return dot / norm if norm else 0.0


async def chunk_texts(vault: Path, data_root: Path) -> list[tuple[str, str]]:
    """(label, index_text) of every chunk after an index run with the built-in (default) embedder."""
    config = load_config({"vault": vault, "data_dir": data_root}, {})
    async with open_engine(config, sync_vectors=False) as engine:
        report = await engine.indexer.run()
        if report.dense != "ready":
            raise SystemExit(f"embedder_agreement: the built-in embedder is not ready: {report.dense_problem}")
        return [
            (f"{chunk.path}:{chunk.start_line}-{chunk.end_line}", chunk.index_text)
            for chunk in engine.manifest.iter_chunks()
        ]


def questions_of(files: Sequence[Path]) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for path in files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                record = json.loads(line)
                pairs.append((str(record["id"]), str(record["question"])))
    return pairs


async def compare(
    chunks: list[tuple[str, str]], queries: list[tuple[str, str]], models_dir: Path, url: str, model: str
) -> dict[str, list[Pair]]:
    builtin = BuiltinEmbedder(models_dir)
    ollama = OllamaEmbedder(OllamaConfig(url=url, embed_model=model, read_timeout_s=600.0))
    try:
        if ollama.prefixes.document or ollama.prefixes.query:
            raise SystemExit(f"embedder_agreement: {model} takes prefixes; the built-in embedder does not")
        texts = [text for _, text in chunks]
        ours, theirs = await builtin.embed_documents(texts), await ollama.embed_documents(texts)
        result = {
            "chunks": [
                Pair(label, text, cosine(a, b), pieces(text))
                for (label, text), a, b in zip(chunks, ours, theirs, strict=True)
            ]
        }
        if queries:
            pairs: list[Pair] = []
            for label, text in queries:
                similarity = cosine(await builtin.embed_query(text), await ollama.embed_query(text))
                pairs.append(Pair(label, text, similarity, pieces(text)))
            result["queries"] = pairs
        return result
    finally:
        await builtin.aclose()
        await ollama.aclose()


_TOKENIZER: list[Tokenizer] = []


def pieces(text: str) -> int:
    """The text's length in word pieces, by the built-in embedder's own tokenizer file, without truncation."""
    if not _TOKENIZER:
        tokenizer = Tokenizer.from_file(str(ASSETS / "all-minilm-l6-v2" / "tokenizer.json"))
        tokenizer.no_truncation()
        tokenizer.no_padding()
        _TOKENIZER.append(tokenizer)
    return len(_TOKENIZER[0].encode(text).ids)


def summary(pairs: list[Pair]) -> dict[str, float | int | None]:
    values = [pair.cosine for pair in pairs]
    long = [pair.cosine for pair in pairs if pair.pieces > MAX_PIECES]
    return {
        "texts": len(values),
        "min": min(values),
        "mean": statistics.fmean(values),
        "median": statistics.median(values),
        f"share_at_least_{THRESHOLD}": round(sum(v >= THRESHOLD for v in values) / len(values), 4),
        "below": sum(v < THRESHOLD for v in values),
        f"over_{MAX_PIECES}_pieces": len(long),
        f"min_over_{MAX_PIECES}_pieces": min(long) if long else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ollama-url", required=True, help="An Ollama (or Ollama-compatible) server with --model.")
    parser.add_argument("--vault", type=Path, default=Path(__file__).parent / "sample-vault")
    parser.add_argument("--model", default="all-minilm", help="The Ollama model to compare with (default all-minilm).")
    parser.add_argument("--questions", type=Path, nargs="*", default=[], help="Question files whose questions to add.")
    parser.add_argument("--lowest", type=int, default=5, help="How many least-agreeing texts to list.")
    parser.add_argument("--json", type=Path, default=None, help="Also write the summary and every cosine here.")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="askvault-agreement-") as tmp:
        root = Path(tmp)
        chunks = asyncio.run(chunk_texts(args.vault.resolve(), root))
        queries = questions_of(args.questions)
        results = asyncio.run(compare(chunks, queries, root / "models", args.ollama_url, args.model))
    report: dict[str, object] = {"vault": str(args.vault), "model": args.model, "ollama_url": args.ollama_url}
    for kind, pairs in results.items():
        figures = summary(pairs)
        report[kind] = {**figures, "cosines": {p.label: p.cosine for p in pairs}}
        values = [p.cosine for p in pairs]
        n, below = len(values), sum(v < THRESHOLD for v in values)
        long = [p for p in pairs if p.pieces > MAX_PIECES]
        print(
            f"{kind}: {n} texts, cosine min {min(values):.6f} (1 − min = {1 - min(values):.1e}), "
            f"mean {statistics.fmean(values):.6f}, "
            f"median {statistics.median(values):.6f}, ≥ {THRESHOLD}: {(n - below) / n:.1%} ({n - below} of {n}); "
            f"{len(long)} over {MAX_PIECES} word pieces"
            + (f" (truncated; their min cosine {min(p.cosine for p in long):.6f})" if long else "")
        )
        for pair in sorted(pairs, key=lambda p: p.cosine)[: args.lowest]:
            print(f"  {pair.cosine:.6f}  {len(pair.text):>5} chars  {pair.pieces:>4} pieces  {pair.label}")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
