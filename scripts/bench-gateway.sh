#!/usr/bin/env bash
# Gateway overhead: the same GET at a fixed concurrency straight to the sandbox and through
# the gateway; prints requests/second, p50 and p99 of each and their ratios, and exits 1
# when over budget. Knobs (OVERHEAD_SECS, OVERHEAD_CLIENTS, OVERHEAD_MAX_RATIO) are in
# crates/gifting-gateway/benches/overhead.rs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench -q -p gifting-gateway --bench overhead
