"""The answer metrics: sentences and their citations, stated values, declines, grounding and the summary."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from askvault.evaluate.answer_metrics import (
    AnswerScore,
    Outcome,
    answer_sentences,
    cited_sentence_share,
    declines,
    score_answer,
    sentence_citations,
    states_value,
    summarise_answers,
)


@pytest.mark.parametrize(
    ("answer", "sentences"),
    [
        pytest.param("Postgres listens on 5433 [1].", ["Postgres listens on 5433 [1]."], id="one"),
        pytest.param("Port 5433. [1]", ["Port 5433. [1]"], id="citation-after-the-full-stop"),
        pytest.param("A [1]. B. C [2][3].", ["A [1].", "B.", "C [2][3]."], id="three"),
        pytest.param("- one [1]\n- two\n1. three [2]", ["- one [1]", "- two", "three [2]"], id="list-items"),
        pytest.param("Use `arr[1]` here.", ["Use          here."], id="code-blanked"),
        pytest.param("```\nx = [1]\n```\nDone [2].", ["Done [2]."], id="fence-dropped"),
        pytest.param("[1]", [], id="citation-alone-has-no-sentence"),
        pytest.param("", [], id="empty"),
        pytest.param("— 42 —", [], id="no-letters"),
        pytest.param("Is it 5.5 GB? Yes [1]!", ["Is it 5.5 GB?", "Yes [1]!"], id="decimal-not-a-stop"),
    ],
)
def test_answer_sentences(answer: str, sentences: list[str]) -> None:
    assert answer_sentences(answer) == sentences


@pytest.mark.parametrize(
    ("answer", "share"),
    [
        pytest.param("A [1]. B. C [2].", 2 / 3, id="two-of-three"),
        pytest.param("Port 5433. [1]", 1.0, id="trailing-citation-counts"),
        pytest.param("Port 5433 [1", 0.0, id="half-a-marker"),
        pytest.param("Use `arr[1]` for it.", 0.0, id="code-is-no-citation"),
        pytest.param("Stray [12] still a marker.", 1.0, id="unsent-number-is-still-a-marker"),
        pytest.param("", None, id="no-sentences"),
    ],
)
def test_cited_sentence_share(answer: str, share: float | None) -> None:
    assert cited_sentence_share(answer) == share


@pytest.mark.parametrize(
    ("answer", "cited"),
    [
        pytest.param("Port 5433 [1]. Nightly [2].", {1, 2}, id="on-sentences"),
        pytest.param("Port 5433.\n\n[1]", {1}, id="on-the-line-below"),
        pytest.param("1. [1]\n2. [2]\n3. [3]", set(), id="a-list-of-bare-markers"),
        pytest.param("Use `x[2]` [1].", {1}, id="not-in-code"),
    ],
)
def test_sentence_citations(answer: str, cited: set[int]) -> None:
    assert sentence_citations(answer) == cited


@pytest.mark.parametrize(
    ("answer", "values", "stated"),
    [
        pytest.param("Postgres is on port 5433 [1].", ["5433"], True, id="plain"),
        pytest.param("It is 54330.", ["5433"], False, id="inside-a-longer-number"),
        pytest.param("Since 2025.", ["25"], False, id="inside-a-year"),
        pytest.param("Channel 25, because…", ["25"], True, id="short-value-as-a-token"),
        pytest.param("The accent is #E0A458.", ["#e0a458"], True, id="case-aside"),
        pytest.param("container `pg-main`", ["pg-main"], True, id="in-code"),
        pytest.param("pg-mainline", ["pg-main"], False, id="longer-name"),
        pytest.param("It is the Kodi\nmaintenance workflow", ["Kodi maintenance"], True, id="wrapped"),
        pytest.param("nothing here", ["5433", "pg-main"], False, id="none-of-them"),
        pytest.param("port 8222", ["5433", "8222"], True, id="any-of-them"),
    ],
)
def test_states_value(answer: str, values: list[str], stated: bool) -> None:
    assert states_value(answer, values) is stated


@pytest.mark.parametrize(
    ("answer", "declined"),
    [
        pytest.param("The notes do not cover this.", True, id="do-not-cover"),
        pytest.param("The sources don’t mention a licence plate.", True, id="curly-apostrophe"),
        pytest.param("Your notes don't seem to contain that.", True, id="seem-to"),
        pytest.param("That is not mentioned in the sources.", True, id="not-mentioned"),
        pytest.param("There is no information about Plex.", True, id="no-information"),
        pytest.param("I couldn't find that in your notes.", True, id="could-not-find"),
        pytest.param("I don't know.", True, id="do-not-know"),
        pytest.param("Das steht nicht in den Notizen; keine Angaben dazu.", True, id="german"),
        pytest.param("Postgres listens on 5433 [1].", False, id="an-answer"),
        pytest.param("It does not restart on its own [1].", False, id="a-negative-statement"),
    ],
)
def test_declines(answer: str, declined: bool) -> None:
    assert declines(answer) is declined


def _score(
    outcome: Outcome = "answered",
    answer: str = "Port 5433 [1].",
    citations: Sequence[int] = (1,),
    invalid: Sequence[int] = (),
    evidence: Mapping[int, bool] | None = None,
    answerable: bool = True,
    values: Sequence[str] = (),
    model: str = "m",
    type_: str = "exact_value",
    question_id: str = "q",
) -> AnswerScore:
    return score_answer(
        question_id=question_id,
        type=type_ if answerable else "negative",
        model=model,
        answerable=answerable,
        values=values,
        outcome=outcome,
        answer=answer,
        citations=citations,
        invalid_citations=invalid,
        sent_evidence={1: True, 2: False} if evidence is None else evidence,
        total_s=1.0,
        prompt_tokens=100,
        completion_tokens=10,
    )


@pytest.mark.parametrize(
    ("score", "expected"),
    [
        pytest.param(_score(), (True, True, True, None, False), id="grounded"),
        pytest.param(_score(citations=(2,)), (True, False, True, None, False), id="cites-the-wrong-source"),
        pytest.param(_score(citations=()), (True, False, True, None, False), id="cites-nothing"),
        pytest.param(_score(citations=(1,), invalid=(12,)), (False, True, True, None, False), id="stray-unsent-number"),
        pytest.param(_score(values=["5433"]), (True, True, True, True, False), id="value-stated"),
        pytest.param(_score(values=["8222"]), (True, True, True, False, False), id="value-missed"),
        pytest.param(
            _score(evidence={1: False, 2: False}), (True, False, False, None, False), id="evidence-never-sent"
        ),
        pytest.param(
            _score("abstained", "Your notes don't seem to cover this", (), (), {}),
            (None, None, None, None, True),
            id="abstained",
        ),
        pytest.param(
            _score(answer="The notes do not say.", citations=(), answerable=False),
            (True, None, None, None, True),
            id="negative-declined",
        ),
        pytest.param(
            _score(answerable=False), (True, None, None, None, False), id="negative-answered-from-other-notes"
        ),
        pytest.param(_score("error", "Port", (), (), {}), (None, None, None, None, False), id="error"),
    ],
)
def test_score_answer(
    score: AnswerScore, expected: tuple[bool | None, bool | None, bool | None, bool | None, bool]
) -> None:
    assert (score.citations_valid, score.grounded, score.evidence_sent, score.value_stated, score.declined) == expected


@pytest.mark.parametrize(
    ("score", "grounded", "every", "sentence"),
    [
        pytest.param(_score(), True, False, True, id="one-cited-statement"),
        pytest.param(_score(answer="1. [1]\n2. [2]", citations=(1, 2)), False, True, False, id="bare-markers"),
        pytest.param(_score(answer="Port 5433 [1][2].", citations=(1, 2)), True, True, True, id="cites-all"),
        pytest.param(_score(evidence={1: True}), True, None, True, id="one-source-sent"),
        pytest.param(_score("abstained", "", (), (), {}), None, None, None, id="abstained"),
    ],
)
def test_bare_and_shotgun_citations(
    score: AnswerScore, grounded: bool | None, every: bool | None, sentence: bool | None
) -> None:
    assert (score.grounded, score.cites_every_source, score.has_sentence) == (grounded, every, sentence)


def test_summary_counts_rates_over_the_questions_they_apply_to() -> None:
    scores = [
        _score(question_id="a", values=["5433"]),
        _score(question_id="b", citations=(2,), invalid=(9,), values=["8222"]),
        _score("abstained", "", (), (), {}, question_id="c"),
        _score(answer="The notes do not cover it.", citations=(), answerable=False, question_id="n1"),
        _score(answerable=False, question_id="n2"),
        _score(question_id="a", model="other"),
    ]
    summary = summarise_answers(scores)
    assert list(summary) == ["m", "other"]
    m = summary["m"]
    assert isinstance(m, dict)
    assert (m["questions"], m["answered"], m["abstained"], m["errors"]) == (5, 4, 1, 0)
    assert (m["truncated"], m["hit_token_cap"], m["loop_stopped"]) == (0, 0, 0)
    assert m["citations_valid"] == {"n": 4, "yes": 3, "rate": 0.75}
    assert m["cites_every_source"] == {"n": 4, "yes": 0, "rate": 0.0}
    assert m["no_sentence"] == {"n": 4, "yes": 0, "rate": 0.0}
    assert m["grounded"] == {"n": 2, "yes": 1, "rate": 0.5}
    assert m["value_stated"] == {"n": 2, "yes": 1, "rate": 0.5}
    assert m["negatives_declined"] == {"n": 2, "yes": 1, "rate": 0.5}
    assert m["answerable_declined"] == {"n": 3, "yes": 1, "rate": 1 / 3}
    assert m["prompt_tokens"] == {"n": 4, "mean": 100, "median": 100.0, "max": 100}
    by_type = m["by_type"]
    assert isinstance(by_type, dict)
    assert list(by_type) == ["exact_value", "negative"]


def test_summary_refuses_a_question_scored_twice_for_one_model() -> None:
    with pytest.raises(ValueError, match="scored twice"):
        summarise_answers([_score(), _score()])


@pytest.mark.parametrize(
    ("reasons", "cut"),
    [
        pytest.param(["stop", "stop"], (0, 0, 0), id="whole"),
        pytest.param(["length", "repetition", "stop"], (2, 1, 1), id="one-of-each"),
    ],
)
def test_cut_answers_are_counted_by_why(reasons: list[str], cut: tuple[int, int, int]) -> None:
    scores = [
        score_answer(
            question_id=f"q{n}",
            type="paraphrase",
            model="m",
            answerable=True,
            values=(),
            outcome="answered",
            answer="Port 5433 [1].",
            citations=(1,),
            invalid_citations=(),
            sent_evidence={1: True},
            truncated=reason != "stop",
            done_reason=reason,
        )
        for n, reason in enumerate(reasons)
    ]
    figures = summarise_answers(scores)["m"]
    assert isinstance(figures, dict)
    assert (figures["truncated"], figures["hit_token_cap"], figures["loop_stopped"]) == cut
