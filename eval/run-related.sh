#!/usr/bin/env bash
# Related notes against the blind judgements (eval/related/README.md): precision@5 of the shipped ranking (dense and
# keyword) and how many of its top-5 passages are template, query or link lines, per judged vault.
#
#   CORPORA_DIR=…/corpora bash eval/run-related.sh                 # built-in embedder → eval/results/related/builtin/
#   EMBED_MODEL=multilingual-e5-small OLLAMA_HOST=http://127.0.0.1:11435 CORPORA_DIR=… bash eval/run-related.sh
#
# VAULTS="sample tasks-docs de-wiki template" (the default) limits the run. Prints one Markdown row per vault and
# method; writes NAME.json (each judged note's top 5 and the passages' line ranges) under RESULTS.
set -euo pipefail

here="$(dirname "$0")"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=eval/ollama_host.sh
source "$here/ollama_host.sh"
python="$repo/.venv/bin/python"
embed_model="${EMBED_MODEL:-}"
if [[ -n "$embed_model" ]]; then
  results="$repo/${RESULTS:-eval/results/related/$embed_model}"
  model_args=(--embed-model "$embed_model" --ollama-url "$(ollama_host)")
else
  results="$repo/${RESULTS:-eval/results/related/builtin}"
  model_args=(--ollama-url "http://127.0.0.1:9")
fi
mkdir -p "$results"
echo "| judged set | embedder | method | precision@5 | strong found | top-5 passages: boilerplate | link lists | either |"
echo "|---|---|---|---|---|---|---|---|"
for name in ${VAULTS:-sample tasks-docs de-wiki template}; do
  case "$name" in
    sample) vault="$repo/eval/sample-vault" ;;
    template) vault="$repo/eval/template-vault" ;;
    *)
      if [[ -z "${CORPORA_DIR:-}" || ! -d "${CORPORA_DIR:-}/$name" ]]; then
        echo "run-related.sh: set CORPORA_DIR to the folder holding $name (eval/corpora/README.md)." >&2
        exit 1
      fi
      vault="$(cd "$CORPORA_DIR/$name" && pwd)"
      ;;
  esac
  env -u OLLAMA_HOST -u ASKVAULT_EMBED_MODEL "$python" "$here/related_judged.py" --vault "$vault" \
    --judged "$here/related/$name.jsonl" "${model_args[@]}" --json "$results/$name.json"
done
