#!/usr/bin/env bash
# Finding 2: the land record is one loose object in the shared object store, and its only
# anchor is a ref in shared refs. A child (or a sibling) deletes both with `rm` and
# `update-ref -d`, no gc needed. The next land with the right --landed then stops with
# git's raw error ("git cat-file exited with 128: … bad file", exit 3), not the documented
# "--landed … is not a land record …". docs/worktree.md says what to do then: "the next
# land with that --landed then stops, exit 3: land without it". Landing without it merges
# against the seed, which is worktree-3 finding 8 again: the line the parent took out
# after the kept land comes back ("landed: 2 paths: f.txt, m.txt", exit 0), and with the
# ref deleted there is not even the "no --landed ID was given" warning. (A variant that
# needs no deletion: the record's id is a function of the child's own tree, seed and
# branch, so the child can plant another object's file under that id before the kept
# land. git's hash-object -w keeps an existing file, so the kept land prints
# "land record: ID" with only a warning that it "could not anchor its record (… hash
# mismatch …): git gc may prune it", and the next land stops with the same "bad file".)
. "$(dirname "$0")/common.sh"
setup; with_f
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"
kept_land "$C" f.txt
grep -E "^(landed|land record)" "$WORK/first.txt"
echo "--- the parent takes the child's line out again"
sed -i '/child line/d' "$P/f.txt"
echo m > "$C/m.txt"
# --- the child: its record is gone (the object and its anchor ref)
(
  cd "$C"
  COMMON=$(git rev-parse --git-common-dir)
  REC=$(git rev-parse "refs/tether/landed/${SEED:0:12}-1")
  rm -f "$COMMON/objects/${REC:0:2}/${REC:2}"
  git update-ref -d "refs/tether/landed/${SEED:0:12}-1"
)
echo "--- the parent lands with --landed $LANDED"
(cd "$P" && result m.txt f.txt | gate --worktree "$C" --seed "$SEED" --land --landed "$LANDED" 2>&1) \
  | grep -E "^(landed|already|error|warning)"
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- as docs/worktree.md says, it lands without it"
(cd "$P" && result m.txt f.txt | gate --worktree "$C" --seed "$SEED" --land 2>&1) \
  | grep -E "^(landed|already|error|warning)"
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- parent's f.txt (last line):"; tail -1 "$P/f.txt"
# A fixed tether does not make the record's survival depend on the shared store, or does
# not send the parent back to a seed merge when it is gone. For example: the kept land
# prints what the next land needs (the record's tree is known to the parent only as an
# id, so print or save, outside the shared .git, the record's entries at the landed
# paths, or keep the record in an object directory only the parent writes). At the least
# a missing record is named as missing ("deleted since the kept land?"), and the docs
# say that a land without --landed brings back what the parent took out, instead of
# recommending it: the land then stops, and f.txt keeps the parent's version.
