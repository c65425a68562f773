#!/usr/bin/env bash
# The sandbox's large world (--world large: 5,000 users, 100,000 sends, 10,000 products):
# start time (generation included) and peak memory of the release binary, and the time of one
# page of each list at that size, each beside its budget; exits 1 when over one. See
# crates/gifting-sandbox/benches/world.rs for the budgets and their knobs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec cargo bench -q -p gifting-sandbox --bench world
