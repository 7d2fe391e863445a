"""The sidecar that holds a vault's index, found through its discovery file and asked over its HTTP API.

While `askvault serve` (or the plugin's sidecar) runs, it holds the vault's writer lock, so a command cannot open
the index itself; it asks the sidecar instead, with the vault's token, and prints what it answers. The client is
the standard library's `http.client`: it imports in milliseconds where aiohttp's client takes a quarter of a
second, and a command makes one request at a time.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar, TypeVar

import click
from click.core import ParameterSource

from askvault.api.discovery import find_compatible
from askvault.api.token import load_or_create_token
from askvault.config import Config
from askvault.errors import AskVaultError, ConfigError, IndexLocked

log = logging.getLogger("askvault.cli")

T = TypeVar("T")
Json = dict[str, object]

CONNECT_TIMEOUT_S = 5.0
READ_TIMEOUT_S = 600.0
"""An answer from a slow local model, or a reindex event stream between heartbeats (15 s), stays well inside."""

FIXED_SETTINGS = (
    "sources",
    "ollama_url",
    "qdrant_url",
    "exclude",
    "include",
    "exclude_headings",
    "redact_seed_phrases",
    "pdfs",
    "canvases",
    "pdf_max_pages",
    "pdf_max_seconds",
    "pdf_max_memory_mb",
    "max_pdf_mb",
    "rerank",
    "rerank_model",
    "rerank_candidates",
    "rerank_excerpt_chars",
    "rerank_timeout_s",
    "query_dates",
)
"""Settings a running sidecar keeps for its whole life: a request cannot change them."""


class SidecarUnavailable(AskVaultError):
    """The sidecar stopped answering, or answered something that is not its API."""

    code: ClassVar[str] = "sidecar_unavailable"
    http_status: ClassVar[int] = 503


class NoAnswer(SidecarUnavailable):
    """Nothing answered at the address the discovery file gives (connection refused, reset or timed out)."""


@dataclass(frozen=True, slots=True)
class Sidecar:
    """A running sidecar for this vault: where it listens, its pid, and the vault's bearer token."""

    host: str
    port: int
    pid: int
    token: str
    status: Json
    """Its `GET /api/status` body, read when it was found (which embedder, which chat model, the index)."""

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def get_json(self, route: str) -> Json:
        with self._open("GET", route, None) as response:
            return _json_object(_read(response, self.pid))

    def post_json(self, route: str, body: Mapping[str, object]) -> tuple[int, Json]:
        """The status and the JSON body of a successful answer (2xx); an error answer raises its error."""
        with self._open("POST", route, body) as response:
            return response.status, _json_object(_read(response, self.pid))

    @contextlib.contextmanager
    def stream(self, method: str, route: str, body: Mapping[str, object] | None = None) -> Iterator[Iterator[Json]]:
        """The NDJSON lines of a streaming route, one JSON object each, as they arrive."""
        with self._open(method, route, body) as response:
            yield _lines(response, self.pid)

    @contextlib.contextmanager
    def _open(self, method: str, route: str, body: Mapping[str, object] | None) -> Iterator[http.client.HTTPResponse]:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=CONNECT_TIMEOUT_S)
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json, application/x-ndjson"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        try:
            try:
                connection.connect()
                if connection.sock is not None:
                    connection.sock.settimeout(READ_TIMEOUT_S)
                connection.request(method, route, body=payload, headers=headers)
                response = connection.getresponse()
            except (OSError, http.client.HTTPException) as exc:
                log.info("the sidecar at %s did not answer: %s", self.url, exc)
                raise NoAnswer(
                    f"the Ask Vault sidecar (pid {self.pid}) stopped answering at {self.url}; try again, or stop it"
                ) from None
            if response.status >= 400:
                raise error_from(response.status, _read(response, self.pid))
            yield response
        finally:
            connection.close()


def _read(response: http.client.HTTPResponse, pid: int, line: bool = False) -> bytes:
    try:
        return response.readline() if line else response.read()
    except (OSError, http.client.HTTPException):
        raise SidecarUnavailable(f"the connection to the Ask Vault sidecar (pid {pid}) broke off; try again") from None


def _lines(response: http.client.HTTPResponse, pid: int) -> Iterator[Json]:
    while True:
        raw = _read(response, pid, line=True)
        if not raw:
            return
        if raw.strip():
            yield _json_object(raw)


def _json_object(raw: bytes) -> Json:
    try:
        value = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        value = None
    if not isinstance(value, dict):
        raise SidecarUnavailable("the sidecar answered something that is not its JSON API; restart it")
    return value


def _error_classes(base: type[AskVaultError]) -> Iterator[type[AskVaultError]]:
    for child in base.__subclasses__():
        yield child
        yield from _error_classes(child)


def error_from(status: int, raw: bytes) -> AskVaultError:
    """The sidecar's `{"error": {"code", "message"}}` as the error of that code, so the command prints the same
    sentence and exits with the same code as when it opens the index itself."""
    if status == 401:
        return SidecarUnavailable(
            "the running sidecar did not accept this vault's token (the token file changed after it started); "
            "restart the sidecar"
        )
    try:
        body = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict) or not isinstance(error.get("message"), str):
        return SidecarUnavailable(f"the sidecar answered HTTP {status} without its error body; restart it")
    code, message = error.get("code"), str(error["message"])
    for kind in _error_classes(AskVaultError):
        if kind.code == code:
            # Built through the base initialiser: some kinds take more than the sentence (ModelMissing's model).
            found = kind.__new__(kind)
            AskVaultError.__init__(found, message)
            return found
    return AskVaultError(message)


def find_sidecar(config: Config) -> Sidecar | None:
    """The sidecar serving this vault, when one runs and answers with this vault's token; None otherwise."""
    found = find_compatible(config.store.data_dir)
    if found is None:
        return None
    host = found.host
    token = load_or_create_token(config.store.data_dir, config.vault.root)
    sidecar = Sidecar(host=host, port=found.port, pid=found.pid, token=token, status={})
    try:
        status = sidecar.get_json("/api/status")
    except NoAnswer:
        return None  # a stale file whose pid now belongs to another process, or a sidecar shutting down
    log.info("asking the running sidecar (pid %s) at %s", found.pid, sidecar.url)
    return Sidecar(host=host, port=found.port, pid=found.pid, token=token, status=status)


def _model_name(name: str) -> str:
    return name.strip().lower().removesuffix(":latest")


def check_settings(sidecar: Sidecar, config: Config) -> None:
    """Refuses, in one sentence, a setting given on the command line that the running sidecar would not apply
    (its results would silently differ from what was asked for)."""
    context = click.get_current_context(silent=True)
    if context is None:
        return
    given = {
        param.name: (param.opts[0] if param.opts else param.name)
        for param in context.command.params
        if param.name and context.get_parameter_source(param.name) == ParameterSource.COMMANDLINE
    }
    if "embed_model" in given and not _same_embedder(sidecar.status, config.ollama.embed_model):
        raise ConfigError(
            f"--embed-model {config.ollama.embed_model} differs from the running sidecar's embedder "
            f"({_embedder_label(sidecar.status)}, pid {sidecar.pid}); leave it out, or stop the sidecar to use it"
        )
    if "chat_model" in given and not _same_chat_model(sidecar.status, config.ollama.chat_model):
        raise ConfigError(
            f"--chat-model {config.ollama.chat_model} differs from the running sidecar's chat model "
            f"(pid {sidecar.pid}); leave it out, or stop the sidecar to use it"
        )
    fixed = [flag for name, flag in given.items() if name in FIXED_SETTINGS]
    if fixed:
        raise ConfigError(
            f"{', '.join(fixed)} cannot be applied by the running sidecar (pid {sidecar.pid}), which keeps the "
            "settings it started with; leave them out, or stop the sidecar to run with them"
        )


def _map(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _embedder_label(status: Mapping[str, object]) -> str:
    return str(_map(status.get("embedder")).get("label") or "its own")


def _same_embedder(status: Mapping[str, object], wanted: str | None) -> bool:
    embedder = _map(status.get("embedder"))
    if not wanted:
        return True
    if _model_name(wanted) == "builtin":
        return embedder.get("backend") == "builtin"
    return embedder.get("backend") == "ollama" and _model_name(str(embedder.get("model", ""))) == _model_name(wanted)


def _same_chat_model(status: Mapping[str, object], wanted: str) -> bool:
    chat = _map(_map(status.get("models")).get("chat"))
    return _model_name(str(chat.get("name", ""))) == _model_name(wanted)


def here_or_there(config: Config, here: Callable[[], T], there: Callable[[Sidecar], T]) -> T:
    """Runs `there` through the running sidecar when one holds the vault, else `here` on the index itself.

    A sidecar that is still opening the index holds the lock before it writes its discovery file: after a refusal
    here it is looked for once more. When none answers (another `askvault index`), the refusal stands.
    """
    sidecar = find_sidecar(config)
    if sidecar is None:
        try:
            return here()
        except IndexLocked:
            sidecar = find_sidecar(config)
            if sidecar is None:
                raise IndexLocked(_locked(config)) from None
    check_settings(sidecar, config)
    return there(sidecar)


def _locked(config: Config) -> str:
    """The refusal when the index is locked and no sidecar answers: most likely an `askvault index` run."""
    from askvault.index.lock import OWNER_NAME  # filelock: only on this path

    try:
        owner = (config.store.data_dir / OWNER_NAME).read_text(encoding="utf-8").strip()
    except OSError:
        owner = ""
    return (
        f"another Ask Vault process{f' (pid {owner})' if owner else ''} is writing this vault's index and no "
        "sidecar answers for it; wait until it finishes (an `askvault index` run?) or stop it, then run this again"
    )


def keyword_only_notice(sidecar: Sidecar) -> None:
    """The sentence a read command prints on stderr when dense search is off, as it does on its own index."""
    embedder = _map(sidecar.status.get("embedder"))
    if embedder.get("problem"):
        label, problem = embedder.get("label"), embedder.get("problem")
        click.echo(f"Keyword search only: {label} is unavailable — {problem}.", err=True)
