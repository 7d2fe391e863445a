#!/usr/bin/env bash
# `make eval-corpora`: the retrieval evaluation on the real vaults in ../shared/corpora (tasks-docs, de-wiki), each
# with its own question set in eval/corpora/NAME.jsonl, through eval/run-minilm.sh (real all-MiniLM-L6-v2).
# Writes eval/results/corpora-NAME.json and eval/results/corpora-NAME/{report.md,chart.png} per corpus.
# Extra arguments go to `askvault eval` for every corpus (e.g. `bash eval/run-corpora.sh --set retrieval.x=1`).
# CORPORA="de-wiki" limits the run to the named corpora (space-separated).
set -euo pipefail

here="$(dirname "$0")"
repo="$(cd "$here/.." && pwd)"
corpora_dir="$here/../../shared/corpora"
if [[ ! -d "$corpora_dir" ]]; then
  echo "run-corpora.sh: $corpora_dir not found." >&2
  echo "The corpus evaluation needs the shared corpora folder (../shared beside this repository)." >&2
  exit 1
fi
corpora_dir="$(cd "$corpora_dir" && pwd)"
python="$repo/.venv/bin/python"
if [[ ! -x "$python" ]]; then
  echo "run-corpora.sh: $python not found; run \`make setup\` first." >&2
  exit 1
fi

names=(${CORPORA:-tasks-docs de-wiki})
for name in "${names[@]}"; do
  vault="$corpora_dir/$name"
  questions="$repo/eval/corpora/$name.jsonl"
  if [[ ! -d "$vault" ]]; then
    echo "run-corpora.sh: corpus $vault not found." >&2
    exit 1
  fi
  if [[ ! -f "$questions" ]]; then
    echo "run-corpora.sh: question set $questions not found." >&2
    exit 1
  fi
  # The question set must agree with the corpus (paths exist, evidence verbatim in the note bodies): a set that
  # drifted from the corpus would report misses that are not retrieval's fault.
  "$python" - "$vault" "$questions" <<'PY'
import sys
from pathlib import Path

from askvault.errors import ConfigError
from askvault.evaluate.questions import check_questions, load_questions

vault, questions = Path(sys.argv[1]), Path(sys.argv[2])
try:
    problems = check_questions(vault, load_questions(questions))
except ConfigError as exc:
    problems = [str(exc)]
for problem in problems:
    print(f"run-corpora.sh: {questions.name}: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
  echo "== $name: $vault" >&2
  # run-minilm.sh passes its own --vault/--questions/--json/--report first; click keeps the last value of a
  # single-valued option, so these take precedence, and the caller's extra arguments come after them.
  bash "$here/run-minilm.sh" \
    --vault "$vault" \
    --questions "$questions" \
    --json "$repo/eval/results/corpora-$name.json" \
    --report "$repo/eval/results/corpora-$name/" \
    "$@"
  echo "Wrote eval/results/corpora-$name.json and eval/results/corpora-$name/ (report.md, chart.png)" >&2
done
