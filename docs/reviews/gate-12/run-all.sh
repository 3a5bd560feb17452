#!/usr/bin/env bash
# Every finding of review gate-12 (bash docs/reviews/gate-12/run-all.sh from the project root),
# through ../gate-10/pre.sh. F2–F4 now print the fixed output; F1 (an encoding gate does not
# compute, dropped before the spawn) is open and still prints accept.
HERE=$(cd "$(dirname "$0")" && pwd)
for f in "$HERE"/f[1-4].sh; do
  echo "== $(basename "$f")"
  bash "$f" 2>&1 | grep -v '^warning: \|^Updated ' | tail -n 3
done
