#!/usr/bin/env bash
# leak (timing): `coord wait E001 --timeout 3s` run by W2, while messages W2 may not see
# (W1 -> Primary, well-formed, placed with link() exactly as `send` publishes them) arrive
# in E001 every 40 ms, versus the same file operations in another work item (E002, the
# control: same machine load, no arrival in E001). Output and rc must match, and timing.
. "$(dirname "$0")/common.sh"
setup wt >/dev/null
RUNS=${RUNS:-8}
cd "$W1"; echo "secret" | coord send E009 --to Primary --subject s >/dev/null
STORE=$(git rev-parse --path-format=absolute --git-common-dir)/coord-lite
TEMPLATE=$STORE/E009/msgs/000001.json
mkdir -p "$STORE/E001/msgs" "$STORE/E002/msgs" "$WORK/tmpl"
N=0
prepare() { # $1 work item: write 60 valid hidden messages numbered after the current highest
  local wi=$1 k seq; rm -f "$WORK/tmpl/$wi"-*
  for k in $(seq 60); do N=$((N+1)); seq=$N
    sed -e "s/E009-M0001/$wi-M$(printf %04d $seq)/; s/\"E009\"/\"$wi\"/" "$TEMPLATE" > "$WORK/tmpl/$wi-$(printf %06d $seq)"; done; }
burst() { ( sleep 0.2; for f in "$WORK/tmpl/$1"-*; do ln "$f" "$STORE/$1/msgs/${f##*-}.json"; sleep 0.04; done ) & }
t() { local s e; s=$(date +%s%N); out=$(coord wait E001 --timeout 3s 2>/dev/null); rc=$?; e=$(date +%s%N); echo "$(( (e-s)/1000000 )) rc=$rc out=[$out]"; }
cd "$W2"
for i in $(seq $RUNS); do
  N0=$N; prepare E002; N=$N0; burst E002; echo "control(E002): $(t)"; wait; rm -f "$STORE"/E002/msgs/*
  prepare E001; burst E001; echo "hidden (E001): $(t)"; wait
done
echo "E001 now holds $(ls "$STORE/E001/msgs" | wc -l) messages; W1->Primary, e.g.: $(coord inbox E001 2>&1 | head -2)"
# Expected (fixed): hidden rows take as long as control rows (same rc 5, empty out).
