#!/usr/bin/env bash
# Finding 8: after `--land --keep` the parent reviews the landed change and takes it out
# again (here: deletes the child's line, adds one of its own at the top). The child then
# adds m.txt and is landed again. The land record shows that the child has not changed f.txt
# since its kept land, but the parent no longer "holds" the record's change, so f.txt is
# merged against the seed once more and the child's old line comes back: "landed: 2 paths:
# f.txt, m.txt", exit 0. The parent's own edit (the removal) is undone, and the report reads
# as if the child had changed f.txt again.
. "$(dirname "$0")/common.sh"
setup
seq 1 10 | sed 's/^/line /' > "$P/f.txt"; git -C "$P" add f.txt; git -C "$P" commit -q -m f
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"
(cd "$P" && result f.txt | gate --worktree "$C" --seed "$SEED" --land --keep) > "$WORK/first.txt"
grep -E "^(landed|kept)" "$WORK/first.txt"
# The kept land prints its record's id ("land record: ID"); a tether that prints none
# (the reviewed one) leaves LANDED empty and the next land runs as it did then.
LANDED=$(sed -n 's/^land record: \([0-9a-f]*\).*/\1/p' "$WORK/first.txt")
echo "--- the parent takes the child's line out again and adds one of its own"
sed -i '/child line/d' "$P/f.txt"; sed -i '1i parent line' "$P/f.txt"
echo m > "$C/m.txt"
(cd "$P" && result m.txt f.txt | gate --worktree "$C" --seed "$SEED" --land ${LANDED:+--landed "$LANDED"}) | grep -E "^(landed|already|conflict|refused)"
echo "--- parent's f.txt:"; tail -2 "$P/f.txt"
# A fixed tether takes the record from the parent, not from shared refs (gate --land --keep
# prints the record id; the next land takes it back as --landed ID, as --seed is taken), and
# then merges each path the child has not changed since the record with the record as its
# base: f.txt keeps the parent's version ("already landed: f.txt") and only m.txt lands.
# (The same change fixes finding 1: a record only the parent names cannot be forged.)
