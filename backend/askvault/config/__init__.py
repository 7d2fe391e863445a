"""The one typed configuration object, built once from flags, environment and config file, in that order."""

from askvault.config.load import load_config, read_config_file
from askvault.config.slices import (
    DEFAULT_CHAT_MODEL,
    DEFAULT_EMBED_MODEL,
    DEFAULT_OLLAMA_URL,
    DEFAULT_PORT,
    OPT_OUT_KEY,
    BuiltinEmbedParams,
    ChunkParams,
    Config,
    OllamaConfig,
    PromptParams,
    RetrievalParams,
    ServerConfig,
    StoreConfig,
    VaultConfig,
    default_data_root,
    vault_data_dir,
)

__all__ = [
    "DEFAULT_CHAT_MODEL",
    "DEFAULT_EMBED_MODEL",
    "DEFAULT_OLLAMA_URL",
    "DEFAULT_PORT",
    "OPT_OUT_KEY",
    "BuiltinEmbedParams",
    "ChunkParams",
    "Config",
    "OllamaConfig",
    "PromptParams",
    "RetrievalParams",
    "ServerConfig",
    "StoreConfig",
    "VaultConfig",
    "default_data_root",
    "load_config",
    "read_config_file",
    "vault_data_dir",
]
