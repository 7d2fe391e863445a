"""The failures keyword search exists to fix: the AND-trap of natural questions and exact-value lookups."""

from __future__ import annotations

import pytest

from askvault.store.keyword.bm25 import Bm25Index
from askvault.store.text.tokenize import Tokenizer

SERVICES = ["plex", "jellyfin", "sonarr", "radarr", "nextcloud", "gitea", "grafana", "prometheus", "traefik", "pihole"]
KODI_ANSWER = (
    "Media Center › Kodi\n"
    "Every Sunday at 03:00 a script cleans the Kodi library, removes entries for missing files, "
    "and prunes the thumbnail cache so the Raspberry Pi does not run out of space."
)


def kodi_trap_corpus() -> list[tuple[str, str]]:
    """~230 chunks: `workflow` in 226 of them, `maintenance`, `what` and `does` in many, `kodi` in one.

    Most chunks talk about a "maintenance workflow" — the question's words — but none of them is about Kodi; the one
    that is about Kodi uses neither word. This is the vault where AND-style full-text search matched nothing."""
    docs: list[tuple[str, str]] = []
    for i in range(226):
        service = SERVICES[i % len(SERVICES)]
        if i % 2 == 0:
            text = (
                f"{service.title()} › Runbook {i}\nWhat does the {service} maintenance workflow do? The workflow "
                f"stops {service}, runs the maintenance steps, and starts it again. The maintenance workflow "
                f"logs to /var/log/{service}-{i}.log."
            )
        else:
            text = (
                f"Automation › Workflow {i}\nThis workflow does the weekly update of {service}. "
                f"What it does: pull the image, recreate the container, check the health endpoint."
            )
        docs.append((f"runbooks/{service}-{i}.md#0", text))
    docs.append(("media/kodi.md#0", KODI_ANSWER))
    docs.extend(
        (f"journal/2024-0{d}.md#0", f"Journal {d}\nWalked the dog, read a book about gardens.") for d in range(1, 4)
    )
    return docs


def test_kodi_question_ranks_the_kodi_chunk_first_despite_the_and_trap() -> None:
    tokenizer = Tokenizer()
    index = Bm25Index(tokenizer)
    docs = kodi_trap_corpus()
    index.rebuild(docs)
    question = "What does the Kodi maintenance workflow do?"

    terms = tokenizer.query_terms(question)
    assert terms == ["kodi", "mainten", "workflow"]
    # The trap is set: no chunk holds every term, so AND semantics would match nothing.
    assert not any(set(terms) <= set(tokenizer.tokenize(text)) for _, text in docs)

    result = index.search(question, limit=10)
    assert result.ranked[0].chunk_id == "media/kodi.md#0"
    stats = {s.term: s for s in result.terms}
    assert stats["kodi"].df == 1
    assert stats["workflow"].df == 226
    assert stats["mainten"].df == 113
    # The rare word outweighs the common ones put together.
    assert stats["kodi"].idf > stats["workflow"].idf + stats["mainten"].idf
    assert result.matched == 227


EXACT: list[tuple[str, str, str]] = [
    ("port", "which service uses port 5433", "db/postgres-16.md#ports"),
    ("random-id", "nANsCsF9gf975ojT", "auth/tokens.md#jellyfin"),
    ("random-id-lowercased", "where is nanscsf9gf975ojt used", "auth/tokens.md#jellyfin"),
    ("ip-address", "what runs on 10.0.0.5", "net/hosts.md#nas"),
    ("css-variable", "--background-primary", "theme/colors.md#primary"),
    ("css-variable-without-dashes", "what is background-primary set to", "theme/colors.md#primary"),
    ("version", "what changed in v1.2.3", "changelog.md#v1-2-3"),
    ("hostname", "nas.local", "net/hosts.md#nas"),
    ("path", "/etc/nginx/nginx.conf", "web/nginx.md#config"),
    ("filename", "nginx.conf", "web/nginx.md#config"),
    ("email", "alice@example.com", "people/alice.md#contact"),
]

EXACT_CORPUS = [
    ("db/postgres-15.md#ports", "Postgres 15 › Ports\nThe old cluster listens on port 5432 inside the container."),
    ("db/postgres-16.md#ports", "Postgres 16 › Ports\nThe new cluster listens on port 5433 so both can run."),
    ("db/backup.md#ports", "Backups › Ports\nThe backup agent talks to ports 54330 and 5434."),
    ("auth/tokens.md#jellyfin", "Tokens › Jellyfin\nAPI key id nANsCsF9gf975ojT, rotated in March."),
    ("auth/tokens.md#sonarr", "Tokens › Sonarr\nAPI key id nANsCsF9gf975ojU, rotated in April."),
    ("auth/tokens.md#radarr", "Tokens › Radarr\nAPI key id xQ7pLmN2vB8cZkRt, rotated in May."),
    ("net/hosts.md#nas", "Hosts › NAS\nThe NAS is nas.local at 10.0.0.5 and serves SMB shares."),
    (
        "net/hosts.md#router",
        "Hosts › Router\nThe router is router.local at 10.0.0.1; DHCP hands out 10.0.0.50 to 10.0.0.99.",
    ),
    ("net/hosts.md#pi", "Hosts › Pi\nThe Pi is pi.local at 10.0.0.6 and runs Pi-hole for the local network."),
    ("theme/colors.md#primary", "Colors › Primary\nSet --background-primary to #1e1e2e for the dark theme."),
    (
        "theme/colors.md#secondary",
        "Colors › Secondary\nSet --background-secondary to #181825; the primary text is white.",
    ),
    ("theme/colors.md#alt", "Colors › Alt\n--background-primary-alt is used for hover states of primary buttons."),
    ("changelog.md#v1-2-3", "Changelog › v1.2.3\nFixed the sync loop; the API now returns 429 when busy."),
    ("changelog.md#v1-2-4", "Changelog › v1.2.4\nAdded dark mode; v1.2 branch is now in maintenance."),
    (
        "changelog.md#v2-0-0",
        "Changelog › v2.0.0\nBreaking: config moved; what changed is listed in the v1 to v2 guide.",
    ),
    ("web/nginx.md#config", "Nginx › Config\nThe main file is /etc/nginx/nginx.conf; sites live in sites-enabled."),
    ("web/nginx.md#logs", "Nginx › Logs\nAccess logs go to /var/log/nginx/access.log and rotate daily."),
    ("web/caddy.md#config", "Caddy › Config\nThe Caddyfile lives in /etc/caddy; nginx is no longer used here."),
    ("people/alice.md#contact", "Alice › Contact\nMail alice@example.com for access to the family photos."),
    ("people/bob.md#contact", "Bob › Contact\nMail bob@example.com; Alice handles photo access requests."),
]


@pytest.mark.parametrize(("query", "expected"), [(q, e) for _, q, e in EXACT], ids=[i for i, _, _ in EXACT])
def test_exact_values_rank_the_right_chunk_first(query: str, expected: str) -> None:
    index = Bm25Index(Tokenizer())
    index.rebuild(EXACT_CORPUS)
    ranked = index.search(query, limit=5).ranked
    assert ranked[0].chunk_id == expected
    if len(ranked) > 1:
        # First by a margin, not by a tie-break on chunk order.
        assert ranked[0].score > ranked[1].score
