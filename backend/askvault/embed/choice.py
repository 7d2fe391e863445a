"""Which embedder a command uses: the configured one, else the one the index remembers, else the built-in one."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Literal, cast

from askvault.embed.prefixes import base_name

Backend = Literal["builtin", "ollama"]
BUILTIN_NAMES = frozenset({"builtin", "built-in", "builtin:all-minilm-l6-v2", "all-minilm-l6-v2"})
"""What `embed_model` may say to choose the built-in embedder (any case)."""
BUILTIN_MODEL = "all-MiniLM-L6-v2"
Source = Literal["configured", "index", "default"]


@dataclass(frozen=True, slots=True)
class EmbedderSpec:
    """Which embedder: the built-in one, or an Ollama model by name."""

    backend: Backend
    model: str

    @property
    def label(self) -> str:
        """How the plugin, the CLI and /api/status name it."""
        return f"built-in {self.model}" if self.backend == "builtin" else f"Ollama: {self.model}"

    def same_as(self, other: EmbedderSpec) -> bool:
        """Ollama treats `x` and `x:latest` as one model; names compare without case."""

        def norm(spec: EmbedderSpec) -> tuple[str, str]:
            name = spec.model.lower()
            return spec.backend, name if ":" in name or spec.backend == "builtin" else f"{name}:latest"

        return norm(self) == norm(other)


BUILTIN = EmbedderSpec("builtin", BUILTIN_MODEL)


@dataclass(frozen=True, slots=True)
class EmbedderRecord:
    """What the index remembers of the embedder whose vectors are complete in it."""

    backend: str
    model: str
    dimension: int
    document_prefix: str
    query_prefix: str
    fingerprint: str

    @property
    def spec(self) -> EmbedderSpec:
        return EmbedderSpec(cast(Backend, self.backend), self.model)

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, raw: str | None) -> EmbedderRecord | None:
        """None for no record or one this version cannot read (then the configured or default embedder rules)."""
        if not raw:
            return None
        try:
            data = json.loads(raw)
            backend = data["backend"]
            if backend not in ("builtin", "ollama"):
                return None
            return cls(
                backend=backend,
                model=str(data["model"]),
                dimension=int(data["dimension"]),
                document_prefix=str(data.get("document_prefix", "")),
                query_prefix=str(data.get("query_prefix", "")),
                fingerprint=str(data.get("fingerprint", "")),
            )
        except (ValueError, KeyError, TypeError):
            return None


def spec_from_setting(setting: str) -> EmbedderSpec:
    """`builtin` (and its spellings) is the built-in embedder; any other name an Ollama model."""
    name = setting.strip()
    return BUILTIN if name.lower() in BUILTIN_NAMES else EmbedderSpec("ollama", name)


@dataclass(frozen=True, slots=True)
class EmbedderChoice:
    spec: EmbedderSpec
    source: Source
    """configured (flag, environment or config file), index (what built it), default (nothing either way)."""
    replaces: EmbedderRecord | None = None
    """The embedder the index was built with, when the configured one differs: its vectors are rebuilt."""

    def describe(self) -> str:
        """One sentence for the CLI and the log."""
        if self.replaces is not None:
            return (
                f"The index was built with {self.replaces.spec.label}; its vectors are rebuilt with "
                f"{self.spec.label}, and keyword search covers what is not embedded yet"
            )
        if self.source == "index":
            return f"Embedder: {self.spec.label} (the one this index was built with)"
        if self.source == "default":
            return f"Embedder: {self.spec.label} (built in; set embed_model to use an Ollama model)"
        return f"Embedder: {self.spec.label}"


def choose_embedder(setting: str | None, recorded: EmbedderRecord | None) -> EmbedderChoice:
    """The configured embedder wins; with none configured, the index's own; with neither, the built-in one."""
    if setting is not None and setting.strip():
        spec = spec_from_setting(setting)
        replaces = recorded if recorded is not None and not recorded.spec.same_as(spec) else None
        return EmbedderChoice(spec, "configured", replaces)
    if recorded is not None:
        return EmbedderChoice(recorded.spec, "index")
    return EmbedderChoice(BUILTIN, "default")


def calibration_name(spec: EmbedderSpec) -> str:
    """The model name relevance calibrations are keyed by: the built-in all-MiniLM is `all-minilm`'s weights."""
    return "all-minilm" if spec.backend == "builtin" else base_name(spec.model)
