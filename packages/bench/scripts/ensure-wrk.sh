#!/usr/bin/env bash
# The benchmark's load generator is wrk (Debian package `wrk`). Installed through apt when it is
# missing and we are root, as the test prerequisites do for Chromium; otherwise, says how.
set -euo pipefail
command -v wrk >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's wrk for the benchmark..."
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null 2>&1 || {
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
  }
  exit 0
fi
echo "wrk is missing: install it (Debian/Ubuntu: sudo apt-get install wrk; macOS: brew install wrk) and run the benchmark again." >&2
exit 1
