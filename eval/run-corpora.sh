#!/usr/bin/env bash
# `make eval-corpora`: the retrieval evaluation on two public vaults (tasks-docs, de-wiki) in CORPORA_DIR, each
# with its own question set in eval/corpora/NAME.jsonl, through eval/run-minilm.sh (real all-MiniLM-L6-v2; its
# OLLAMA_HOST and EMBED_SERVER_CMD apply). eval/corpora/README.md says where the two vaults come from.
# Writes eval/results/corpora-NAME.json and eval/results/corpora-NAME/{report.md,chart.png} per corpus.
# Extra arguments go to `askvault eval` for every corpus (e.g. `bash eval/run-corpora.sh --set retrieval.x=1`).
# CORPORA="de-wiki" limits the run to the named corpora (space-separated).
set -euo pipefail

here="$(dirname "$0")"
repo="$(cd "$here/.." && pwd)"
corpora_dir="${CORPORA_DIR:-}"
names=(${CORPORA:-tasks-docs de-wiki})
missing=""
for name in "${names[@]}"; do
  if [[ -z "$corpora_dir" || ! -d "$corpora_dir/$name" ]]; then
    missing="$missing $name"
  fi
done
if [[ -n "$missing" ]]; then
  if [[ -z "$corpora_dir" ]]; then
    echo "run-corpora.sh: CORPORA_DIR is not set." >&2
  else
    echo "run-corpora.sh: CORPORA_DIR=$corpora_dir lacks:$missing" >&2
  fi
  cat >&2 <<'EOF'
Set CORPORA_DIR to a folder holding the two public vaults the question sets were written for
(eval/corpora/README.md, "Where the corpora come from"):
  CORPORA_DIR/tasks-docs  the docs/ folder of https://github.com/obsidian-tasks-group/obsidian-tasks (MIT),
                          at commit cc0fce3c1326d18e2bdb7020eaf4c52e885da569
  CORPORA_DIR/de-wiki     the whole of https://github.com/data-engineering-community/data-engineering-wiki
                          (CC0-1.0), at commit 92550c91c9a04cf18a9bfb01294c10713fca4a15
EOF
  exit 1
fi
corpora_dir="$(cd "$corpora_dir" && pwd)"
python="$repo/.venv/bin/python"
if [[ ! -x "$python" ]]; then
  echo "run-corpora.sh: $python not found; run \`make setup\` first." >&2
  exit 1
fi

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
