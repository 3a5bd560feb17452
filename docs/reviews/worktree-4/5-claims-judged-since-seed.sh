#!/usr/bin/env bash
# Finding 5: with --landed, the land is about what the child changed since its record,
# but the verdict still judges claims and evidence since the seed. (a) An honest child in
# its second round reports what it did in that round (g.txt) and is rejected: "Changes in
# the child's worktree that it did not claim: f.txt", exit 1, with observed_unclaimed:
# f.txt. f.txt is the child's first-round change, already landed and untouched since;
# the report does not say so. Nothing in docs/worktree.md or gate --help tells a parent
# (or the child's prompt) that every earlier round's paths must be claimed again.
# (b) A child that did nothing in its second round re-sends its first report (f.txt,
# with file evidence f.txt) and is accepted: "evidence: verified file f.txt" counts as
# new work because f.txt changed since the seed. gate exits 0 ("landed: nothing new …").
. "$(dirname "$0")/common.sh"
setup; with_f
printf 'g\n' > "$P/g.txt"; git -C "$P" add g.txt; git -C "$P" commit -q -m g
spawn c1; C=$P/wt/c1
echo "child line" >> "$C/f.txt"
kept_land "$C" f.txt
echo "--- (b) second round, the child did nothing, same report as round one"
(cd "$P" && result f.txt | gate --worktree "$C" --seed "$SEED" --land --landed "$LANDED" --keep) \
  | grep -E "^(verdict|reason|evidence|landed|already)"
echo "gate exit: ${PIPESTATUS[0]}"
echo "--- (a) second round, the child fixes g.txt and reports just that"
echo "fix" >> "$C/g.txt"
(cd "$P" && result g.txt | gate --worktree "$C" --seed "$SEED" --land --landed "$LANDED" --keep) \
  | grep -E "^(verdict|reason|evidence|observed_unclaimed|landed|already)"
echo "gate exit: ${PIPESTATUS[0]}"
# A fixed tether, given --landed, judges the round: claims are compared with the paths
# the child changed since the record (plus, at most, a note that earlier paths are
# already landed), and file evidence counts only at those paths. Then (a) is accepted
# ("landed: 1 path: g.txt", with "already landed …: f.txt") and (b) is rejected (no
# change since the record; f.txt's evidence is from the landed round). Failing that,
# the docs and gate --help say that a child must claim every path since its seed.
