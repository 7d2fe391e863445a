"""The one error hierarchy; every error maps to `{"error": {"code", "message"}}` with its HTTP status.

AskVaultError                      500 internal
├── ConfigError                    400 bad_config        a flag, variable or config file value is wrong
│   └── DataDirUnusable            400 data_dir_unusable the data folder cannot be created or written
├── BadRequest                     400 bad_request       a request body or argument is invalid
│   └── UnsupportedMediaType       415 unsupported_media_type
├── Unauthorized                   401 unauthorized
├── Forbidden                      403 forbidden         foreign Origin or Host
├── NotFound                       404 not_found
│   └── NotIndexed                 404 not_indexed       nothing was indexed or served in that data folder
├── Conflict                       409 conflict
│   └── IndexLocked                409 index_locked      another process owns the index
├── PayloadTooLarge                413 payload_too_large
├── TooManyRequests                429 busy
├── VaultError                     400 vault_error       the vault folder is missing or not a vault
│   └── VaultLooksEmpty            409 vault_looks_empty refusing to wipe a full index
├── NoteError                      422 note_error        one note could not be read or parsed
├── StoreError                     500 store_error       the vector store failed
└── ModelError                     502 model_error       anything about an embedding or chat model
    ├── BuiltinModelBroken         503 builtin_model_broken  the built-in embedder's files are missing or corrupt
    ├── ModelUnreachable           503 ollama_unreachable
    ├── ModelMissing               424 model_missing      `ollama pull X` fixes it
    ├── ModelTimeout               504 ollama_timeout
    └── ModelStreamBroken          502 ollama_stream_broken
"""

from __future__ import annotations

from typing import ClassVar


class AskVaultError(Exception):
    """Base of every error Ask Vault raises on purpose."""

    code: ClassVar[str] = "internal"
    http_status: ClassVar[int] = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.message}}


class ConfigError(AskVaultError):
    code = "bad_config"
    http_status = 400


class DataDirUnusable(ConfigError):
    """The data folder (or a file in it: the lock, the token) cannot be created or written; the sentence names the
    path and the fix (another --data-dir, or write access)."""

    code = "data_dir_unusable"


class BadRequest(AskVaultError):
    code = "bad_request"
    http_status = 400


class UnsupportedMediaType(BadRequest):
    code = "unsupported_media_type"
    http_status = 415


class Unauthorized(AskVaultError):
    code = "unauthorized"
    http_status = 401


class Forbidden(AskVaultError):
    code = "forbidden"
    http_status = 403


class NotFound(AskVaultError):
    code = "not_found"
    http_status = 404


class NotIndexed(NotFound):
    """A command that only reads what `serve` or `index` left found nothing in the data folder."""

    code = "not_indexed"


class Conflict(AskVaultError):
    code = "conflict"
    http_status = 409


class IndexLocked(Conflict):
    code = "index_locked"


class PayloadTooLarge(AskVaultError):
    code = "payload_too_large"
    http_status = 413


class TooManyRequests(AskVaultError):
    code = "busy"
    retry_after_s: ClassVar[int] = 1
    """The Retry-After the response carries."""
    http_status = 429


class VaultError(AskVaultError):
    code = "vault_error"
    http_status = 400


class VaultLooksEmpty(VaultError):
    code = "vault_looks_empty"
    http_status = 409


class NoteError(AskVaultError):
    code = "note_error"
    http_status = 422


class StoreError(AskVaultError):
    code = "store_error"
    http_status = 500


class ModelError(AskVaultError):
    code = "model_error"
    http_status = 502


class BuiltinModelBroken(ModelError):
    """The built-in embedder cannot load: a file is missing, unreadable or fails its checksum, or its folder is
    not writable. The sentence names the file and the fix."""

    code = "builtin_model_broken"
    http_status = 503


class ModelUnreachable(ModelError):
    code = "ollama_unreachable"
    http_status = 503


class ModelMissing(ModelError):
    code = "model_missing"
    http_status = 424

    def __init__(self, model: str, message: str) -> None:
        # The sentence comes from askvault.ollama_errors, which words every Ollama condition once.
        super().__init__(message)
        self.model = model


class ModelTimeout(ModelError):
    code = "ollama_timeout"
    http_status = 504


class ModelStreamBroken(ModelError):
    code = "ollama_stream_broken"
    http_status = 502
