#!/usr/bin/env bash
# `make eval`: the retrieval evaluation on eval/sample-vault with a real embedder (all-MiniLM-L6-v2, Ollama's
# `all-minilm`). Writes eval/results/latest.json, report.md and chart.png.
# Extra arguments go to `askvault eval` (e.g. `bash eval/run-minilm.sh --modes hybrid -k 3`).
# OLLAMA_HOST=http://… is the Ollama (or Ollama-compatible) server to use, default http://127.0.0.1:11434; it must
# have the models pulled (`ollama pull all-minilm`; `make eval-answers` also needs its chat model).
# EMBED_SERVER_CMD="cmd args" (optional, empty by default) starts a local Ollama-compatible server instead: it is
# run with `--port N` appended (N a free loopback port; `--with-chat` too when WITH_CHAT=1) and stopped at the end.
# RESULTS=dir writes there instead of eval/results (relative to the repository root).
set -euo pipefail

here="$(dirname "$0")"
repo="$(cd "$here/.." && pwd)"
# shellcheck source=eval/ollama_host.sh
source "$here/ollama_host.sh"
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

if [[ -z "${EMBED_SERVER_CMD:-}" ]]; then
  url="$(ollama_host)"
  if ! "$python" -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/api/version", timeout=5)' \
    "$url" 2>/dev/null; then
    echo "run-minilm.sh: nothing answers at OLLAMA_HOST=$url" >&2
    echo "Install Ollama (https://ollama.com), run \`ollama pull all-minilm\`, or point OLLAMA_HOST at any" >&2
    echo "Ollama-compatible server that serves all-minilm." >&2
    exit 1
  fi
else
  port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
  log="$work/embed-server.log"
  read -r -a server_cmd <<<"$EMBED_SERVER_CMD"
  server_cmd+=(--port "$port")
  if [[ "${WITH_CHAT:-}" == 1 ]]; then
    server_cmd+=(--with-chat)
  fi
  "${server_cmd[@]}" >"$log" 2>&1 &
  server_pid=$!

  url="http://127.0.0.1:$port"
  echo "Starting EMBED_SERVER_CMD on $url (its first start may install things)…" >&2
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
