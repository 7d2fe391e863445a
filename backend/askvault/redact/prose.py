"""Passwords written in sentences and shorthand: "Wifi password is …", "Passwort für das NAS lautet …", "la
contraseña del router es …", "pw …", "PIN 4711", "user admin pass …", "Zugangsdaten: admin / …".

Unlike a `password: value` line, a sentence names its value less clearly, so what follows the connector must
look like the secret rather than like more prose: a quoted value; a token with a digit or a symbol; a single
word that is not a state ("… is expired", "… ist abgelaufen", "… est correct"); or, at the end of the
sentence, a run of three or more plain words (a passphrase). Shorthand without a connector ("pw …", "pass …")
takes only password-shaped tokens (letters with digits or symbols), and "pass" only on a line that names a
user or a login: "Boarding pass 12B" is a seat. Patterns are RE2 (linear time); the checks run on one match.
"""

from __future__ import annotations

import re

from askvault.redact.candidates import PASSWORD, plausible, unquote
from askvault.redact.spans import Finding, compile_rule, examined
from askvault.redact.words import PASS_NOUNS, SENTENCE_WORDS, STATES, UNITS

_KEYPADS = (
    r"(?:pin|puk)[ \-]?(?:code|nummer|number)|pin|puk|code pin|c[oó]digo pin|digicode|(?:unlock|entsperr)[ \-]?code"
    r"|code de d[ée]verrouillage|c[oó]digo de desbloqueo"
    r"|(?:door|gate|alarm|garage|safe|locker|entry|keypad|tür|haustür|tor|tresor|garagen)[ \-]?code"
    r"|(?:the[ \t]+|der[ \t]+|le[ \t]+|el[ \t]+)?(?:code|c[oó]digo)[ \t]+(?:for|of|to|f[üu]rs?|vom|von|zum|zur|der"
    r"|des|de|du|del|pour|para)[ \t]+[^\n.,;:!?=]{0,20}?(?:door|gate|alarm|garage|safe|locker|keypad|building"
    r"|entrance|tür|haustür|tor|tresor|alarmanlage|porte|portail|alarme|coffre|puerta|portal|alarma|caja fuerte)"
)
"""Keys whose value is what a keypad takes (`PIN`, door and alarm codes); any case, since only digits count."""
_KEYS = (
    r"passwor[dt]|passwd|passphrase|passcode|kennwort|wachtwoord|senha|contrase(?:ñ|n)a|mot de passe|mdp"
    r"|clave (?:(?:del|de la|de) )?(?:wifi|wi-fi|wpa2?|router|red|acceso)|pwd|pw"
    rf"|(?:wifi|wi-fi|wlan|wpa2?|network|netzwerk)[ \-]?(?:key|schlüssel)|cl[ée] (?:wifi|wi-fi|wpa2?)|{_KEYPADS}"
)
_DEVICE = (
    r"(?:[ \t]+(?:wifi|wi-fi|wlan|router|nas|box|modem|server|laptop|pc|phone|handy|e-?mail|mail|account|konto"
    r"|admin|root|guest|gast|invit[ée]|invitado|vpn|db|database|datenbank|r[ée]seau|red|netzwerk|network|home"
    r"|heim|casa|maison))?"
)
"""A bare noun between key and connector: "Le mot de passe wifi est …", "contraseña wifi …"."""
_QUALIFIER = (
    r"(?:[ \t]+(?:for|of|on|to|f[üu]r|f[üu]rs|f[üu]r's|vom|von|zum|zur|beim|im|am|des|der|du|de|de la|pour|del"
    r"|para|da|do)[ \t]+[^\n.,;:!?=\"`]+?)?"
)
_NOW = r"(?:[ \t]+(?:now|still|currently|jetzt|nun|noch|maintenant|toujours|ahora|todav[ií]a|actualmente))?"
# The change forms come first: RE2 takes the first alternative that matches, and "was" alone would end at
# "changed", a word the value check then refuses.
_CONNECTOR = (
    r"(?:(?:[ \t]+(?:has been|have been|was|got|is|wurde|ist|a [ée]t[ée]|fue|ha sido))?[ \t]+(?:changed|set|reset"
    r"|updated|ge[äa]ndert|gesetzt|chang[ée]e?|modifi[ée]e?|cambiad[ao]|actualizad[ao])[ \t]+(?:to|auf|zu|in|en|à|a)"
    rf"|[ \t]+(?:is|was|reads|ist|lautet|war|est|c'est|es|era|è){_NOW}[ \t]*:?"
    r"|[ \t]*(?:->|→|=>|=|:)|[ \t]+(?P<dash>[-–—]))"
)
_VALUE = r"(?P<value>\"[^\"\n]{1,200}\"|'[^'\n]{1,200}'|`[^`\n]{1,200}`|\*\*[^*\n]{1,200}\*\*|[^\s]{1,200})"
PROSE = (
    rf"(?mi)(?:^|[^\pL\d_])(?P<key>{_KEYS}){_DEVICE}{_QUALIFIER}{_CONNECTOR}[ \t]+{_VALUE}"
)  # fmt: skip
SHORTHAND = (
    r"(?mi)(?:^|[\s(\[,;/|\-])(?P<key>pw|pwd|pass|passwor[dt]|kennwort|mot de passe|mdp|contrase(?:ñ|n)a|clave"
    rf"|{_KEYPADS}){_DEVICE}(?:[ \t]*:[ \t]*|[ \t]+)(?P<value>[^\s]{{3,200}})"
)
_LOGIN = (
    r"logins?|credentials|creds|zugangsdaten|anmeldedaten|zugang|identifiants|credenciales|datos de acceso"
    r"|(?:user(?:name)?|benutzer(?:name)?|usuario|utilisateur|login)[ \t]*/[ \t]*"
    r"(?:pass(?:word)?|pw|pwd|passwort|kennwort|contrase(?:ñ|n)a|mot de passe|mdp)"
)
_MARKUP = r"(?:\*\*|`)?"
PAIR = (
    rf"(?mi)(?:^|[^\pL\d_\-])(?P<key>{_LOGIN})(?:[ \t]+[^\n:=]+?)?[ \t]*[:=][ \t]*{_MARKUP}"
    r"(?P<user>[^\s/:|,`*]+)(?P<sep>[ \t]*/[ \t]*|[ \t]*\|[ \t]*|:|[ \t]*,[ \t]*)(?P<value>[^\s]{1,200})"
)  # fmt: skip

# "Netflix: anna@example.com / Movie2024!": an account's address, then its password (not `git@host:path`).
EMAIL_PAIR = (
    r"(?m)(?:^|[\s(:|])[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}"
    r"[ \t]*[/|][ \t]*(?P<value>[^\s]{3,200})"
)
# "Mot de passe Netflix : …", "Passwort Router: …": a key, a word or two naming what it opens, a colon.
NAMED = (
    r"(?mi)(?:^|[\s(\[,;/|\-])(?P<key>pw|pwd|passwor[dt]|kennwort|mot de passe|mdp|contrase(?:ñ|n)a|clave)"
    r"(?:[ \t]+[^\s:=|]+){1,2}[ \t]*:[ \t]*(?P<value>[^\s]{3,200})"
)
_PROSE, _SHORTHAND, _PAIR = compile_rule(PROSE), compile_rule(SHORTHAND), compile_rule(PAIR)
_NAMED = compile_rule(NAMED)
_N_KEY, _N_VALUE = _NAMED.groupindex["key"], _NAMED.groupindex["value"]
_EMAIL_PAIR = compile_rule(EMAIL_PAIR)
_E_VALUE = _EMAIL_PAIR.groupindex["value"]
_P_KEY, _P_VALUE = _PROSE.groupindex["key"], _PROSE.groupindex["value"]
_P_DASH = _PROSE.groupindex["dash"]
_KEYPAD_KEY = re.compile(rf"(?i)(?:{_KEYPADS})")
_S_KEY, _S_VALUE = _SHORTHAND.groupindex["key"], _SHORTHAND.groupindex["value"]
_L_KEY, _L_SEP, _L_VALUE = _PAIR.groupindex["key"], _PAIR.groupindex["sep"], _PAIR.groupindex["value"]
_L_USER = _PAIR.groupindex["user"]
_MAX_BETWEEN = 64
"""Characters between a key and its value (the windows are measured here, not in the patterns: a bounded
repeat multiplies an RE2 DFA's states; see `passwords.py`)."""


_UNIT = re.compile(r"\d+[ \-]?(?:bit|bits|char|chars|characters|zeichen|stellen|stellig|digits|caract[eè]res)")
_SENTENCE_END = re.compile(r"[.;,!?()]|\s[-–—]\s")
_WORD = re.compile(r"\S+")
_PLAIN = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")
# "user admin pass …", "login: paul, pass …", "admin / pass …": a user named right before `pass`.
_CREDENTIAL_CONTEXT = re.compile(
    r"(?i)(?:\b(?:user(?:name)?|login|benutzer(?:name)?|usuario|utilisateur|identifiant|account|konto|ssid|e-?mail"
    r"|mail)\b[ \t]*[:=]?[ \t]*(?P<who>[^\s,;/|]+)[ \t]*[,;/|]?|[/,])[ \t]*$"
)
_SHORT_KEYS = frozenset({"pw", "pwd", "pass"})
_PHRASE_CHARS = 200
"""How far after a value's first word a passphrase may run (within its line)."""
_CONTEXT = 120
"""Characters before `pass` searched for the user it belongs to."""
_KEYPAD = re.compile(r"[0-9A-Da-d#*]{4,12}")
"""What a keypad takes: digits, `A`-`D`, `#` and `*`."""
_SYMBOLS = frozenset("!@#$%^&*+=?~§€£<>[]{}\\|/.:;-_")


def strong(value: str, *, digit: bool = False) -> bool:
    """Shaped like a password rather than a word: six or more characters, letters with a digit or (unless
    `digit`) a symbol inside; a sentence's own `?` at the end, `*markup*` and `--flags` do not count."""
    core = value.rstrip(".,;:!?")
    if len(core) < 6 or not any(ch.isalpha() for ch in core) or "://" in value or core.startswith("-"):
        return False
    if _UNIT.fullmatch(core.lower()):
        return False
    return any(ch.isdigit() for ch in core) or (not digit and any(ch in _SYMBOLS for ch in core[1:-1]))


def _user_named(before: str) -> bool:
    match = _CREDENTIAL_CONTEXT.search(before)
    if match is None:
        return False
    who = match.group("who")
    return who is None or who.lower() not in SENTENCE_WORDS


def keypad(value: str) -> bool:
    """What a keypad takes: four to twelve digits, `A`-`D`, `#` and `*`, at least three of them digits."""
    return _KEYPAD.fullmatch(value) is not None and sum(ch.isdigit() for ch in value) >= 3


def _trim_end(text: str, start: int, end: int) -> int:
    while end > start + 1 and text[end - 1] in ".,;:)":
        if text[end - 1] == ")" and "(" in text[start:end]:
            break
        end -= 1
    return end


def _sentence_value(text: str, start: int, end: int, rest_end: int) -> tuple[int, int] | None:
    """The span of a prose value: the token itself, or a passphrase of plain words to the sentence's end."""
    token_end = end
    start, end = unquote(text, start, end)
    quoted = start > 0 and text[start - 1] in "\"'`*"
    end = end if quoted else _trim_end(text, start, end)
    value = text[start:end]
    if end <= start or not plausible(value) or _UNIT.fullmatch(value.lower()):
        return None
    if quoted or not _PLAIN.fullmatch(value):
        return start, end
    cut = _SENTENCE_END.search(text, token_end, rest_end)
    following = [] if end < token_end else list(_WORD.finditer(text, token_end, cut.start() if cut else rest_end))
    if following and following[0].group().lower() in UNITS:
        return None
    phrase_end, count = end, 1
    for word in following:
        low = word.group().lower()
        if not _PLAIN.fullmatch(low) or low in SENTENCE_WORDS or low in STATES:
            break
        phrase_end, count = word.end(), count + 1
    low = value.lower()
    participle = low.endswith(("ed", "ing", "ly", "é", "ée", "és")) and len(low) >= 5
    if count <= 2 and (low in STATES or participle):
        return None
    if 3 <= count <= 8 and count == len(following) + 1:
        return start, phrase_end
    return start, end


def _prose(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_PROSE.finditer(text), found, PASSWORD, len(text)):
        if match.start(_P_VALUE) - match.end(_P_KEY) > _MAX_BETWEEN:
            continue
        if _KEYPAD_KEY.fullmatch(match.group(_P_KEY)) is not None:
            start, end = match.span(_P_VALUE)
            start, end = unquote(text, start, _trim_end(text, start, end))
            if keypad(text[start:end]):
                found.append(Finding(PASSWORD, start, end))
            continue
        start, end = match.span(_P_VALUE)
        if match.start(_P_DASH) >= 0 and not (text[start] in "\"'`*" or strong(text[start:end])):
            continue  # "Passwords – best practices" is a title; after a dash only a password-shaped value counts
        line_end = text.find("\n", end, end + _PHRASE_CHARS)
        span = _sentence_value(text, start, end, min(len(text), end + _PHRASE_CHARS) if line_end < 0 else line_end)
        if span is not None:
            found.append(Finding(PASSWORD, *span))
    return found


def _shorthand(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_SHORTHAND.finditer(text), found, PASSWORD, len(text)):
        key = match.group(_S_KEY)
        start, end = match.span(_S_VALUE)
        start, end = unquote(text, start, _trim_end(text, start, end))
        value = text[start:end]
        if _KEYPAD_KEY.fullmatch(key) is not None:
            ok = keypad(value)
        else:
            short = key.casefold() in _SHORT_KEYS
            ok = strong(value, digit=not short) and plausible(value)
            if key.casefold() == "pass":
                key_start = match.start(_S_KEY)
                floor = max(0, key_start - _CONTEXT)
                before = text[max(floor, text.rfind("\n", floor, key_start) + 1) : key_start]
                colon = ":" in text[match.end(_S_KEY) : match.start(_S_VALUE)]
                noun = before.split()[-1].lower() if before.split() else ""
                ok = ok and ((colon and noun not in PASS_NOUNS) or _user_named(before))
        if ok:
            found.append(Finding(PASSWORD, start, end))
    return found


def _pairs(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_PAIR.finditer(text), found, PASSWORD, len(text)):
        if match.start(_L_USER) - match.end(_L_KEY) > _MAX_BETWEEN or match.end(_L_USER) - match.start(_L_USER) > 80:
            continue
        start, end = match.span(_L_VALUE)
        start, end = unquote(text, start, _trim_end(text, start, end))
        value = text[start:end]
        names_password = "/" in match.group(_L_KEY)
        if match.group(_L_SEP) == ":" and value.isdigit():
            continue  # host:port
        if plausible(value) and (strong(value) or (names_password and len(value) >= 3)):
            found.append(Finding(PASSWORD, start, end))
    return found


def _named(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_NAMED.finditer(text), found, PASSWORD, len(text)):
        if match.start(_N_VALUE) - match.end(_N_KEY) > _MAX_BETWEEN:
            continue
        start, end = match.span(_N_VALUE)
        start, end = unquote(text, start, _trim_end(text, start, end))
        short = match.group(_N_KEY).casefold() in _SHORT_KEYS
        if strong(text[start:end], digit=not short) and plausible(text[start:end]):
            found.append(Finding(PASSWORD, start, end))
    return found


def _email_pairs(text: str) -> list[Finding]:
    found: list[Finding] = []
    for match in examined(_EMAIL_PAIR.finditer(text), found, PASSWORD, len(text)):
        start, end = match.span(_E_VALUE)
        start, end = unquote(text, start, _trim_end(text, start, end))
        if strong(text[start:end]) and plausible(text[start:end]):
            found.append(Finding(PASSWORD, start, end))
    return found


def find_prose_passwords(
    text: str, *, prose: bool, shorthand: bool, pair: bool, email_pair: bool = False, named: bool = False
) -> list[Finding]:
    """Password findings of the forms the caller's prefilter saw (each flag: that pattern matched somewhere)."""
    found: list[Finding] = []
    if named:
        found.extend(_named(text))
    if email_pair:
        found.extend(_email_pairs(text))
    if prose:
        found.extend(_prose(text))
    if shorthand:
        found.extend(_shorthand(text))
    if pair:
        found.extend(_pairs(text))
    return found
