#!/usr/bin/env bash
# First-load weight of the console: every file of dist/ (all of it loads on
# the first visit: there are no lazy chunks; the .br/.gz copies that
# scripts/precompress.mjs writes are skipped) raw, gzip -9 and brotli -q 11,
# and the brotli total against the budget. Exits 1 when over budget.
#
#   BUDGET_BROTLI_BYTES   default 200000 (200 KB; KB = 1000 bytes)
#   DIST                  default dist
set -euo pipefail
cd "$(dirname "$0")/.."

DIST="${DIST:-dist}"
BUDGET="${BUDGET_BROTLI_BYTES:-200000}"

if [ ! -s "$DIST/index.html" ]; then
  echo "error: $DIST/index.html missing: run \`make build\` first" >&2
  exit 2
fi
command -v brotli >/dev/null || { echo "error: brotli not installed (make bench-tools)" >&2; exit 2; }

kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1000 }'; }

total_raw=0 total_gz=0 total_br=0
printf '%-44s %12s %12s %12s\n' "file ($DIST/)" raw "gzip -9" brotli
while IFS= read -r -d '' file; do
  raw=$(wc -c <"$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  br=$(brotli -q 11 -c "$file" | wc -c)
  total_raw=$((total_raw + raw)) total_gz=$((total_gz + gz)) total_br=$((total_br + br))
  printf '%-44s %12s %12s %12s\n' "${file#"$DIST"/}" "$(kb "$raw")" "$(kb "$gz")" "$(kb "$br")"
done < <(find "$DIST" -type f ! -name '*.br' ! -name '*.gz' -print0 | sort -z)
printf '%-44s %12s %12s %12s\n' "total" "$(kb "$total_raw")" "$(kb "$total_gz")" "$(kb "$total_br")"

echo
if [ "$total_br" -le "$BUDGET" ]; then
  echo "first load: $(kb "$total_br") brotli, budget $(kb "$BUDGET"): UNDER by $(kb $((BUDGET - total_br)))"
else
  echo "first load: $(kb "$total_br") brotli, budget $(kb "$BUDGET"): OVER by $(kb $((total_br - BUDGET)))"
  exit 1
fi
