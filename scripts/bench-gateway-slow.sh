#!/usr/bin/env bash
# The gateway under 500 slow-head and 500 slow-body connections: a normal
# client's p50/p99 against the idle gateway's, and the slow connections dropped after the
# configured timeouts. See scripts/bench-gateway-slow.mjs for the targets. Needs the release
# build (make bench builds it) and about 2,100 file descriptors (1,000 connections on each
# side, plus the rest): the soft limit is raised when it is lower and the hard one allows.
set -euo pipefail
cd "$(dirname "$0")/.."
need=4096
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  ulimit -n "$need" 2>/dev/null || ulimit -n "$(ulimit -Hn)"
fi
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 2200 ]; then
  echo "bench-gateway-slow: needs 2200 open files, the limit is $(ulimit -n) (raise ulimit -Hn)" >&2
  exit 1
fi
exec node scripts/bench-gateway-slow.mjs
