"""One raw setting read as an Ollama URL, a list, a switch or a bounded number; a bad one named by its source."""

from __future__ import annotations

import re

from askvault.errors import ConfigError

_ENDPOINT_PATH = re.compile(r"/(?:api|v1)(?:/[^/]*)*$")
"""Ollama's API prefix (`/api`, `/api/chat`…) or its OpenAI-compatible one (`/v1/…`) at the end of a URL."""


def ollama_base_url(raw: str, source: str) -> str:
    url = raw.strip().rstrip("/")
    if "://" in url and not re.match(r"^https?://", url):
        raise ConfigError(f"{source}: {raw!r} is not an http(s) URL")
    if not re.match(r"^https?://", url):
        # Ollama itself accepts OLLAMA_HOST=host:port; so do we.
        url = "http://" + url
    if not re.match(r"^https?://[^/\s]+(:\d+)?(/.*)?$", url):
        raise ConfigError(f"{source}: {raw!r} is not an http(s) URL")
    # The client appends /api/chat itself: a URL copied from an endpoint would 404 on every call, which reads like
    # an Ollama too old to have the endpoint. Any other path is left alone (a reverse proxy may serve under one).
    endpoint = _ENDPOINT_PATH.search(url.split("://", 1)[1])
    if endpoint is not None:
        server = url[: len(url) - len(endpoint.group(0))]
        raise ConfigError(
            f"{source}: {raw!r} ends in {endpoint.group(0)!r}, but Ollama's URL is the server's address alone "
            f"(the API path is added to it): use {server}"
        )
    return url


def string_list(value: object, source: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return tuple(part.strip() for part in value.split(",") if part.strip())
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return tuple(str(v) for v in value)
    raise ConfigError(f"{source}: expected a comma-separated list of strings")


def boolean(value: object, source: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{source}: {value!r} is not true or false")


def bounded(value: object, source: str, kind: type[int] | type[float], bounds: tuple[float, float]) -> float:
    what = "whole number" if kind is int else "number"
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | str)
        or (kind is int and isinstance(value, float))
    ):
        raise ConfigError(f"{source}: {value!r} is not a {what}")
    try:
        number = kind(value.strip() if isinstance(value, str) else value)
    except ValueError as exc:
        raise ConfigError(f"{source}: {value!r} is not a {what}") from exc
    low, high = bounds
    if not low <= number <= high:
        raise ConfigError(f"{source}: {number:g} is outside {low:g}..{high:g}")
    return number
