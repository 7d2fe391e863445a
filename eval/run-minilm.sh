#!/usr/bin/env bash
# `make eval`: the retrieval evaluation on eval/sample-vault with a real embedder (all-MiniLM-L6-v2 served by
# ../shared/tools/ollama-minilm). Writes eval/results/latest.json, report.md and chart.png.
# Extra arguments go to `askvault eval` (e.g. `bash eval/run-minilm.sh --modes hybrid -k 3`).
# WITH_CHAT=1 starts the server with its real chat model too (smollm2:135m; the first start builds llama.cpp).
# OLLAMA_URL=http://… uses a server that is already running instead of starting one.
# RESULTS=dir writes there instead of eval/results (relative to the repository root).
set -euo pipefail

here="$(dirname "$0")"
repo="$(cd "$here/.." && pwd)"
server="$here/../../shared/tools/ollama-minilm/run.sh"
if [[ -z "${OLLAMA_URL:-}" && ! -f "$server" ]]; then
  echo "run-minilm.sh: $server not found." >&2
  echo "The evaluation needs the shared tools folder (../shared beside this repository) for its embedding server." >&2
  exit 1
fi
python="$repo/.venv/bin/python"
askvault="$repo/.venv/bin/askvault"
if [[ ! -x "$askvault" ]]; then
  echo "run-minilm.sh: $askvault not found; run \`make setup\` first." >&2
  exit 1
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

if [[ -n "${OLLAMA_URL:-}" ]]; then
  url="$OLLAMA_URL"
  if ! "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/api/version", timeout=5)' \
    "$url" 2>/dev/null; then
    echo "run-minilm.sh: nothing answers at OLLAMA_URL=$url" >&2
    exit 1
  fi
else
  port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
  log="$work/ollama-minilm.log"
  server_args=(--port "$port")
  if [[ "${WITH_CHAT:-}" == 1 ]]; then
    server_args+=(--with-chat)
  fi
  bash "$server" "${server_args[@]}" >"$log" 2>&1 &
  server_pid=$!

  url="http://127.0.0.1:$port"
  echo "Starting ollama-minilm on $url (the first run installs it, ~15 s; with the chat model it builds llama.cpp)…" >&2
  for _ in $(seq 1 3600); do
    if "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/api/version", timeout=1)' \
      "$url" 2>/dev/null; then
      break
    fi
    if ! kill -0 "$server_pid" 2>/dev/null; then
      echo "run-minilm.sh: the embedding server exited; its log:" >&2
      cat "$log" >&2
      exit 1
    fi
    sleep 0.5
  done
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "run-minilm.sh: the embedding server did not start; its log:" >&2
    cat "$log" >&2
    exit 1
  fi
fi

# An empty config file and no inherited settings: the run measures the defaults, nothing a user set up.
: >"$work/config.toml"
results="$repo/${RESULTS:-eval/results}"
mkdir -p "$results"
env -u QDRANT_URL -u ASKVAULT_EXCLUDE -u ASKVAULT_INCLUDE -u ASKVAULT_EXCLUDE_HEADINGS -u ASKVAULT_DATA_DIR \
  "$askvault" eval \
  --vault "$repo/eval/sample-vault" \
  --questions "$repo/eval/questions.jsonl" \
  --config "$work/config.toml" \
  --data-dir "$work/data" \
  --ollama-url "$url" \
  --embed-model all-minilm \
  --json "$results/latest.json" \
  --report "$results/" \
  "$@"
echo "Wrote ${RESULTS:-eval/results}/: latest.json, report.md, chart.png (and the answer or rewrite files asked for)" >&2
