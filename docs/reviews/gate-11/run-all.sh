#!/usr/bin/env bash
# Every finding of review gate-11 (bash docs/reviews/gate-11/run-all.sh from the project root),
# through ../gate-10/pre.sh. Each now prints the fixed output: b.ts not confirmed (N1, N2, N3),
# b.ts listed in observed_unclaimed (N4), accept (N5).
HERE=$(cd "$(dirname "$0")" && pwd)
for f in "$HERE"/n[1-5].sh; do
  echo "== $(basename "$f")"
  bash "$f" 2>&1 | grep -v '^warning: \|^Updated ' | tail -n 2
done
