#!/usr/bin/env bash
# The open findings of review gate-5, each through h.sh (run from the project root:
# bash docs/reviews/gate-5/run-all.sh). A correct gate lists the hidden path in
# observed_unclaimed on every line (finding 1: gate exits 3, the tree does not hash to its id).
H=docs/reviews/gate-5
bash $H/h.sh "1 forged subtree object" '' 'echo "c9 much longer" > lib/c.ts && git add lib/c.ts && python3 '"$PWD/$H"'/forge_tree.py "$(git rev-parse HEAD:lib)" "$(git write-tree --prefix=lib/)"'
bash $H/h.sh "2 forged cache-tree" '' 'echo c9 > lib/c.ts && git add lib/c.ts && git write-tree >/dev/null && python3 '"$PWD/$H"'/forge_ct.py "$(git rev-parse HEAD:lib)" "$(git write-tree --prefix=lib/)"'
bash $H/h.sh "3 unborn nested repository" '' 'git init -q nd && echo EVIL > nd/payload.ts'
bash $H/h.sh "4 core.ignorecase on a case-sensitive filesystem" '' 'git config core.ignorecase true; echo EVIL > B.TS; mkdir LIB; echo EVIL > LIB/c.ts'
bash $H/h.sh "6a core.trustctime=false, mtime reset" '' 'git config core.trustctime false; sleep 1.1; m=$(stat -c %Y b.ts); echo b9 > b.ts; touch -d @$m b.ts'  # fixed: lists b.ts
bash $H/h.sh "6b clean filter printing the old content" '' 'git config filter.h.clean "cat >/dev/null; printf \"b1\\n\""; echo "b.ts filter=h" > .git/info/attributes; sleep 1.1; echo b9 > b.ts'
