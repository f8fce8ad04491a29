#!/usr/bin/env bash
# Installs Debian's Graphviz when `dot` is not there yet: the site's graph page is laid out by `dot`
# (outputs/html.py, dot_layout), so every build of the site needs it.
set -euo pipefail
if command -v dot >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "Graphviz is missing: run 'sudo apt-get install graphviz' (the site's graph page is drawn by its 'dot')" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq graphviz >/dev/null
