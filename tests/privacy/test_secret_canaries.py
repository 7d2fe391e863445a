"""The secrets the held-out set leaked (annotated recovery codes, prose passwords) and the new kinds never surface:
not in search (any mode), answers, Ollama requests, index files or logs; the notes on disk stay as written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from askvault.config import load_config
from askvault.wiring import open_engine
from tests.conftest import RunningOllama
from tests.privacy.canary_vault import (
    ask_everything,
    assert_no_canary_anywhere,
    debug_logs,
    search_everything,
    sent_to_ollama,
)

pytestmark = pytest.mark.slow

# canary → the rule that keeps it out
CANARIES = {
    "4kf9-2mzq": "recovery code with a note after it",
    "7hd2-0pqa": "recovery code followed by a struck-through word",
    "9xk2-1bbb": "recovery code followed by any word",
    "Kaffee-Bohne42": "a password in a sentence",
    "Sonnenblume#7": "a password in a German sentence",
    "R3dis-Pa55w0rd": "credentials in a URL",
    "JBSWY3DPEHPK3PXP": "an otpauth URI",
    "s0m3-l0ng-r4nd0m": "an .env line whose key names a secret",
    "mother subject brand": "a seed phrase",
}
NOTES = {
    "Accounts/GitHub.md": (
        "# GitHub\n\nThe lantern account, with 2FA.\n\n## Recovery codes\n\n"
        "- 4kf9-2mzq (used in May)\n- 7hd2-0pqa ~~used~~\n- 9xk2-1bbb spare\n\n"
        "2FA app: otpauth://totp/GitHub:me?secret=JBSWY3DPEHPK3PXP&issuer=GitHub\n"
    ),
    "Home/Wifi.md": (
        "# Wifi\n\nWifi password is Kaffee-Bohne42 for the lantern network.\n\n"
        "Das WLAN-Passwort ist Sonnenblume#7 im Gästenetz.\n"
    ),
    "Homelab/Cache.md": (
        "# Cache\n\nThe lantern cache: redis://:R3dis-Pa55w0rd@redis.lan:6379/0\n\n"
        "```env\nN8N_ENCRYPTION_KEY=s0m3-l0ng-r4nd0m\nN8N_PORT=5678\n```\n"
    ),
    "Crypto/Wallet.md": (
        "# Wallet\n\nLantern cold storage.\n\nSeed phrase:\n"
        "mother subject brand rally fitness water grab salon urban inside undo miracle\n"
    ),
}
QUESTIONS = ["What are my GitHub recovery codes?", "What is the wifi password?", "What is the lantern seed phrase?"]


async def test_the_leaked_classes_and_the_new_kinds_never_surface(
    tmp_path: Path, fake_ollama: RunningOllama, caplog: pytest.LogCaptureFixture
) -> None:
    debug_logs(caplog)
    vault = tmp_path / "vault"
    for rel, text in NOTES.items():
        (vault / rel).parent.mkdir(parents=True, exist_ok=True)
        (vault / rel).write_text(text, encoding="utf-8")
    data = tmp_path / "data"
    config = load_config({"vault": str(vault), "data_dir": str(data), "ollama_url": fake_ollama.url}, {})
    async with open_engine(config) as engine:
        report = await engine.indexer.run()
        answers = await ask_everything(engine, QUESTIONS)
        ollama = sent_to_ollama(fake_ollama)
        results = await search_everything(engine, [*QUESTIONS, *CANARIES, "lantern", "used in May", "spare"])
        status = json.dumps(report.to_json())
    assert report.redactions["by_kind"] == {
        "env-secret": 1,
        "otpauth": 1,
        "password": 2,
        "recovery-codes": 3,
        "seed-phrase": 1,
        "url-credentials": 1,
    }
    assert "(used in May)" in results  # the annotation stays searchable, only the code is gone
    assert "N8N_PORT=5678" in results
    assert_no_canary_anywhere(
        CANARIES,
        surfaces={"search": results, "answers": answers, "ollama requests": ollama, "report": status},
        data_dir=data,
        caplog=caplog,
    )
    assert {rel: (vault / rel).read_text(encoding="utf-8") for rel in NOTES} == NOTES
