"""Engine objects → the JSON bodies of docs/api.md (shared with the CLI's `--json` output).

The search shapes live in `askvault.wire`, the one home of every wire shape (the MCP server, a sibling of this
package, shares them); they are re-exported here for the routes and the CLI.
"""

from __future__ import annotations

from collections.abc import Mapping

from askvault import API_VERSION, __version__
from askvault.wire.search import chunk_to_json, hit_to_json, search_result_to_json, term_to_json

__all__ = ["CAPABILITIES", "chunk_to_json", "hit_to_json", "search_result_to_json", "status_to_json", "term_to_json"]

CAPABILITIES = ("search", "ask", "reindex", "events", "chunks", "explain", "related")


def status_to_json(parts: Mapping[str, object]) -> dict[str, object]:
    """The body of `GET /api/status`: version and capabilities, then the index's own parts."""
    return {
        "api_version": API_VERSION,
        "version": __version__,
        "capabilities": list(CAPABILITIES),
        **parts,
    }
