"""CJK notes on the real engine: the keyword leg finds them by character bigrams, and hybrid keeps that leg."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from askvault.model import SearchMode
from askvault.wiring import Engine
from tests.conftest import RunningOllama
from tests.engine_helpers import engine_config, indexed_engine, paths

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIXTURE = Path(__file__).parent.parent / "fixtures" / "cjk-vault"

QUESTIONS: list[tuple[str, str, str]] = [
    ("zh-backup-failed", "服务器备份失败怎么办", "中文/服务器备份.md"),
    ("zh-braised-pork", "红烧肉要炖多久", "中文/红烧肉.md"),
    ("zh-tokyo-tower", "东京塔", "中文/东京旅行.md"),
    ("ja-curry", "カレーの作り方", "日本語/カレーの作り方.md"),
    ("ja-dentist", "歯医者の予約はいつ", "日本語/歯医者の予約.md"),
    ("ja-kinkakuji", "金閣寺", "日本語/京都旅行.md"),
    ("ko-kimchi-stew", "김치찌개 끓이는 법", "한국어/김치찌개.md"),
    ("ko-team-meeting", "팀 회의는 언제", "한국어/팀 회의.md"),
    ("ko-fish-market", "자갈치 시장", "한국어/부산 여행.md"),
]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def engine(tmp_path_factory: pytest.TempPathFactory, module_ollama: RunningOllama) -> AsyncIterator[Engine]:
    root: Path = tmp_path_factory.mktemp("cjk")
    shutil.copytree(FIXTURE, root / "vault")
    (root / "vault" / ".obsidian").mkdir()
    async with indexed_engine(engine_config(root / "vault", root / "data", module_ollama.url)) as opened:
        yield opened


async def test_every_note_is_indexed_in_its_language(engine: Engine) -> None:
    languages = {chunk.path: chunk.language for chunk in engine.catalog.snapshot().values()}
    assert {path.split("/")[0]: language for path, language in languages.items()} == {
        "中文": "zh",
        "日本語": "ja",
        "한국어": "ko",
        "Inbox.md": "en",
        "README.md": "en",
    }


@pytest.mark.parametrize(("question", "note"), [q[1:] for q in QUESTIONS], ids=[q[0] for q in QUESTIONS])
async def test_a_cjk_keyword_question_finds_its_note(engine: Engine, question: str, note: str) -> None:
    result = await engine.searcher.search(question, 3, mode="keyword")
    assert paths(result)[0] == note


@pytest.mark.parametrize("mode", ["hybrid", "keyword"])
@pytest.mark.parametrize(("question", "note"), [q[1:] for q in QUESTIONS], ids=[q[0] for q in QUESTIONS])
async def test_hybrid_keeps_the_keyword_leg_on_cjk_text(
    engine: Engine, question: str, note: str, mode: SearchMode
) -> None:
    """The fake embedder, like a weak real one on CJK, barely tells these notes apart; before bigrams the keyword
    leg matched nothing on them (a whole clause was one term), and hybrid was dense-only without saying so."""
    result = await engine.searcher.search(question, 3, mode=mode)
    assert result.counts["keyword"] > 0
    assert any(term.df > 0 for term in result.terms)
    first = result.hits[0]
    assert (first.chunk.path, first.keyword_rank) == (note, 1)
