"""fastembed's class for custom models, with one more ONNX Runtime session option exposed: the memory pattern.

Why: ONNX Runtime plans a memory pattern for every input shape it meets and keeps each one. Texts of every length
give a new shape per call, so the plans pile up: 25 MB of the built-in embedder's 155 MB after embedding the sample
vault, for no gain in speed (bench/README.md, "The built-in embedder"). fastembed exposes session options through
`EXPOSED_SESSION_OPTIONS` and `add_extra_session_options`; the subclass adds `enable_mem_pattern` the same way.
fastembed is pinned, so the class it extends cannot change under it.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # fastembed pulls in onnxruntime and numpy: imported when the model is first used
    from fastembed.text.custom_text_embedding import CustomTextEmbedding

MEM_PATTERN = "enable_mem_pattern"


@functools.cache
def lean_session_class() -> type[CustomTextEmbedding]:
    """The subclass, made on first use so that importing this module does not import fastembed."""
    from fastembed.text.custom_text_embedding import CustomTextEmbedding

    class LeanSessionEmbedding(CustomTextEmbedding):
        # fastembed types the tuple as one name long; a longer one is what its own check reads.
        EXPOSED_SESSION_OPTIONS = (*CustomTextEmbedding.EXPOSED_SESSION_OPTIONS, MEM_PATTERN)  # type: ignore[assignment]

        @classmethod
        def add_extra_session_options(cls, session_options: Any, extra_options: dict[str, Any]) -> None:
            own = {k: v for k, v in extra_options.items() if k != MEM_PATTERN}
            super().add_extra_session_options(session_options, own)
            if MEM_PATTERN in extra_options:
                session_options.enable_mem_pattern = bool(extra_options[MEM_PATTERN])

    return LeanSessionEmbedding
