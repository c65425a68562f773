#!/usr/bin/env bash
# Weight of the console as a browser fetches it, brotli -q 11 (what the servers send):
#   - the first load: index.html and every file it names (loader, CSS, icon, JS glue, the
#     split loader and the main wasm) -- all a browser needs for the sign-in screen;
#   - the signed-in home: the first load and every file the browser fetches to show the home
#     screen signed in with its figures, as a signed-in tab loads it: home's modules come in one
#     pack (`home.pack`, written by scripts/pack-chunks.mjs: the sign-in's return, the app's own
#     reads, the signed-in shell, home and its figures) and any chunk the split loader waits for
#     beside it (read from the loader by scripts/split-fetches.mjs, as the browser runs it); a
#     part of home in a chunk of its own, fetched once home is up, is printed apart;
#   - the path to home's answer: every file fetched from the signed-out load until home's
#     summary shows -- the first load, then the split points `signin` (the sign-in's return, the
#     callback screen), `app_reads` (/me for the header, and with it the request layer),
#     `signed_in` (the signed-in shell's extras), `home` and `home_figures` (the summary is made
#     of them), each file counted once (a browser holds it after the first fetch). Static:
#     derived from the loader, run by scripts/split-fetches.mjs, not a browser's record of its
#     fetches; what is fetched ahead when idle (other screens, the shortcuts) is not on the path
#     and not counted;
#   - each area's chunk (split_<area>.wasm) and the chunks of code several areas share;
#   - the total of everything.
# Then `twiggy top` of the linked wasm (before the split, with names), if twiggy is there.
# Exits 1 when a figure grows past its ratchet: what it weighs now, plus the 0.2 KB by which
# the same code built twice has differed. Lower a ratchet when its figure shrinks. The goals
# are printed, not enforced.
#
#   RATCHET_BROTLI_BYTES  default 206600 (206.6 KB; KB = 1000 bytes): the first load, measured
#                         206.4 KB (205.1 KB before issue 58: the files' digests 0.8 KB of
#                         SHA-256, the main wasm 0.5 KB with the console's side of them).
#   HOME_RATCHET_BROTLI_BYTES  default 297400 (297.4 KB): the signed-in home, measured 297.2 KB:
#                         the path below, as the sign-in's return comes in home's pack too.
#   PATH_RATCHET_BROTLI_BYTES  default 297400 (297.4 KB): the path to home's answer, measured
#                         297.2 KB (299.3 KB before issue 59: the report file's writer now comes
#                         with the details, fetched once the answer is in).
#   PATH_GOAL_BROTLI_BYTES  default 300000 (300 KB, react-admin's whole app): the path's goal.
#   BUDGET_BROTLI_BYTES   default 200000 (200 KB): the first load's stretch goal.
#   DIST                  default dist
set -euo pipefail
cd "$(dirname "$0")/.."

DIST="${DIST:-dist}"
RATCHET="${RATCHET_BROTLI_BYTES:-206600}"
HOME_RATCHET="${HOME_RATCHET_BROTLI_BYTES:-297400}"
BUDGET="${BUDGET_BROTLI_BYTES:-200000}"
PATH_RATCHET="${PATH_RATCHET_BROTLI_BYTES:-297400}"
PATH_GOAL="${PATH_GOAL_BROTLI_BYTES:-300000}"
# The split points on the way from the signed-out load to home's summary, in order.
PATH_POINTS="signin app_reads signed_in home home_figures"
# scripts/build-console.mjs links the console in a target directory of its own.
LINKED="${CARGO_TARGET_DIR:-target}/console/wasm32-unknown-unknown/wasm-release/gifting-console.wasm"

if [ ! -s "$DIST/index.html" ]; then
  echo "error: $DIST/index.html missing: run \`make build\` first" >&2
  exit 2
fi
command -v brotli >/dev/null || { echo "error: brotli not installed (make bench-tools)" >&2; exit 2; }

kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1000 }'; }
br() { brotli -q 11 -c "$1" | wc -c; }
row() { printf '  %-52s %10s %10s\n' "$1" "$(kb "$2")" "$(kb "$3")"; }

first_raw=0 first_br=0
echo "first load (index.html and what it names): raw, brotli"
row "index.html" "$(wc -c <"$DIST/index.html")" "$(br "$DIST/index.html")"
first_raw=$(wc -c <"$DIST/index.html") first_br=$(br "$DIST/index.html")
while read -r file; do
  [ -f "$DIST/$file" ] || continue
  raw=$(wc -c <"$DIST/$file") b=$(br "$DIST/$file")
  first_raw=$((first_raw + raw)) first_br=$((first_br + b))
  row "$file" "$raw" "$b"
done < <(grep -oE '(src|href|data-js|data-wasm)=("/[^"?#]+"|/[^[:space:]"'"'"'>?#]+)' "$DIST/index.html" | sed -E 's/^[^=]*="?\///; s/"$//' | sort -u)
row "first load" "$first_raw" "$first_br"

# The signed-in home: what the split loader fetches for home, as it resolves it.
loader=$(ls "$DIST"/app-*/__wasm_split.js 2>/dev/null | head -n 1)
[ -n "$loader" ] || { echo "error: $DIST/app-*/__wasm_split.js missing: run \`make build\`" >&2; exit 2; }
app=$(dirname "$loader")
echo
echo "signed-in home (the first load, then what the split loader fetches for home): raw, brotli"
home_raw=$first_raw home_br=$first_br
# Home, and the app's own reads (the header's /me, started at sign-in: `app_reads`), each file once.
points=$(node scripts/split-fetches.mjs "$loader" --list)
present() { for p in "$@"; do grep -qx "$p" <<<"$points" && echo "$p"; done; }
home_files=$(node scripts/split-fetches.mjs "$loader" $(present app_reads home) | cut -d' ' -f2- | tr ' ' '\n' | awk 'NF && !seen[$0]++' | tr '\n' ' ')
for file in $home_files; do
  raw=$(wc -c <"$app/$file") b=$(br "$app/$file")
  home_raw=$((home_raw + raw)) home_br=$((home_br + b))
  row "$file" "$raw" "$b"
done
row "signed-in home" "$home_raw" "$home_br"
# Parts of home in chunks of their own (split points named home_*, off the path), fetched once
# home is up.
while read -r point; do
  case " $PATH_POINTS " in *" $point "*) continue ;; esac
  read -r _ files < <(node scripts/split-fetches.mjs "$loader" "$point")
  extra=0
  for file in $files; do
    case " $home_files " in *" $file "*) ;; *) extra=$((extra + $(br "$app/$file"))) ;; esac
  done
  printf '  %-52s %10s\n' "then ${point#home_} (after home is up; not counted)" "+$(kb "$extra")"
done < <(node scripts/split-fetches.mjs "$loader" --list | grep '^home_' || true)

# The path to home's answer: the first load, then each split point's files not fetched before.
echo
echo "path to home's answer (the first load, then each split point's new files): brotli"
path_br=$first_br seen=" "
printf '  %-52s %10s\n' "first load" "$(kb "$first_br")"
while read -r point files; do
  added=0
  for file in $files; do
    case "$seen" in *" $file "*) continue ;; esac
    seen="$seen$file "
    added=$((added + $(br "$app/$file")))
  done
  path_br=$((path_br + added))
  printf '  %-52s %10s\n' "+ $point" "+$(kb "$added")"
done < <(node scripts/split-fetches.mjs "$loader" $(present $PATH_POINTS))
printf '  %-52s %10s\n' "path to home's answer" "$(kb "$path_br")"

echo
echo "screens, fetched on first visit (or ahead when idle): brotli"
shared=0
for file in "$DIST"/app-*/*.wasm; do
  name=$(basename "$file")
  case "$name" in
    split_*) printf '  %-52s %10s\n' "${name#split_} (area chunk)" "$(kb "$(br "$file")")" ;;
    chunk_*) shared=$((shared + $(br "$file"))) ;;
  esac
done
printf '  %-52s %10s\n' "code shared by several areas (chunk_*.wasm)" "$(kb "$shared")"
for file in "$DIST"/app-*/*.pack; do
  [ -f "$file" ] || continue
  printf '  %-52s %10s\n' "$(basename "$file") (modules sent together)" "$(kb "$(br "$file")")"
done

echo
echo "languages (English is in the code; another's messages are one bundle, fetched when chosen): brotli"
for file in "$app"/i18n-*.json; do
  [ -f "$file" ] || continue
  name=$(basename "$file" .json)
  printf '  %-52s %10s\n' "${name#i18n-}" "$(kb "$(br "$file")")"
done

total=0
while IFS= read -r -d '' file; do total=$((total + $(br "$file"))); done \
  < <(find "$DIST" -type f ! -name '*.br' ! -name '*.gz' -print0)
echo
echo "everything in $DIST/: $(kb "$total") brotli (all screens fetched)"

if command -v twiggy >/dev/null && [ -f "$LINKED" ]; then
  echo
  echo "twiggy top of the linked wasm (before the split; code of every screen):"
  twiggy top -n 15 "$LINKED" | grep -v "custom section\|subsection\|reloc\." || true
fi

echo
missed=0
# judge goal|stretch|ratchet NAME BYTES LIMIT: a goal or a stretch is printed; a growth past a
# ratchet fails the bench.
judge() {
  local over=$(($3 - $4))
  if [ "$over" -le 0 ]; then
    case "$1" in
      ratchet) echo "ok    $2: $(kb "$3") brotli, ratchet $(kb "$4"): no growth (lower the ratchet when it shrinks)" ;;
      *) printf '%-9s%s\n' "$1:" "$2 $(kb "$3") brotli, goal $(kb "$4"): met, by $(kb $((-over)))" ;;
    esac
  elif [ "$1" = ratchet ]; then
    echo "MISS  $2: $(kb "$3") brotli, ratchet $(kb "$4"): GREW by $(kb "$over")"
    missed=1
  else
    printf '%-9s%s\n' "$1:" "$2 $(kb "$3") brotli, goal $(kb "$4"): $(kb "$over") to go"
  fi
}
judge stretch "first load" "$first_br" "$BUDGET"
judge goal "path to home's answer" "$path_br" "$PATH_GOAL"
judge ratchet "first load" "$first_br" "$RATCHET"
judge ratchet "signed-in home" "$home_br" "$HOME_RATCHET"
judge ratchet "path to home's answer" "$path_br" "$PATH_RATCHET"
exit "$missed"
