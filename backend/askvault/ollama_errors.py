"""Ollama's failures → the error hierarchy, one sentence per condition, each saying what to do about it.

The embedder, the chat model, the model monitor and the indexer's dense-search status all word a condition
the same way, so the user sees one sentence for "Ollama is not running" wherever it surfaces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

import httpx
from ollama import ResponseError

from askvault.errors import ModelError, ModelMissing, ModelStreamBroken, ModelTimeout, ModelUnreachable

Role = Literal["embedding", "chat"]


def unreachable(url: str) -> str:
    return f"Ollama not reachable at {url} — start it with `ollama serve`, or set --ollama-url / OLLAMA_HOST"


def missing(model: str, role: Role) -> str:
    return f"{role} model missing — ollama pull {model}"


def model_missing(model: str, role: Role) -> ModelMissing:
    return ModelMissing(model, missing(model, role))


@dataclass(frozen=True, slots=True)
class OllamaCall:
    """What was asked of Ollama, for the sentence that says how it failed."""

    url: str
    model: str
    role: Role
    doing: str
    """What the call was doing, after "while": "embedding 64 texts", "answering"."""
    endpoint: str
    read_timeout_s: float


def broke_off(call: OllamaCall, detail: str) -> ModelError:
    sentence = f"The connection to Ollama at {call.url} broke off while {call.doing} ({detail}); try again"
    # A chat reply that breaks off may have been half streamed already: that has its own code.
    return ModelStreamBroken(sentence) if call.role == "chat" else ModelError(sentence)


def ollama_error(exc: BaseException, call: OllamaCall) -> ModelError:
    """The `ollama` client's (or httpx's) exception as one of our errors."""
    if isinstance(exc, ModelError):
        return exc
    if isinstance(exc, ResponseError):
        return _response_error(exc, call)
    # The client turns a refused connection (or a DNS failure) into a bare ConnectionError; its subclasses
    # (ConnectionResetError …) mean an established connection broke.
    if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout) or type(exc) is ConnectionError:
        return ModelUnreachable(unreachable(call.url))
    if isinstance(exc, TimeoutError | httpx.TimeoutException):
        return ModelTimeout(
            f"Ollama at {call.url} did not answer within {call.read_timeout_s:g} s while {call.doing} with "
            f"{call.model!r} — it is overloaded or still loading the model; try again"
        )
    if isinstance(exc, httpx.TransportError | OSError | ValueError):
        # Connection dropped mid-body, or a body that is not JSON / not the response expected (pydantic's error).
        return broke_off(call, type(exc).__name__)
    return ModelError(f"Ollama at {call.url} failed while {call.doing}: {type(exc).__name__}")


def _response_error(exc: ResponseError, call: OllamaCall) -> ModelError:
    text = str(exc.error)
    lowered = text.lower()
    if exc.status_code == 404 and "not found" in lowered and ("model" in lowered or _named(call.model, lowered)):
        return model_missing(call.model, call.role)
    if exc.status_code == 404:
        return ModelError(f"Ollama at {call.url} has no {call.endpoint} ({text}) — {_no_endpoint_fix(call.url)}")
    if call.role == "embedding" and "not support" in lowered and "embed" in lowered:
        return ModelError(
            f"{call.model!r} is a chat model and cannot make embeddings — choose an embedding model such as "
            "nomic-embed-text with --embed-model / ASKVAULT_EMBED_MODEL"
        )
    if exc.status_code == -1:
        # An error line inside a stream that had started (Ollama's status was 200).
        return ModelError(f"Ollama at {call.url} stopped with an error while {call.doing}: {text}")
    return ModelError(f"Ollama at {call.url} failed while {call.doing} (HTTP {exc.status_code}): {text}")


def _no_endpoint_fix(url: str) -> str:
    """A URL with a path (`…/api`, a proxy's prefix) 404s on every endpoint, which an old Ollama does too."""
    parts = urlsplit(url)
    if parts.path.strip("/"):
        server = f"{parts.scheme}://{parts.netloc}"
        return (
            f"the URL should be Ollama's server address without the path {parts.path!r} (e.g. {server}); "
            "if that path is a proxy's, check it forwards /api/"
        )
    return "update Ollama to 0.3 or newer"


def _named(model: str, lowered: str) -> bool:
    return model.split(":")[0].lower() in lowered
