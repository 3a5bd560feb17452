#!/usr/bin/env bash
# Finding 8: the land's `git merge-tree` runs with rename detection on (git's default,
# 50% similarity). When the parent, while the child ran, deleted prod.yml and created
# dev.yml from it, the child's one-line edit of prod.yml is not refused (modify/delete):
# it lands inside dev.yml, a file the child never saw, never changed and never claimed,
# and prod.yml stays deleted. gate reports "landed: 1 path: dev.yml" with exit 0.
. "$(dirname "$0")/common.sh"
setup
seq 1 20 | sed 's/^/setting_/' > "$P/prod.yml"; git -C "$P" add prod.yml; git -C "$P" commit -q -m prod
spawn c1
C=$P/wt/c1
# --- the parent, meanwhile: a dev config made from the prod one, prod removed ---
sed 's/setting_1$/setting_1_dev/' "$P/prod.yml" > "$P/dev.yml"; rm "$P/prod.yml"
# --- the child: one line in prod.yml ---
sed -i 's/^setting_10$/setting_10=PRODUCTION_DB_PASSWORD_ROTATED/' "$C/prod.yml"
SEED=$(sed -n "s/^seed: //p" "$WORK/c1.md")   # the parent's own record: the block it sent
(cd "$P" && result prod.yml | gate --worktree "$C" --seed "$SEED" --land); echo "gate exit: $?"
echo "parent dev.yml line 10: $(sed -n 10p "$P/dev.yml")"
echo "parent prod.yml: $(test -e "$P/prod.yml" && echo present || echo absent)"
# A fixed tether lands only at the paths the child changed: it refuses a merge result that
# differs from the parent's tree outside child.changed (a check that needs no git
# option; -c merge.renames=false does not reach merge-tree in git 2.39, and -X no-renames
# exists only from git 2.40). Expected: a modify/delete conflict on prod.yml, exit 1,
# nothing changed, dev.yml untouched.
