#!/usr/bin/env bash
# The findings of review gate-6, each through ../gate-5/h.sh (run from the project root:
# bash docs/reviews/gate-6/run-all.sh). A correct gate lists the hidden path in
# observed_unclaimed on every line (finding 6: no exit 3; finding 7: an empty list).
H=docs/reviews/gate-5; G=$PWD/docs/reviews/gate-6
bash $H/h.sh "1 forged untracked cache" '' 'git config core.untrackedCache true; git config status.showUntrackedFiles all; git status >/dev/null; echo EVIL > lib/evil.ts; sleep 1; git status >/dev/null; python3 '"$G"'/forge_untr.py lib evil.ts'
bash $H/h.sh "2 names no index can hold" '' 'mkdir -p src/.Git; echo "evil()" > src/.Git/x.ts; echo e > .GIT'
bash $H/h.sh "3 core.ignorecase in the private index" '' 'git config core.ignorecase true; echo b2 > b.ts; git init -q B.TS; echo x > B.TS/x; git -C B.TS add x; git -C B.TS commit -qm x'
bash $H/h.sh "4 sparse patterns in the private index" '' 'git sparse-checkout set --no-cone "/*" "!/evil"; git init -q evil; echo x > evil/x; git -C evil add x; git -C evil commit -qm x'
bash $H/h.sh "5 ident attribute" 'printf "/* \$Id\$ */\nexport const b = 1;\n" > b.ts; git commit -qam id' 'printf "/* \$Id: */ evil(); /* \$ */\nexport const b = 1;\n" > b.ts; echo "b.ts ident" >> .git/info/attributes'
bash $H/h.sh "6 directory replaced by a file (honest)" '' 'rm -r lib; echo q > lib'
bash $H/h.sh "7 sparse checkout, idle child (honest)" 'mkdir keep; echo k > keep/k.ts; git add keep; git commit -qm k; git sparse-checkout set --cone keep' ''
bash $H/h.sh "8 staged blob, worktree put back" '' 'git update-index --cacheinfo 100644,$(echo "evil()" | git hash-object -w --stdin),b.ts'
