# Shared setup for the third gate review's reproductions. Run each script from the project
# root:  bash docs/reviews/gate-3/<script>.sh
# A throwaway repository with app.ts and lib.ts committed; the parent wraps a task with
# --context and keeps the snapshot id in $snap. `gate` runs this worktree's gate.ts;
# `old_gate` runs gate.ts as of 31b23fd^ (before the early reads), extracted with git archive.
set -u
PROJECT=${PROJECT:-$(pwd)}
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.invalid GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.invalid
export GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" GIT_COMMITTER_DATE="2026-01-01T00:00:00Z"
D=${D:-deno}
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
OLD=$WORK/old; mkdir -p "$OLD"
git -C "$PROJECT" archive 31b23fd^ | tar -x -C "$OLD"
R=$WORK/r; mkdir -p "$R"; cd "$R"
git init -q -b main; echo hello > app.ts; echo lib > lib.ts; git add .; git commit -qm init
unset GIT_AUTHOR_DATE GIT_COMMITTER_DATE
wrap() { echo "Refactor app.ts" | $D run -q --no-prompt --allow-run=git "$PROJECT/handshake.ts" wrap --context | sed -n 's/^snapshot: //p'; }
snap=$(wrap)
gate() { $D run -q --no-prompt --allow-run=git "$PROJECT/gate.ts" "$@"; }
old_gate() { $D run -q --no-prompt --allow-run=git "$OLD/gate.ts" "$@"; }
# A one-line summary of a --json verdict: verdict, confirmed, unobserved, unclaimed.
summ() { $D eval -q 'const r=JSON.parse(await new Response(Deno.stdin.readable).text()); console.log(`verdict=${r.verdict} confirmed=${JSON.stringify(r.changes?.confirmed)} claimed_unobserved=${JSON.stringify(r.changes?.claimed_unobserved)} observed_unclaimed=${JSON.stringify(r.changes?.observed_unclaimed)} reasons=${JSON.stringify(r.reasons)}`)'; }
