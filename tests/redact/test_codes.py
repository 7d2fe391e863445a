"""Recovery codes with what people write next to them: every code goes, the annotation stays."""

from __future__ import annotations

import pytest

from askvault.redact.engine import redact

M = "[redacted: recovery-codes]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("- 4kf9-2mzq (used in May)", f"- {M} (used in May)", id="note-after"),
        pytest.param("- 4kf9-2mzq ~~used~~", f"- {M} ~~used~~", id="struck-note"),
        pytest.param("- 4kf9-2mzq spare", f"- {M} spare", id="any-word"),
        pytest.param("- ~~4kf9-2mzq~~ used", f"- ~~{M}~~ used", id="struck-code"),
        pytest.param("- [x] 4kf9-2mzq", f"- [x] {M}", id="check-box"),
        pytest.param("✅ 4kf9-2mzq 2024-05-03", f"✅ {M} 2024-05-03", id="emoji-and-date"),
        pytest.param("1234 5678 ✓", f"{M} ✓", id="digit-groups"),
        pytest.param("| 4kf9-2mzq | used |", f"| {M} | used |", id="table-cell"),
        pytest.param("- `4kf9-2mzq` (used)", f"- `{M}` (used)", id="code-span"),
        pytest.param("4kf9-2mzq, 7hd2-0pqa (used)", f"{M} (used)", id="comma-list"),
        pytest.param("Secret key: A3-KQ7X2M-9PLW4Z", f"Secret key: {M}", id="field-line"),
        pytest.param("- (used) 4kf9-2mzq", f"- (used) {M}", id="note-before"),
        pytest.param("#3 4kf9-2mzq used", f"#3 {M} used", id="enumerator"),
        pytest.param("Stored in 1Password since 2024.", "Stored in 1Password since 2024.", id="prose-kept"),
        pytest.param("Regenerated 2024-05-01, 10 codes left", "Regenerated 2024-05-01, 10 codes left", id="dates-kept"),
    ],
)  # fmt: skip
def test_under_a_recovery_heading_codes_go_and_annotations_stay(text: str, expected: str) -> None:
    assert redact(text, recovery_section=True).text == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("GitHub recovery codes:\n\n4kf9-2mzq (used)\n7hd2-0pqa\n\nLater 1234-5678",
                     f"GitHub recovery codes:\n\n{M} (used)\n{M}\n\nLater 1234-5678", id="block-after-label"),
        pytest.param("Backup-Codes:\nBitte sicher aufbewahren!\n- 4401 2237\n- 9983 1120 ✔",
                     f"Backup-Codes:\nBitte sicher aufbewahren!\n- {M}\n ✔", id="remark-between"),
        pytest.param("Recovery code: X7KQ-92MD-PL4Z (used)", f"Recovery code: {M} (used)", id="single-on-label"),
        pytest.param("Backup codes:\n\n4kf9-2mzq\n\n7hd2-0pqa\n\nOrder 12345-678 shipped",
                     f"Backup codes:\n\n{M}\n\n\n\nOrder 12345-678 shipped", id="blank-lines-between"),
        pytest.param("> [!note] Recovery codes\n> 4kf9-2mzq (used)", f"> [!note] Recovery codes\n> {M} (used)",
                     id="callout"),
        pytest.param("my backup codes are a8k2m9q1 and z7x6c5v4.", f"my backup codes are {M} and {M}.",
                     id="sentence"),
        pytest.param("Codes de secours : 2291 8804", f"Codes de secours : {M}", id="french"),
        pytest.param("I lost my recovery codes last year and had to call support about it.",
                     "I lost my recovery codes last year and had to call support about it.", id="prose-kept"),
        pytest.param("Recovery codes:\n\n## Next\n4kf9-2mzq", "Recovery codes:\n\n## Next\n4kf9-2mzq",
                     id="heading-disarms"),
    ],
)  # fmt: skip
def test_after_a_label_the_codes_of_its_line_and_block_go(text: str, expected: str) -> None:
    assert redact(text).text == expected


def test_letter_only_codes_shaped_like_their_neighbours_go_too() -> None:
    text = "a7b3c-1d2e4\nabcde-fabcd\ne9f8d-7c6b5\nhello-world-again"
    # One marker for the run; its line breaks stay, so later lines keep their numbers.
    assert redact(text, recovery_section=True).text == f"{M}\n\n\nhello-world-again"
