"""The vault's template lines as the indexed chunks were cut with, and which notes a change to them re-cuts."""

from __future__ import annotations

import json

from askvault.chunk.boilerplate import min_notes
from askvault.store.manifest.manifest import Manifest

TEMPLATES_META_KEY = "template_lines"
"""The manifest meta entry holding the template line signatures the indexed chunks were cut with (JSON list)."""


class TemplateLines:
    """`current` is what the index was cut with; `pending` what the notes now make of it (`chunk.boilerplate`)."""

    def __init__(self, manifest: Manifest) -> None:
        self._manifest = manifest
        raw = manifest.get_meta(TEMPLATES_META_KEY)
        try:
            self.current = frozenset(int(sig) for sig in json.loads(raw)) if raw else frozenset()
        except (ValueError, TypeError):  # damaged: the next run finds the difference and re-cuts those notes
            self.current = frozenset()

    def pending(self) -> tuple[frozenset[int], list[str]]:
        """The lines enough notes hold now, and the notes holding one that became, or stopped being, a template
        line (sorted; none when nothing changed)."""
        found = self._manifest.shared_lines(min_notes)
        changed = found ^ self.current
        return found, sorted(self._manifest.notes_with_lines(changed)) if changed else []

    def settle(self, templates: frozenset[int]) -> None:
        """Saved last, after the notes were re-cut: a run stopped halfway finds the same difference next time."""
        if templates != self.current:
            self._manifest.set_meta(TEMPLATES_META_KEY, json.dumps(sorted(templates)))
            self.current = templates
