"""A five-note vault and a question set whose evaluation figures can be checked by hand."""

from __future__ import annotations

import json
from pathlib import Path

from askvault.evaluate.questions import Question, load_questions

NOTES = {
    # The evidence "listens on port 5433" is wrapped over two lines; "[[Backup job]]" is rendered away in the chunk.
    "Services/Postgres.md": (
        "---\naliases: [pg]\n---\n# Postgres\n\nThe container pg-main listens on\nport 5433 and is backed up by "
        "[[Backup job]].\n"
    ),
    "Services/Backup job.md": "# Backup job\n\nRestic snapshots run nightly at 02:00 to the NAS.\n",
    "Garden/Tomatoes.md": "# Tomatoes\n\nWater the tomato plants every morning during July heat.\n",
    "Kitchen/Sourdough.md": "# Sourdough\n\nFeed the starter with rye flour twice daily.\n",
    "Kitchen/Pancakes.md": "# Pancakes\n\nWhisk eggs, milk and flour; rest the batter ten minutes.\n",
}

QUESTIONS: list[dict[str, object]] = [
    {
        "id": "port",
        "question": "Which port does the pg-main container listen on?",
        "type": "exact_value",
        "expected_paths": ["Services/Postgres.md"],
        "evidence": ["listens on port 5433"],
        "note": "unknown fields like this one are ignored",
    },
    {
        "id": "link",
        "question": "What is the pg-main container backed up by?",
        "type": "alias_wikilink",
        "expected_paths": ["Services/Postgres.md"],
        "evidence": ["backed up by [[Backup job]]"],
    },
    {
        "id": "multi",
        "question": "When do restic snapshots of the pg-main container run?",
        "type": "multi_note",
        "expected_paths": ["Services/Postgres.md", "Services/Backup job.md"],
        "evidence": ["run nightly at 02:00"],
    },
    {
        "id": "sourdough",
        "question": "How often is the sourdough starter fed?",
        "type": "paraphrase",
        "expected_paths": ["Kitchen/Sourdough.md"],
        "evidence": ["twice daily"],
    },
    {
        # Labelled with the wrong note on purpose: the words point at the sourdough note, so this always misses.
        "id": "mislabelled",
        "question": "Which rye flour feeds the sourdough starter?",
        "type": "paraphrase",
        "expected_paths": ["Garden/Tomatoes.md"],
        "evidence": ["every morning during July heat"],
    },
    {
        "id": "negative",
        "question": "How tall is the Eiffel tower?",
        "type": "negative",
        "expected_paths": [],
        "evidence": [],
    },
]


def write_questions(path: Path) -> Path:
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path


def questions(tmp_path: Path) -> list[Question]:
    return load_questions(write_questions(tmp_path / "questions.jsonl"))
