#!/usr/bin/env bash
# Finding 12: `handshake wrap --worktree DIR --context` gives the isolated child a
# [working-context] block that describes the PARENT's tree: project_dir and git.worktree
# are the parent's top level, linked_worktree false, branch main. A child that follows its
# working context (the block exists to ground it) works in the shared tree, the thing
# worktree mode is there to prevent; and its edits there are invisible to gate --worktree.
. "$(dirname "$0")/common.sh"
setup
(cd "$P" && echo task | handshake wrap --worktree "$P/wt/c1" --context) > "$WORK/c1.md" || exit 1
grep -E '^(worktree_path|project_dir|  worktree|  branch|  linked_worktree):' "$WORK/c1.md"
# A fixed tether renders the context of the child's worktree in worktree mode:
# project_dir and git.worktree = worktree_path, branch = worktree_branch,
# linked_worktree: true (or leaves the path and git parts out, as --audience public does).
