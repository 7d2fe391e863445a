"""Table-driven tests for the pure change mapping and the Coalescer (time is passed in, never read)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from askvault.index.changes import (
    Change,
    ChangeBatch,
    ChangeKind,
    Coalescer,
    RawEvent,
    is_note_path,
    is_under,
    map_event,
    vault_relative,
)

ROOT = "/home/u/Vault"
UP, DEL, DTREE, UTREE, RESCAN = (
    ChangeKind.UPSERT,
    ChangeKind.DELETE,
    ChangeKind.DELETE_TREE,
    ChangeKind.UPSERT_TREE,
    ChangeKind.RESCAN,
)


def ev(kind: str, src: str, dest: str = "", *, is_dir: bool = False) -> RawEvent:
    """An event with vault-relative names made absolute; names starting with / stay as given."""

    def absolute(p: str) -> str:
        return p if p == "" or p.startswith("/") else f"{ROOT}/{p}"

    return RawEvent(kind=kind, src_path=absolute(src), dest_path=absolute(dest), is_directory=is_dir)


MAPPING = [
    # --- every kind on a plain note
    ("created", ev("created", "Home.md"), [Change(UP, "Home.md")]),
    ("modified", ev("modified", "Home.md"), [Change(UP, "Home.md")]),
    ("closed-after-write", ev("closed", "Home.md"), [Change(UP, "Home.md")]),
    ("closed-no-write", ev("closed_no_write", "Home.md"), []),
    ("opened", ev("opened", "Home.md"), []),
    ("attrib", ev("attrib", "Home.md"), []),
    ("deleted", ev("deleted", "Home.md"), [Change(DEL, "Home.md")]),
    ("nested-posix", ev("modified", "Projects/2024/Plan.md"), [Change(UP, "Projects/2024/Plan.md")]),
    ("unicode-and-spaces", ev("created", "Notizen/Über uns.md"), [Change(UP, "Notizen/Über uns.md")]),
    # --- renames
    ("rename", ev("moved", "a.md", "b.md"), [Change(DEL, "a.md"), Change(UP, "b.md", moved_from="a.md")]),
    ("rename-into-folder", ev("moved", "a.md", "F/a.md"), [Change(DEL, "a.md"), Change(UP, "F/a.md", "a.md")]),
    ("atomic-save-tmp", ev("moved", ".note.md.tmp", "note.md"), [Change(UP, "note.md")]),
    ("atomic-save-tilde", ev("moved", "note.md~", "note.md"), [Change(UP, "note.md")]),
    ("rename-to-backup", ev("moved", "note.md", "note.md~"), [Change(DEL, "note.md")]),
    ("rename-to-non-note", ev("moved", "note.md", "note.rtf"), [Change(DEL, "note.md")]),
    # A `.txt` is indexed beside the vault (the indexer leaves one in the vault alone).
    ("rename-to-text", ev("moved", "note.md", "note.txt"), [Change(DEL, "note.md"), Change(UP, "note.txt", "note.md")]),
    ("move-to-trash", ev("moved", "note.md", ".trash/note.md"), [Change(DEL, "note.md")]),
    ("restore-from-trash", ev("moved", ".trash/note.md", "note.md"), [Change(UP, "note.md")]),
    ("moved-out-of-vault", ev("moved", "note.md", "/elsewhere/note.md"), [Change(DEL, "note.md")]),
    ("moved-into-vault", ev("moved", "/elsewhere/note.md", "note.md"), [Change(UP, "note.md")]),
    ("moved-unknown-dest", ev("moved", "note.md", ""), [Change(DEL, "note.md")]),
    ("moved-unknown-src", ev("moved", "", "note.md"), [Change(UP, "note.md")]),
    # --- not notes, temp and backup files, hidden folders
    ("emacs-lock", ev("created", ".#Home.md"), []),
    ("tilde-backup", ev("modified", "Home.md~"), []),
    ("vim-swap", ev("modified", ".Home.md.swp"), []),
    ("vim-swap-visible", ev("modified", "Home.md.swp"), []),
    ("dot-tmp", ev("created", ".Home.md.tmp"), []),
    ("plain-tmp", ev("created", "Home.tmp"), []),
    ("md-tmp", ev("created", "Home.md.tmp"), []),
    ("office-lock", ev("created", "~$Home.md"), []),
    ("hidden-note", ev("created", ".Home.md"), []),
    ("bare-suffix", ev("created", ".md"), []),
    ("obsidian-config", ev("modified", ".obsidian/workspace.md"), []),
    ("trash", ev("created", ".trash/old.md"), []),
    ("git", ev("modified", ".git/notes.md"), []),
    ("hidden-subfolder", ev("modified", "Projects/.drafts/x.md"), []),
    ("image", ev("created", "assets/pic.png"), []),
    # --- PDFs and canvases are read too (the indexer skips them when the vault switches them off)
    ("canvas", ev("modified", "Board.canvas"), [Change(UP, "Board.canvas")]),
    ("pdf", ev("created", "Papers/Paper.pdf"), [Change(UP, "Papers/Paper.pdf")]),
    ("pdf-upper-case", ev("created", "SCAN.PDF"), [Change(UP, "SCAN.PDF")]),
    ("pdf-partial-download", ev("created", "Paper.pdf.part"), []),
    ("bare-pdf-suffix", ev("created", ".pdf"), []),
    ("upper-case-suffix", ev("created", "LOUD.MD"), []),
    # --- outside the vault
    ("outside", ev("modified", "/etc/notes.md"), []),
    ("sibling-with-same-prefix", ev("modified", "/home/u/Vault2/x.md"), []),
    ("dotdot-escape", ev("modified", f"{ROOT}/../x.md"), []),
    # --- folders
    ("dir-created", ev("created", "Projects", is_dir=True), [Change(UTREE, "Projects")]),
    ("dir-deleted", ev("deleted", "Projects", is_dir=True), [Change(DTREE, "Projects")]),
    ("dir-modified", ev("modified", "Projects", is_dir=True), []),
    ("dir-closed", ev("closed", "Projects", is_dir=True), []),
    ("dir-renamed", ev("moved", "A", "B/C", is_dir=True), [Change(DTREE, "A"), Change(UTREE, "B/C")]),
    ("dir-moved-out", ev("moved", "A", "/elsewhere/A", is_dir=True), [Change(DTREE, "A")]),
    ("dir-moved-in", ev("moved", "/elsewhere/A", "A", is_dir=True), [Change(UTREE, "A")]),
    ("dir-to-trash", ev("moved", "A", ".trash/A", is_dir=True), [Change(DTREE, "A")]),
    ("dir-from-trash", ev("moved", ".trash/A", "A", is_dir=True), [Change(UTREE, "A")]),
    ("dot-dir-created", ev("created", ".obsidian/plugins", is_dir=True), []),
    ("dir-named-like-note", ev("created", "Weird.md", is_dir=True), [Change(UTREE, "Weird.md")]),
    # --- the root itself
    ("root-deleted", ev("deleted", ROOT, is_dir=True), [Change(RESCAN, "")]),
    ("root-moved", ev("moved", ROOT, "/home/u/Old", is_dir=True), [Change(RESCAN, "")]),
    ("root-modified", ev("modified", ROOT, is_dir=True), []),
]


@pytest.mark.parametrize(("event", "expected"), [(e, x) for _, e, x in MAPPING], ids=[i for i, _, _ in MAPPING])
def test_map_event(event: RawEvent, expected: list[Change]) -> None:
    assert map_event(event, ROOT) == expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (ROOT, "."),
        (f"{ROOT}/a/b.md", "a/b.md"),
        ("/home/u/Vault2/a.md", None),
        ("/home/u", None),
        ("", None),
    ],
    ids=["root", "inside", "sibling", "parent", "empty"],
)
def test_vault_relative(path: str, expected: str | None) -> None:
    assert vault_relative(path, ROOT) == expected


@pytest.mark.parametrize(
    ("path", "prefix", "expected"),
    [("A/x.md", "A", True), ("A/B/x.md", "A", True), ("AB/x.md", "A", False), ("A", "A", False)],
    ids=["child", "grandchild", "name-prefix-only", "itself"],
)
def test_is_under(path: str, prefix: str, expected: bool) -> None:
    assert is_under(path, prefix) is expected


def test_is_note_path_rejects_hidden_components() -> None:
    assert is_note_path("a/b/c.md")
    assert not is_note_path("a/.b/c.md")


# ----- Coalescer ------------------------------------------------------------------------------------

DEBOUNCE, MAX_WAIT = 0.3, 2.0


@dataclass(frozen=True)
class Case:
    steps: list[tuple[float, Change]]
    at: float
    """Time at which take_ready is called."""
    expected: ChangeBatch | None
    left: int = 0
    """Entries still pending afterwards."""


def batch(
    up: set[str] | None = None,
    dele: set[str] | None = None,
    prefixes: set[str] | None = None,
    moved: tuple[tuple[str, str], ...] = (),
) -> ChangeBatch:
    return ChangeBatch(
        upserts=frozenset(up or ()),
        deletes=frozenset(dele or ()),
        deleted_prefixes=frozenset(prefixes or ()),
        moved=moved,
    )


def up(path: str, moved_from: str | None = None) -> Change:
    return Change(UP, path, moved_from)


def rm(path: str) -> Change:
    return Change(DEL, path)


def rmtree(path: str) -> Change:
    return Change(DTREE, path)


def rename(t: float, src: str, dest: str) -> list[tuple[float, Change]]:
    """What map_event yields for a rename, in its order."""
    return [(t, rm(src)), (t, up(dest, src))]


COALESCE = {
    "nothing-pending": Case([], 10.0, None),
    "quiet-long-enough": Case([(0.0, up("a.md"))], 0.3, batch({"a.md"})),
    "not-yet-quiet": Case([(0.0, up("a.md"))], 0.29, None, left=1),
    "writes-extend-debounce": Case([(0.0, up("a.md")), (0.2, up("a.md"))], 0.4, None, left=1),
    "writes-then-quiet": Case([(0.0, up("a.md")), (0.2, up("a.md"))], 0.5, batch({"a.md"})),
    "max-wait-caps-continuous-writer": Case(
        [(t / 10, up("a.md")) for t in range(21)],  # a write every 0.1 s, never quiet
        2.0,
        batch({"a.md"}),
    ),
    "max-wait-not-reached": Case([(t / 10, up("a.md")) for t in range(19)], 1.9, None, left=1),
    "per-path-readiness": Case([(0.0, up("a.md")), (0.5, up("b.md"))], 0.6, batch({"a.md"}), left=1),
    "delete-then-create-is-upsert": Case([(0.0, rm("a.md")), (0.1, up("a.md"))], 1.0, batch({"a.md"})),
    "create-then-delete-is-delete": Case([(0.0, up("a.md")), (0.1, rm("a.md"))], 1.0, batch(dele={"a.md"})),
    "later-event-wins": Case(
        [(0.0, up("a.md")), (0.1, rm("a.md")), (0.2, up("a.md")), (0.3, rm("a.md"))],
        1.0,
        batch(dele={"a.md"}),
    ),
    "rename": Case(rename(0.0, "a.md", "b.md"), 1.0, batch({"b.md"}, {"a.md"}, moved=(("a.md", "b.md"),))),
    "rename-chain-reports-origin": Case(
        [*rename(0.0, "a.md", "b.md"), *rename(0.1, "b.md", "c.md")],
        1.0,
        batch({"c.md"}, {"a.md", "b.md"}, moved=(("a.md", "c.md"),)),
    ),
    "rename-then-edit-keeps-hint": Case(
        [*rename(0.0, "a.md", "b.md"), (0.1, up("b.md"))],
        1.0,
        batch({"b.md"}, {"a.md"}, moved=(("a.md", "b.md"),)),
    ),
    "rename-then-source-recreated": Case(
        [*rename(0.0, "a.md", "b.md"), (0.1, up("a.md"))],
        1.0,
        batch({"a.md", "b.md"}),
    ),
    "renamed-away-then-recreated-drops-hint": Case(
        [*rename(0.0, "a.md", "b.md"), (0.1, rm("b.md")), (0.2, up("b.md"))],
        1.0,
        batch({"b.md"}, {"a.md"}),
    ),
    "rename-pulls-source-forward": Case(
        # c.md is written continuously, so the max wait releases it while a.md's delete is still fresh.
        [(0.0, up("c.md")), (1.0, up("c.md")), *rename(1.9, "a.md", "c.md")],
        2.0,
        batch({"c.md"}, {"a.md"}, moved=(("a.md", "c.md"),)),
    ),
    "folder-delete-cancels-older-changes-under-it": Case(
        [(0.0, up("A/x.md")), (0.0, rm("A/y.md")), (0.0, rmtree("A/B")), (0.1, rmtree("A"))],
        1.0,
        batch(prefixes={"A"}),
    ),
    "folder-delete-leaves-siblings": Case(
        [(0.0, up("AB/x.md")), (0.1, rmtree("A"))],
        1.0,
        batch({"AB/x.md"}, prefixes={"A"}),
    ),
    "folder-gone-then-back": Case(
        [(0.0, rmtree("A")), (0.1, up("A/x.md"))],
        1.0,
        batch({"A/x.md"}, prefixes={"A"}),
    ),
    "folder-delete-released-no-later-than-what-follows": Case(
        [(0.0, rmtree("A")), (0.4, rmtree("A")), (0.45, up("A/x.md")), (0.5, up("A/y.md"))],
        0.76,
        batch({"A/x.md"}, prefixes={"A"}),
        left=1,
    ),
    "folder-move-with-per-file-events": Case(
        [(0.0, rmtree("A")), (0.0, up("B/x.md")), *rename(0.0, "A/x.md", "B/x.md")],
        1.0,
        batch({"B/x.md"}, {"A/x.md"}, {"A"}, moved=(("A/x.md", "B/x.md"),)),
    ),
    "nested-folder-delete-kept-after-parent": Case(
        [(0.0, rmtree("A")), (0.1, rmtree("A/B"))],
        1.0,
        batch(prefixes={"A", "A/B"}),
    ),
}


@pytest.mark.parametrize("case", COALESCE.values(), ids=COALESCE.keys())
def test_coalescer(case: Case) -> None:
    coalescer = Coalescer(debounce_s=DEBOUNCE, max_wait_s=MAX_WAIT)
    for now, change in case.steps:
        coalescer.add(change, now)
    got = coalescer.take_ready(case.at)
    assert got == case.expected
    assert len(coalescer) == case.left
    if got is not None:
        assert not got.upserts & got.deletes
        assert not got.is_empty()


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ([], None),
        ([(1.0, up("a.md"))], 1.3),
        ([(1.0, up("a.md")), (1.2, up("b.md"))], 1.3),
        ([(float(t) / 10, up("a.md")) for t in range(25)], 2.0),
        ([(1.0, rmtree("A"))], 1.3),
    ],
    ids=["empty", "one", "earliest-wins", "max-wait-bounds", "prefix"],
)
def test_next_deadline(steps: list[tuple[float, Change]], expected: float | None) -> None:
    coalescer = Coalescer(debounce_s=DEBOUNCE, max_wait_s=MAX_WAIT)
    for now, change in steps:
        coalescer.add(change, now)
    assert coalescer.next_deadline() == pytest.approx(expected)
    if expected is not None:
        assert coalescer.take_ready(expected) is not None


def test_take_all_flushes_everything_and_entries_restart_after_flush() -> None:
    coalescer = Coalescer(debounce_s=DEBOUNCE, max_wait_s=MAX_WAIT)
    coalescer.add(up("a.md"), 0.0)
    coalescer.add(rmtree("F"), 0.0)
    assert coalescer.take_all() == batch({"a.md"}, prefixes={"F"})
    assert coalescer.take_all() is None
    coalescer.add(up("a.md"), 5.0)  # a new window starts at the new event, not at the old first one
    assert coalescer.take_ready(5.1) is None
    assert coalescer.take_ready(5.3) == batch({"a.md"})


@pytest.mark.parametrize("kind", [UTREE, RESCAN], ids=["upsert-tree", "rescan"])
def test_coalescer_refuses_what_needs_io(kind: ChangeKind) -> None:
    with pytest.raises(ValueError, match="cannot take"):
        Coalescer().add(Change(kind, "A"), 0.0)
