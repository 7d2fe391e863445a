"""The wire: the JSON bodies of docs/api.md (search, related, explain, the answer stream), shaped once for all edges."""
