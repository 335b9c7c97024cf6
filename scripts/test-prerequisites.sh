#!/usr/bin/env bash
# Makes sure what the tests talk to is there: PostgreSQL on 127.0.0.1:5432 (the server suite
# runs on it as well as on SQLite), Debian's Chromium (browser tests drive it headless) and wrk
# (the benchmark's load generator; a test runs the benchmark briefly so that it keeps working),
# and jemalloc where apt can install it.
set -euo pipefail

bash "$(dirname "$0")/../packages/bench/scripts/ensure-wrk.sh"

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the browser tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: install it (Debian: sudo apt-get install chromium) and run the tests again." >&2
    exit 1
  fi
fi

# jemalloc: the server's bin starts on it where it is installed (issue 37: it gives idle memory
# back); the built-server test checks that, and skips where the library is missing.
if ! ls /usr/lib/*-linux-gnu/libjemalloc.so.2 >/dev/null 2>&1; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's libjemalloc2 for the built server's allocator test..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjemalloc2 >/dev/null || echo "libjemalloc2 not installed: its test skips" >&2
  fi
fi
if ! pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; then
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
    for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1 && break; sleep 1; done
  fi
  if ! pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; then
    echo "PostgreSQL is not answering on 127.0.0.1:5432 (user postgres, trust auth); start it and run the tests again." >&2
    exit 1
  fi
fi
