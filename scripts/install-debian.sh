#!/usr/bin/env bash
# Installs Debian packages when the program a target needs is not there yet; nothing is downloaded
# but by apt-get (never a browser build of Playwright's own).
#   scripts/install-debian.sh PROGRAM WHY PACKAGE…
# PROGRAM is a command name or an absolute path; WHY says what needs it, for the message shown to a
# user who is not root.
set -euo pipefail
program=$1 why=$2
shift 2
if command -v "$program" >/dev/null 2>&1; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "$program is missing: run 'sudo apt-get install $*' ($why)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "$@" >/dev/null
