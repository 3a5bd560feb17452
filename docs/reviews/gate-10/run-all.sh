#!/usr/bin/env bash
# Every finding of review gate-10 (bash docs/reviews/gate-10/run-all.sh from the project root).
# Fixed ones now print reject for an untouched claimed b.ts (F1–F4), accept (F6) or b.ts
# listed in observed_unclaimed (F7); F5 is open and still prints accept.
HERE=$(cd "$(dirname "$0")" && pwd)
for f in "$HERE"/f[1-7].sh; do
  echo "== $(basename "$f")"
  bash "$f" 2>&1 | grep -v '^warning: \|^Updated ' | tail -n 3
done
