#!/usr/bin/env bash
# `make eval`: the retrieval evaluation on eval/sample-vault with a real embedder (all-MiniLM-L6-v2 served by
# ../shared/tools/ollama-minilm). Writes eval/results/latest.json, report.md and chart.png.
# Extra arguments go to `askvault eval` (e.g. `bash eval/run-minilm.sh --modes hybrid -k 3`).
set -euo pipefail

here="$(dirname "$0")"
repo="$(cd "$here/.." && pwd)"
server="$here/../../shared/tools/ollama-minilm/run.sh"
if [[ ! -f "$server" ]]; then
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
port="$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
log="$work/ollama-minilm.log"
bash "$server" --port "$port" >"$log" 2>&1 &
server_pid=$!

cleanup() {
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

url="http://127.0.0.1:$port"
echo "Starting ollama-minilm on $url (the first run installs it, ~15 s)…" >&2
for _ in $(seq 1 600); do
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

# An empty config file and no inherited settings: the run measures the defaults, nothing a user set up.
: >"$work/config.toml"
mkdir -p "$repo/eval/results"
env -u QDRANT_URL -u ASKVAULT_EXCLUDE -u ASKVAULT_INCLUDE -u ASKVAULT_EXCLUDE_HEADINGS -u ASKVAULT_DATA_DIR \
  "$askvault" eval \
  --vault "$repo/eval/sample-vault" \
  --questions "$repo/eval/questions.jsonl" \
  --config "$work/config.toml" \
  --data-dir "$work/data" \
  --ollama-url "$url" \
  --embed-model all-minilm \
  --json "$repo/eval/results/latest.json" \
  --report "$repo/eval/results/" \
  "$@"
echo "Wrote eval/results/latest.json, eval/results/report.md and eval/results/chart.png" >&2
