#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests when it is not there yet.
# Playwright drives it through executable_path=/usr/bin/chromium; it never downloads a browser.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "Chromium is missing: run 'sudo apt-get install chromium' (the browser tests need /usr/bin/chromium)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
