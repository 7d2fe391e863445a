"""Passwords in sentences and shorthand, in four languages, and the sentences about passwords that stay."""

from __future__ import annotations

import pytest

from askvault.redact.engine import redact
from askvault.redact.prose import keypad, strong

P = "[redacted: password]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Wifi password is Kaffee-Bohne42", f"Wifi password is {P}", id="wifi-is"),
        pytest.param("The wifi password is sunshine.", f"The wifi password is {P}.", id="plain-word"),
        pytest.param("The password is correct horse battery staple", f"The password is {P}", id="passphrase"),
        pytest.param("The password for the NAS is Tr0ub4dor&3, the user is admin.",
                     f"The password for the NAS is {P}, the user is admin.", id="qualifier"),
        pytest.param("Router password was changed to Gr33n-Door! today", f"Router password was changed to {P} today",
                     id="changed-to"),
        pytest.param("Das Passwort für das NAS lautet Nord-Wind-88.", f"Das Passwort für das NAS lautet {P}.",
                     id="german"),
        pytest.param("Le mot de passe du wifi est Baguette#2024", f"Le mot de passe du wifi est {P}", id="french"),
        pytest.param("La contraseña del router es Gato#Negro5", f"La contraseña del router es {P}", id="spanish"),
        pytest.param("Mot de passe Netflix : Serie!Soir9", f"Mot de passe Netflix : {P}", id="named"),
        pytest.param("NAS login admin pw Qx7!mLp2", f"NAS login admin pw {P}", id="pw"),
        pytest.param("user admin pass Zebra#4412", f"user admin pass {P}", id="pass-after-user"),
        pytest.param("Bank card PIN 8256, don't lose it", f"Bank card PIN {P}, don't lose it", id="pin"),
        pytest.param("pin is 9932", f"pin is {P}", id="lowercase-pin-digits"),
        pytest.param("The code for the gate is 4417", f"The code for the gate is {P}", id="gate-code"),
        pytest.param("Zugangsdaten: admin / Geheim123!", f"Zugangsdaten: admin / {P}", id="pair"),
        pytest.param("Netflix: anna@example.com / Popcorn2024!", f"Netflix: anna@example.com / {P}", id="email"),
        pytest.param("Wifi password - hunter22", f"Wifi password - {P}", id="dash"),
    ],
)  # fmt: skip
def test_a_password_in_a_sentence_or_shorthand_goes(text: str, expected: str) -> None:
    assert redact(text).text == expected


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("The password manager is Bitwarden.", id="manager"),
        pytest.param("The wifi password is in Bitwarden under Home.", id="pointer"),
        pytest.param("My password is expired, need to reset it.", id="state"),
        pytest.param("The password is different each time.", id="determiner"),
        pytest.param("The password is at least 16 characters long.", id="length"),
        pytest.param("Das Passwort ist dasselbe wie beim NAS.", id="german-same"),
        pytest.param("Le mot de passe est dans Bitwarden.", id="french-pointer"),
        pytest.param("La clave del éxito es practicar cada día.", id="spanish-key-of-success"),
        pytest.param("Boarding pass: 12B", id="boarding-pass"),
        pytest.param("Ski pass: SK2024-12345", id="ski-pass"),
        pytest.param("Pass `parse_all=True` to run_tests.", id="pass-a-flag"),
        pytest.param("allow user to pass execution_id2 along", id="pass-verb"),
        pytest.param("GPIO PIN 17 drives the relay", id="gpio-pin"),
        pytest.param("    pin: GPIO4", id="esphome-pin"),
        pytest.param("passing an empty password and/or salt", id="password-and-or"),
        pytest.param("The password will be sent with the AUTH event", id="future"),
        pytest.param("git clone git@github.com:me/dotfiles.git", id="git-remote"),
        pytest.param("Passwords – Best practices", id="dash-title"),
    ],
)
def test_a_sentence_about_a_password_stays(text: str) -> None:
    assert redact(text).text == text


@pytest.mark.parametrize(
    ("value", "digit", "expected"),
    [
        pytest.param("hunter2", False, True, id="letters-digit"),
        pytest.param("Zebra#Pass", False, True, id="inner-symbol"),
        pytest.param("Zebra#Pass", True, False, id="symbol-without-digit"),
        pytest.param("vergessen?", False, False, id="sentence-mark"),
        pytest.param("--disable-x", False, False, id="flag"),
        pytest.param("12345678", False, False, id="no-letter"),
        pytest.param("https://x.y/z1", False, False, id="url"),
        pytest.param("128-bit", False, False, id="unit"),
    ],
)
def test_strong(value: str, digit: bool, expected: bool) -> None:
    assert strong(value, digit=digit) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [("4711", True), ("4492#", True), ("12A45", True), ("GPIO4", False), ("17", False), ("ABCD", False)],
)
def test_keypad(value: str, expected: bool) -> None:
    assert keypad(value) is expected
