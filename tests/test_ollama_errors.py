"""Each Ollama condition → one error class and one sentence, the same for the embedder and the chat model."""

from __future__ import annotations

import httpx
import pytest
from ollama import ResponseError

from askvault.errors import ModelError, ModelMissing, ModelStreamBroken, ModelTimeout, ModelUnreachable
from askvault.ollama_errors import OllamaCall, Role, broke_off, missing, ollama_error, unreachable

URL = "http://127.0.0.1:11434"
EMBED = OllamaCall(URL, "nomic-embed-text", "embedding", "embedding 2 texts", "/api/embed", 60.0)
CHAT = OllamaCall(URL, "llama3.2:3b", "chat", "answering", "/api/chat", 120.0)
REQUEST = httpx.Request("POST", f"{URL}/api/chat")
UNREACHABLE = (
    "Ollama not reachable at http://127.0.0.1:11434 — start it with `ollama serve`, or set --ollama-url / OLLAMA_HOST"
)


@pytest.mark.parametrize(
    ("exc", "call", "kind", "message"),
    [
        (ConnectionError("refused"), EMBED, ModelUnreachable, UNREACHABLE),
        (ConnectionError("refused"), CHAT, ModelUnreachable, UNREACHABLE),
        (httpx.ConnectError("refused", request=REQUEST), CHAT, ModelUnreachable, UNREACHABLE),
        (httpx.ConnectTimeout("slow", request=REQUEST), EMBED, ModelUnreachable, UNREACHABLE),
        (
            ResponseError('model "nomic-embed-text" not found, try pulling it first', 404),
            EMBED,
            ModelMissing,
            "embedding model missing — ollama pull nomic-embed-text",
        ),
        (
            ResponseError('model "llama3.2:3b" not found, try pulling it first', 404),
            CHAT,
            ModelMissing,
            "chat model missing — ollama pull llama3.2:3b",
        ),
        (
            ResponseError("404 page not found", 404),
            EMBED,
            ModelError,
            "Ollama at http://127.0.0.1:11434 has no /api/embed (404 page not found) — update Ollama to 0.3 or newer",
        ),
        (
            ResponseError("this model does not support embeddings", 400),
            EMBED,
            ModelError,
            "'nomic-embed-text' is a chat model and cannot make embeddings — choose an embedding model such as "
            "nomic-embed-text with --embed-model / ASKVAULT_EMBED_MODEL",
        ),
        (
            ResponseError("out of memory", 500),
            CHAT,
            ModelError,
            "Ollama at http://127.0.0.1:11434 failed while answering (HTTP 500): out of memory",
        ),
        (
            ResponseError("out of memory", 500),
            EMBED,
            ModelError,
            "Ollama at http://127.0.0.1:11434 failed while embedding 2 texts (HTTP 500): out of memory",
        ),
        (
            ResponseError("model runner crashed", -1),
            CHAT,
            ModelError,
            "Ollama at http://127.0.0.1:11434 stopped with an error while answering: model runner crashed",
        ),
        (
            httpx.ReadTimeout("slow", request=REQUEST),
            EMBED,
            ModelTimeout,
            "Ollama at http://127.0.0.1:11434 did not answer within 60 s while embedding 2 texts with "
            "'nomic-embed-text' — it is overloaded or still loading the model; try again",
        ),
        (
            TimeoutError(),
            CHAT,
            ModelTimeout,
            "Ollama at http://127.0.0.1:11434 did not answer within 120 s while answering with 'llama3.2:3b' — it "
            "is overloaded or still loading the model; try again",
        ),
        (
            httpx.RemoteProtocolError("peer closed", request=REQUEST),
            CHAT,
            ModelStreamBroken,
            "The connection to Ollama at http://127.0.0.1:11434 broke off while answering (RemoteProtocolError); "
            "try again",
        ),
        (
            ConnectionResetError(),
            CHAT,
            ModelStreamBroken,
            "The connection to Ollama at http://127.0.0.1:11434 broke off while answering (ConnectionResetError); "
            "try again",
        ),
        (
            ValueError("not JSON"),
            EMBED,
            ModelError,
            "The connection to Ollama at http://127.0.0.1:11434 broke off while embedding 2 texts (ValueError); "
            "try again",
        ),
        (
            RuntimeError("odd"),
            CHAT,
            ModelError,
            "Ollama at http://127.0.0.1:11434 failed while answering: RuntimeError",
        ),
    ],
    ids=[
        "refused-embed",
        "refused-chat",
        "connect-error",
        "connect-timeout",
        "embed-model-missing",
        "chat-model-missing",
        "old-ollama",
        "chat-model-cannot-embed",
        "http-500-chat",
        "http-500-embed",
        "error-mid-stream",
        "read-timeout",
        "stall",
        "dropped-mid-answer",
        "reset-mid-answer",
        "not-a-response",
        "anything-else",
    ],
)
def test_each_condition_has_one_sentence(
    exc: Exception, call: OllamaCall, kind: type[ModelError], message: str
) -> None:
    error = ollama_error(exc, call)
    assert type(error) is kind
    assert error.message == message


def test_our_own_error_passes_through() -> None:
    own = ModelTimeout("no ranking within 0.3 s")
    assert ollama_error(own, CHAT) is own


@pytest.mark.parametrize(
    ("role", "sentence"),
    [
        ("embedding", "embedding model missing — ollama pull bge-m3"),
        ("chat", "chat model missing — ollama pull bge-m3"),
    ],
    ids=["embedding", "chat"],
)
def test_the_status_sentences_are_the_errors_sentences(role: Role, sentence: str) -> None:
    assert missing("bge-m3", role) == sentence
    assert unreachable(URL) == UNREACHABLE


def test_a_cut_stream_is_broken_for_chat_only() -> None:
    assert type(broke_off(CHAT, "the stream ended")) is ModelStreamBroken
    assert type(broke_off(EMBED, "the stream ended")) is ModelError
