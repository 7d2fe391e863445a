#!/usr/bin/env bash
# The built-in embedder's evaluation (eval/README.md, "The built-in embedder"): the sample vault and the two
# public vaults in CORPORA_DIR, each with every frozen question set it has, in the four modes the round-four
# figures use (dense, keyword, hybrid, reference), with no embedding model configured, so the built-in
# all-MiniLM-L6-v2 (in process, no Ollama) embeds. Then eval/set_figures.py prints each set's E@3, P@6 and
# abstentions. Nothing here needs a network.
#
#   CORPORA_DIR=…/corpora bash eval/run-builtin.sh              # built-in → eval/results/builtin/
#   EMBED_MODEL=all-minilm OLLAMA_HOST=http://127.0.0.1:11435 CORPORA_DIR=… bash eval/run-builtin.sh
#                                                              # the same through Ollama's API → eval/results/http-all-minilm/
#
# VAULTS="sample tasks-docs de-wiki template documents" (the default) limits the run; the sample, template and
# documents vaults need no CORPORA_DIR (the documents vault holds PDFs and canvases: eval/source_types.py reports
# its figures per source type).
# RESULTS=dir writes there instead (relative to the repository root). Extra arguments go to `askvault eval`.
# Per vault it writes NAME.json, NAME/report.md and NAME/chart.png (NAME: sample, corpora-tasks-docs,
# corpora-de-wiki, template, documents) and NAME.figures.md (set_figures.py's table). Each vault is indexed from
# scratch into a temporary data folder with an empty config file.
set -euo pipefail

here="$(dirname "$0")"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=eval/ollama_host.sh
source "$here/ollama_host.sh"
python="$repo/.venv/bin/python"
askvault="$repo/.venv/bin/askvault"
if [[ ! -x "$askvault" ]]; then
  echo "run-builtin.sh: $askvault not found; run \`make setup\` first." >&2
  exit 1
fi
embed_model="${EMBED_MODEL:-}"
if [[ -n "$embed_model" ]]; then
  results="$repo/${RESULTS:-eval/results/http-$embed_model}"
  model_args=(--embed-model "$embed_model" --ollama-url "$(ollama_host)")
else
  results="$repo/${RESULTS:-eval/results/builtin}"
  # No --embed-model: what a fresh install does (the built-in embedder); an unreachable Ollama URL proves that
  # nothing goes over the network.
  model_args=(--ollama-url "http://127.0.0.1:9")
fi
names=(${VAULTS:-sample tasks-docs de-wiki template documents})

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
: >"$work/config.toml"
mkdir -p "$results"

for name in "${names[@]}"; do
  if [[ "$name" == sample ]]; then
    vault="$repo/eval/sample-vault"
    sets=("$repo/eval/questions.jsonl" "$repo/eval/questions-negatives.jsonl" "$repo/eval/questions-de.jsonl"
      "$repo/eval/questions-crosslingual.jsonl")
    out="sample"
  elif [[ "$name" == template ]]; then
    vault="$repo/eval/template-vault"
    sets=("$repo/eval/template-vault-questions.jsonl")
    out="template"
  elif [[ "$name" == documents ]]; then
    vault="$repo/eval/documents-vault"
    sets=("$repo/eval/documents-vault-questions.jsonl")
    out="documents"
  else
    if [[ -z "${CORPORA_DIR:-}" || ! -d "${CORPORA_DIR:-}/$name" ]]; then
      echo "run-builtin.sh: set CORPORA_DIR to the folder holding $name (eval/corpora/README.md)." >&2
      exit 1
    fi
    vault="$(cd "$CORPORA_DIR/$name" && pwd)"
    sets=("$repo/eval/corpora/$name.jsonl" "$repo/eval/corpora/$name-blind.jsonl"
      "$repo/eval/corpora/$name-negatives.jsonl" "$repo/eval/corpora/$name-crosslingual.jsonl")
    out="corpora-$name"
  fi
  # One run per vault over all its sets (ids are unique across a vault's files); set_figures.py splits them.
  cat "${sets[@]}" >"$work/$name.jsonl"
  echo "== $name: $vault (${embed_model:-built-in})" >&2
  env -u QDRANT_URL -u ASKVAULT_EXCLUDE -u ASKVAULT_INCLUDE -u ASKVAULT_EXCLUDE_HEADINGS -u ASKVAULT_DATA_DIR \
    -u ASKVAULT_EMBED_MODEL -u OLLAMA_HOST \
    "$askvault" eval \
    --vault "$vault" \
    --questions "$work/$name.jsonl" \
    --config "$work/config.toml" \
    --data-dir "$work/data-$name" \
    "${model_args[@]}" \
    --modes dense,keyword,hybrid,reference \
    -k 3,6,10 \
    --json "$results/$out.json" \
    --report "$results/$out/" \
    "$@"
  "$python" "$here/set_figures.py" "$results/$out.json" "${sets[@]}" | tee "$results/$out.figures.md"
done
echo "Wrote ${results#"$repo/"}/" >&2
