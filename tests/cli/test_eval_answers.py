"""`askvault eval --answers` and `--rewrite` end to end: a tiny vault, the fake Ollama as two chat models."""

from __future__ import annotations

import json
from pathlib import Path

from askvault.cli.options import EXIT_CONFIG, EXIT_ERROR
from tests.cli.test_eval_cmd import base_args, invoke
from tests.conftest import RunningOllama, VaultWriter
from tests.evaluate.tiny_vault import NOTES, QUESTIONS
from tests.fakes.ollama_server import ChatScript

CONVERSATIONS = [
    {
        "id": "c1",
        "first": "Which port does the pg-main container listen on?",
        "first_answer": "Port 5433 [1].",
        "followup": "And how is it backed up?",
        "standalone": "How is the pg-main container backed up?",
        "expected_paths": ["Services/Postgres.md"],
        "evidence": ["backed up by [[Backup job]]"],
    },
    {
        "id": "c2",
        "first": "When do the restic snapshots run?",
        "first_answer": None,
        "followup": "Where do they go?",
        "standalone": "Where do the restic snapshots go?",
        "expected_paths": ["Services/Backup job.md"],
        "evidence": ["to the NAS"],
    },
]


async def test_answers_are_scored_per_model_and_written_beside_the_retrieval_report(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    fake_ollama.fake.chat_models.add("smol:1b")
    report = tmp_path / "report"
    # The exact-value question names the value its answer must state (the fake's answer does not).
    questions = tmp_path / "with-values.jsonl"
    with_values = [{**q, "values": ["5433"]} if q["id"] == "port" else q for q in QUESTIONS]
    questions.write_text("".join(json.dumps(q) + "\n" for q in with_values), encoding="utf-8")
    args = [*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), "--questions", questions, "--modes", "hybrid"]
    result = await invoke(*args, "-k", "3", "--answers", "--chat-model", "llama3.2:3b,smol:1b", "--report", report)
    assert result.exit_code == 0, result.output

    assert {"report.md", "chart.png", "answers.md", "answers.json", "answers.png"} <= {p.name for p in report.iterdir()}
    body = json.loads((report / "answers.json").read_text(encoding="utf-8"))
    assert body["models"] == ["llama3.2:3b", "smol:1b"]
    assert body["meta"]["chat_models"] == ["llama3.2:3b", "smol:1b"]
    assert body["meta"]["answer_tokens"] == 1024
    assert [q["id"] for q in body["per_question"]] == [q["id"] for q in QUESTIONS]
    calls = fake_ollama.fake.calls("/api/chat")
    for model in ("llama3.2:3b", "smol:1b"):
        figures = body["summary"][model]
        answered = figures["answered"]
        assert figures["questions"] == len(QUESTIONS)
        assert answered + figures["abstained"] + figures["errors"] == len(QUESTIONS)
        # One streamed answer per answered question, capped, from that model; abstentions ask no model.
        mine = [call for call in calls if call["model"] == model]
        assert len(mine) == answered > 0
        assert all(call["stream"] is True and call["options"]["num_predict"] == 1024 for call in mine)
        # The fake's answer cites [1], a source that was sent: valid, one sentence, fully cited.
        assert figures["citations_valid"] == {"n": answered, "yes": answered, "rate": 1.0}
        assert figures["cited_sentence_share"] == 1.0
        assert figures["completion_tokens"]["mean"] == 3
        for question in body["per_question"]:
            run = question["models"][model]
            if run["outcome"] == "answered":
                assert run["answer"] == "The notes say so [1]."
                assert run["done_reason"] == "stop"
                assert run["first_token_s"] <= run["total_s"]
                assert run["sent"][0]["n"] == 1
    runs = {q["id"]: q["models"]["llama3.2:3b"] for q in body["per_question"]}
    assert {key: run["outcome"] for key, run in runs.items()} == {
        **{q["id"]: "answered" for q in QUESTIONS},
        "negative": "abstained",
    }
    # [1] is the best hit. The multi-note question's evidence is in the second note, and the mislabelled one's
    # in a note never found, so citing [1] grounds three answers. "port 5433" is wrapped in the note: its
    # original lines are what is checked, as in the retrieval figures.
    grounded = {key: run["grounded"] for key, run in runs.items()}
    assert grounded == {
        "port": True,
        "link": True,
        "multi": False,
        "sourdough": True,
        "mislabelled": False,
        "negative": None,
    }
    assert runs["port"]["value_stated"] is False
    figures = body["summary"]["llama3.2:3b"]
    assert figures["value_stated"] == {"n": 1, "yes": 0, "rate": 0.0}
    assert figures["negatives_declined"] == {"n": 1, "yes": 1, "rate": 1.0}
    assert figures["answerable_declined"] == {"n": 5, "yes": 0, "rate": 0.0}

    lines = result.stdout.splitlines()
    header = lines[lines.index("Answers") + 1]
    assert header.split() == ["6", "questions", "llama3.2:3b", "smol:1b"]
    markdown = (report / "answers.md").read_text(encoding="utf-8")
    assert "| 6 questions | llama3.2:3b | smol:1b |" in markdown
    assert "## By question type" in markdown
    assert (report / "answers.png").read_bytes()[:4] == b"\x89PNG"


async def test_rewrites_are_measured_against_the_standalone_question_and_no_rewriting(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    conversations = tmp_path / "conversations.jsonl"
    conversations.write_text("".join(json.dumps(c) + "\n" for c in CONVERSATIONS), encoding="utf-8")
    # Only the rewriter calls the model here: one usable rewrite, one chatty reply (the fallback is searched).
    fake_ollama.fake.scripts += [
        ChatScript(tokens=["How is the pg-main container backed up?"]),
        ChatScript(tokens=["Sure! Here is the rewritten question."]),
    ]
    report = tmp_path / "report"
    args = [*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), "--modes", "hybrid", "-k", "3"]
    result = await invoke(*args, "--rewrite", conversations, "--report", report)
    assert result.exit_code == 0, result.output
    assert not (report / "answers.json").exists()

    body = json.loads((report / "rewrite.json").read_text(encoding="utf-8"))
    assert body["variants"] == ["as_is", "standalone", "fallback", "rewrite:llama3.2:3b"]
    assert body["ks"] == [3, 6]
    rewritten = body["summary"]["rewrite:llama3.2:3b"]
    assert (rewritten["model_used"], rewritten["fell_back"]) == (1, 1)
    assert {"evidence_recall@3", "evidence_recall@6", "path_recall@3", "mrr"} <= set(rewritten)
    first, second = body["per_conversation"]
    assert first["rewrites"]["llama3.2:3b"]["query"] == "How is the pg-main container backed up?"
    assert first["variants"]["as_is"]["query"] == "And how is it backed up?"
    assert first["variants"]["standalone"]["query"] == "How is the pg-main container backed up?"
    # The fallback: the previous user question, then the follow-up.
    fallback = "When do the restic snapshots run? Where do they go?"
    assert second["variants"]["fallback"]["query"] == fallback
    chatty = second["rewrites"]["llama3.2:3b"]
    assert (chatty["query"], chatty["used_model"]) == (fallback, False)
    # The standalone question holds the evidence's note words, so it ranks the note first.
    assert body["summary"]["standalone"]["evidence_recall@3"] == 1.0
    rewrite_call, chatty_call = fake_ollama.fake.calls("/api/chat")
    assert rewrite_call["stream"] is chatty_call["stream"] is False
    transcript = rewrite_call["messages"][-1]["content"]
    assert "And how is it backed up?" in transcript
    assert "Port 5433" in transcript  # the first answer is part of the history
    assert "Assistant:" not in chatty_call["messages"][-1]["content"]  # c2 has no first answer
    markdown = (report / "rewrite.md").read_text(encoding="utf-8")
    assert "| rewrite:llama3.2:3b |" in markdown
    assert "Follow-up rewriting (2 conversations" in result.stdout


async def test_several_chat_models_need_answers_or_rewrite(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    args = [*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), "--chat-model", "a,b"]
    result = await invoke(*args)
    assert result.exit_code == EXIT_CONFIG
    assert "name one model, or several only with --answers or --rewrite" in result.stderr


async def test_a_missing_chat_model_stops_the_answer_run(
    tmp_path: Path, make_vault: VaultWriter, fake_ollama: RunningOllama
) -> None:
    args = [*base_args(tmp_path, make_vault(NOTES), fake_ollama.url), "--modes", "hybrid"]
    result = await invoke(*args, "--answers", "--chat-model", "mistral:7b")
    assert result.exit_code == EXIT_ERROR
    assert "ollama pull mistral:7b" in result.stderr
