# Sourced by the eval scripts: the Ollama address from OLLAMA_HOST, the variable Ollama and `askvault` read.
# OLLAMA_URL still works for now, with a notice; a bare host:port gets http:// as `askvault` gives it.
ollama_host() {
  local url="${OLLAMA_HOST:-}"
  if [[ -z "$url" && -n "${OLLAMA_URL:-}" ]]; then
    echo "$(basename "$0"): OLLAMA_URL is deprecated; set OLLAMA_HOST instead." >&2
    url="$OLLAMA_URL"
  fi
  url="${url:-http://127.0.0.1:11434}"
  if [[ "$url" != *://* ]]; then
    url="http://$url"
  fi
  echo "${url%/}"
}
