"""Neutralises note text before it enters a prompt: retrieved text is data, never instructions."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from askvault.generate.citations import CITATION

SOURCE_TAG = "source"
"""Sources are framed as <source n="1" …> … </source>; nothing inside a note may open or close one."""

TEMPLATE_TOKENS: tuple[str, ...] = (
    # Llama 2 / Mistral
    "[INST]",
    "[/INST]",
    "<<SYS>>",
    "<</SYS>>",
    "<s>",
    "</s>",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_CALLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    # Gemma
    "<start_of_turn>",
    "<end_of_turn>",
    "<bos>",
    "<eos>",
    # Qwen / DeepSeek tool and reasoning tags
    "<tool_call>",
    "</tool_call>",
    "<tool_response>",
    "</tool_response>",
    "<think>",
    "</think>",
)
"""Literal chat-template control strings removed from note text. Every `<|…|>` token (ChatML `<|im_start|>`,
Llama 3 `<|eot_id|>`, Phi `<|user|>`, Command-R, Granite, DeepSeek's full-width `<｜…｜>`) is removed by pattern."""

_TEMPLATE = re.compile(
    r"<[|｜][^<>\n]{1,48}?[|｜]>|" + "|".join(re.escape(token) for token in TEMPLATE_TOKENS),
    re.IGNORECASE,
)
_DELIMITER = re.compile(rf"<(\s*/?\s*{SOURCE_TAG}s?\b)", re.IGNORECASE)
_ASCII_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_LINE_BREAKS = re.compile(r"\r\n?|[\u0085\u2028\u2029]")
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=8192)
def _keep(char: str) -> bool:
    if char in "\n\t":
        return True
    code = ord(char)
    # Variation selectors can smuggle bytes invisibly (VS1-16 and the supplement beside the tag block).
    if 0xFE00 <= code <= 0xFE0F or 0xE0000 <= code <= 0xE0FFF:
        return False
    # Cc: control characters; Cf: zero-width, bidi overrides/isolates, soft hyphen, BOM, tag characters.
    return unicodedata.category(char) not in ("Cc", "Cf")


def strip_invisible(text: str) -> str:
    """Removes control characters (except newline and tab), zero-width, bidi-control and tag characters."""
    text = _LINE_BREAKS.sub("\n", text)
    if text.isascii():
        return _ASCII_CONTROL.sub("", text)
    return "".join(char for char in text if _keep(char))


def strip_template_tokens(text: str) -> str:
    """Removes chat-template control tokens; repeats until none are left, so nesting cannot rebuild one."""
    while True:
        cleaned = _TEMPLATE.sub("", text)
        if cleaned == text:
            return cleaned
        text = cleaned


def neutralise_delimiters(text: str) -> str:
    """`<source`, `</source`, `< / Sources` … lose their `<`, so note text can neither open nor close a source."""
    return _DELIMITER.sub(r"‹\1", text)


def neutralise_citations(text: str) -> str:
    """[7], [1, 2], [1-3] become (7), (1, 2), (1-3): the model is never shown a citation marker we did not number."""
    return CITATION.sub(r"(\1)", text)


def clean_text(text: str) -> str:
    """For text that is not a source (question, history): invisible characters, template tokens, delimiters."""
    return neutralise_delimiters(strip_template_tokens(strip_invisible(text)))


def sanitize_source(text: str) -> str:
    """Source text as sent to the model: clean_text plus neutralised citation markers."""
    return neutralise_citations(clean_text(text))


def sanitize_attribute(text: str, limit: int = 200) -> str:
    """A note-controlled value (title, path, heading) made safe for one line inside a source's opening tag."""
    value = _SPACES.sub(" ", sanitize_source(text)).strip()
    value = value.replace('"', "'").replace("<", "‹").replace(">", "›")
    return value if len(value) <= limit else value[: limit - 1] + "…"
