"""Vaults for the long runs: a copy of the sample vault, random edits that keep it changing, and its digest."""

from __future__ import annotations

import hashlib
import os
import random
import re
import shutil
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE_VAULT = REPO / "eval" / "sample-vault"
_WORD = re.compile(r"[A-Za-z][A-Za-z'-]{2,}")
FOLDERS = ("Homelab", "Journal", "Inbox", "Projects/Churn", "Reference")


def copy_sample_vault(dest: Path) -> Path:
    """A private copy of `eval/sample-vault` (its `.obsidian` settings included) at `dest`."""
    shutil.copytree(SAMPLE_VAULT, dest)
    return dest


def note_paths(root: Path) -> list[str]:
    """Vault-relative paths of the `.md` files outside dot-folders, sorted."""
    found: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        base = Path(dirpath).relative_to(root)
        found.extend((base / name).as_posix() for name in filenames if name.endswith(".md"))
    return sorted(found)


def vault_digest(root: Path) -> str:
    """sha256 over every file's path and bytes (dot-folders included): any write to the vault changes it."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            path = Path(dirpath) / name
            digest.update(path.relative_to(root).as_posix().encode("utf-8", "surrogateescape") + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class Mutator:
    """Random but reproducible (seeded) edits: append, rewrite, create, delete, rename, move, retag.

    Every edit changes a note's size, so change detection by (size, mtime) can never miss one because two
    writes fell into the same timestamp tick. Deletions stop at `floor` notes, far from the indexer's
    mass-delete guard, which would otherwise (rightly) refuse the run.
    """

    def __init__(self, root: Path, rng: random.Random, floor: int = 100, ceiling: int = 260) -> None:
        self.root = root
        self.rng = rng
        self.floor = floor
        self.ceiling = ceiling
        self.ops: dict[str, int] = {}
        self.created = 0
        self.words = self._vocabulary()

    def _vocabulary(self) -> list[str]:
        words: set[str] = set()
        for rel in note_paths(self.root):
            words.update(w.lower() for w in _WORD.findall((self.root / rel).read_text(encoding="utf-8")))
        return sorted(words) or ["alpha", "beta", "gamma"]

    def sentence(self, count: int | None = None) -> str:
        picked = self.rng.choices(self.words, k=count or self.rng.randint(6, 18))
        return " ".join(picked).capitalize() + "."

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(1, 5)))

    def body(self) -> str:
        parts = [f"# {self.sentence(3)[:-1]}", "", self.paragraph()]
        for _ in range(self.rng.randint(0, 4)):
            kind = self.rng.random()
            if kind < 0.4:
                parts += ["", f"## {self.sentence(2)[:-1]}", "", self.paragraph()]
            elif kind < 0.6:
                parts += ["", *(f"- {self.sentence(5)}" for _ in range(self.rng.randint(2, 5)))]
            elif kind < 0.75:
                parts += ["", "```bash", f"echo {self.rng.choice(self.words)} {self.rng.randint(1, 65535)}", "```"]
            else:
                target = Path(self.rng.choice(note_paths(self.root))).stem
                parts += ["", f"See [[{target}]] and {self.paragraph()}"]
        return "\n".join(parts) + "\n"

    def step(self) -> str:
        """Applies one random edit; returns its name."""
        notes = note_paths(self.root)
        choices: list[tuple[str, float, Callable[[list[str]], None]]] = [
            ("append", 0.35, self._append),
            ("rewrite", 0.15, self._rewrite),
            ("create", 0.2 if len(notes) < self.ceiling else 0.0, self._create),
            ("delete", 0.1 if len(notes) > self.floor else 0.0, self._delete),
            ("rename", 0.1, self._rename),
            ("move", 0.05, self._move),
            ("retag", 0.05, self._retag),
        ]
        name, _, action = self.rng.choices(choices, weights=[w for _, w, _ in choices])[0]
        action(notes)
        self.ops[name] = self.ops.get(name, 0) + 1
        return name

    def _pick(self, notes: list[str]) -> Path:
        return self.root / self.rng.choice(notes)

    def _append(self, notes: list[str]) -> None:
        with self._pick(notes).open("a", encoding="utf-8") as handle:
            handle.write(f"\n{self.paragraph()}\n")

    def _rewrite(self, notes: list[str]) -> None:
        path = self._pick(notes)
        old = path.read_bytes()
        new = self.body().encode("utf-8")
        if len(new) == len(old):
            new += b"\n"
        path.write_bytes(new)

    def _create(self, notes: list[str]) -> None:
        self.created += 1
        folder = self.root / self.rng.choice(FOLDERS)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"Generated {self.created:05d} {self.rng.choice(self.words)}.md").write_text(
            self.body(), encoding="utf-8"
        )

    def _delete(self, notes: list[str]) -> None:
        self._pick(notes).unlink()

    def _rename(self, notes: list[str]) -> None:
        path = self._pick(notes)
        self.created += 1
        path.rename(path.with_name(f"{path.stem} {self.created:05d}.md"))

    def _move(self, notes: list[str]) -> None:
        path = self._pick(notes)
        folder = self.root / self.rng.choice(FOLDERS)
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / path.name
        if not target.exists():
            path.rename(target)

    def _retag(self, notes: list[str]) -> None:
        path = self._pick(notes)
        text = path.read_text(encoding="utf-8")
        tag = self.rng.choice(self.words)
        path.write_text(f"---\ntags: [{tag}]\n---\n{text}" if not text.startswith("---\n") else text + f"\n#{tag}\n")
