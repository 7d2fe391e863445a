"""The words the password rules read a value by (English, German, French, Spanish): stand-ins, pointers to
where a secret is kept, states a sentence gives instead of a secret, and the small words of sentences."""

from __future__ import annotations


def _words(*parts: str) -> frozenset[str]:
    return frozenset(" ".join(parts).split())


# Values that stand in for a secret, and first words of a value that point to where it is kept.
PLACEHOLDERS = _words(
    "true false null none nil yes no ja nein n/a na tbd todo xxx xxxx *** ... … - ? changeme required optional",
    "redacted hidden geheim secret password passwort str string int bool boolean number bytes any object",
)
POINTERS = _words(
    "see siehe in im auf on at stored saved kept gespeichert hinterlegt liegt from via use uses nutze unter -> →",
    "=> managed set changed geändert reset rotated required erforderlich not nicht kein keine no the der die das",
    "is ist was war will wird must muss should same gleich ask below above unten oben here hier bitwarden",
    "vaultwarden 1password keepass keepassxc lastpass keychain schlüsselbund pass passbolt",
    "voir dans sur chez sous cf ici là-bas ver véase en está esta guardada guardado dentro aquí please ask bitte",
    "frag fragen erfragen demander demande preguntar pregunta",
)
SENTENCE_WORDS = _words(
    "for on in at and or but because so if when from to by with of as than then like are be been have has do",
    "does can will would und oder aber für auf im am mit von bei beim wie als wenn weil dann sind sein haben",
    "et ou mais pour sur dans avec de du des quand que comme sont être y o pero para en con cuando como son",
    "each every per all any some jeder jede jedes alle chaque tous toutes cada todos todas",
    "the a an der die das den dem ein eine einen la le les un une el los las lo una under behind near inside",
    "outside above below unter hinter neben über sous chez derrière bajo entre detrás",
)
"""Words of a sentence, not of a passphrase ("… is written under the box"); `prose.py` stops a value there."""

STATES = _words(
    "expired wrong incorrect correct required mandatory optional weak strong long short simple complex easy hard",
    "secure insecure safe unsafe invalid valid same different identical unchanged changed set reset saved stored",
    "written printed known unknown empty blank missing lost forgotten encrypted hashed random generated managed",
    "synced shared default outdated old new too very still also only just now not never always case-sensitive",
    "case displayed shown visible hidden taped stuck a an my your our their his her its this that these those it what",
    "which something somewhere there here below above needed necessary enough fine ok okay good bad compromised",
    "leaked rotated due unique personal private public temporary individual numeric alphanumeric",
    "abgelaufen falsch richtig korrekt erforderlich nötig notwendig schwach stark lang kurz einfach sicher",
    "unsicher ungültig gültig gleich identisch derselbe dieselbe dasselbe geändert gesetzt zurückgesetzt",
    "gespeichert hinterlegt notiert aufgeschrieben bekannt unbekannt leer vergessen verloren verschlüsselt",
    "zufällig generiert alt neu zu sehr noch auch nur jetzt nicht nie immer ein eine einen mein meine dein",
    "deine unser sein ihr dort hier unten oben abgelegt geheim persönlich privat",
    "expiré expirée faux fausse incorrect obligatoire requis faible fort forte court courte sécurisé identique",
    "même changé modifié enregistré noté inconnu vide oublié perdu chiffré aléatoire ancien nouveau trop très",
    "encore aussi seulement maintenant pas jamais toujours le les une mon ma mes ton ta son sa notre votre ici",
    "caducada caducado incorrecta incorrecto correcta correcto obligatoria requerida débil fuerte larga corta",
    "segura seguro igual misma mismo cambiada guardada anotada desconocida vacía olvidada perdida cifrada",
    "aleatoria antigua nueva demasiado muy todavía también solo ahora nunca siempre el los las mi mis tu su",
    "écrit écrite inscrit imprimé affiché indiqué stocké sauvegardé rangé collé geschrieben gedruckt aufgedruckt",
    "angegeben vermerkt aufgeklebt escrita escrito pegada impresa apuntada indicada",
)
"""What a sentence says about a password instead of giving it (English, German, French, Spanish)."""
UNITS = _words("characters chars digits letters words zeichen stellen ziffern buchstaben caractères chiffres")
"""After a number, what makes it a length ("16 characters"), not a PIN."""
PASS_NOUNS = _words(
    "boarding bus day ski season museum hall backstage press vip mountain train rail gym transit festival weekly",
    "monthly annual guest park parking visitor first second third final free",
)
"""Words before `pass:` that make it a ticket or a stage, not a password."""
