"""The mass-delete rule: a vault that suddenly looks empty is a failed mount until the user says otherwise."""

from __future__ import annotations

from askvault.errors import VaultLooksEmpty

MASS_DELETE_MIN_NOTES = 20
"""Below this many indexed notes, losing most of them at once is ordinary pruning, not a failed mount."""
MASS_DELETE_SHARE = 0.5


def refuse_mass_delete(stored: int, gone: int, on_disk: int, allow: bool) -> None:
    """Raises VaultLooksEmpty when `gone` of `stored` indexed notes vanished from disk in one go."""
    if allow or stored == 0 or gone == 0:
        return
    if on_disk == 0 or (stored >= MASS_DELETE_MIN_NOTES and gone / stored > MASS_DELETE_SHARE):
        raise VaultLooksEmpty(
            f"the vault now shows {on_disk} notes but {stored} are indexed ({gone} would be deleted); "
            "this looks like an unmounted or emptied folder, so the index was left as it is. "
            "If the notes really are gone, run `askvault index --full --allow-mass-delete`."
        )


def refuse_watcher_deletes(indexed: int, missing: int, removed_before: int, arriving: int) -> None:
    """The same rule for a watcher batch: `indexed` notes recorded, `missing` of them gone from disk, `removed_before`
    removed by earlier batches since the last full run (so a slow emptying is caught too), `arriving` new paths in
    this batch (a renamed folder's notes come back under new names)."""
    gone = max(0, missing + removed_before - arriving)
    refuse_mass_delete(indexed + removed_before, gone, indexed - missing + arriving, False)
