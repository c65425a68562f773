#!/usr/bin/env bash
# Sandbox load: 64 concurrent clients on GET /api/v3/send?per_page=100 over loopback for a
# few seconds, after a real OAuth sign-in; prints requests/second and p50/p99 latency and
# exits 1 when over budget. See crates/gifting-sandbox/benches/load.rs for the knobs
# (LOAD_SECS, LOAD_CLIENTS, LOAD_MIN_RPS, LOAD_MAX_P99_MS).
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench -q -p gifting-sandbox --bench load
