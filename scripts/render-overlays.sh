#!/usr/bin/env bash
# Renders every overlay under deploy/kubernetes/overlays as `kubectl apply -k` would apply it,
# into OUTDIR/<overlay>.yaml: for make's deploy step (schemas, checkov) and for
# crates/gifting-gateway/tests/deploy.rs (what the objects select and admit).
#
# An overlay's secretGenerator reads client-secret.txt, which is never committed. The overlays
# are rendered from a copy of deploy/kubernetes without any client-secret.txt, with a fixture in
# its place: nothing is written into the tree, and a real secret beside an overlay never reaches
# the rendered files.
#
#   KUBECTL=target/ops-venv/bin/kubectl scripts/render-overlays.sh OUTDIR
set -euo pipefail

out=${1:?usage: KUBECTL=path/to/kubectl render-overlays.sh OUTDIR}
kubectl=${KUBECTL:-kubectl}
root=$(cd "$(dirname "$0")/.." && pwd)

copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT
tar -C "$root/deploy" --exclude=client-secret.txt -cf - kubernetes | tar -C "$copy" -xf -

mkdir -p "$out"
for dir in "$copy"/kubernetes/overlays/*/; do
  name=$(basename "$dir")
  printf 'fixture, not a secret\n' >"$dir/client-secret.txt"
  "$kubectl" kustomize "$dir" >"$out/$name.yaml"
  echo "rendered $name -> $out/$name.yaml"
done
