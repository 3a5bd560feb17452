#!/usr/bin/env bash
# The findings of review gate-7, each through ../gate-5/h.sh (run from the project root:
# bash docs/reviews/gate-7/run-all.sh). A correct gate lists the hidden path in
# observed_unclaimed (4, 5a: an empty list; 6: one error line, exit 3).
H=docs/reviews/gate-5
bash $H/h.sh "1 ident collapse with zeroed stat data" 'printf "/* \$Id\$ */\nexport const b = 1;\n" > b.ts; git commit -qam id' 'sleep 1; printf "/* \$Id: */ evil(); /* \$ */\nexport const b = 1;\n" > b.ts; echo "b.ts ident" >> .git/info/attributes; git update-index --cacheinfo 100644,$(git rev-parse HEAD:b.ts),b.ts'
bash $H/h.sh "2a repository under a name no index holds" '' 'git init -q .GIT; echo e>.GIT/e; git -C .GIT add e; git -C .GIT commit -qm e; mkdir -p src/.Git; git init -q src/.Git/u'
bash $H/h.sh "2b link to a directory under such a name" '' 'ln -s lib .GIT'
bash $H/h.sh "3 committed change, file put back" '' 'echo "evil()" > b.ts; git commit -qam evil; git show HEAD~2:b.ts > b.ts'
bash $H/h.sh "4 staged outside the sparse cone at spawn (honest)" 'mkdir keep; echo k>keep/k.ts; git add keep; git commit -qm k; echo c2>lib/c.ts; git commit -qam c2; git sparse-checkout set --cone keep; git reset -q --soft HEAD~1' ''
bash $H/h.sh "5a honest ident checkout" 'printf "/* \$Id\$ */\n" > b.ts; echo "b.ts ident" > .gitattributes; git add -A; git commit -qm id; rm b.ts; git checkout b.ts' ''
bash $H/h.sh "7a a link only the index has" '' 'git update-index --cacheinfo 120000,$(git rev-parse HEAD:b.ts),b.ts'
bash $H/h.sh "7b an exec bit only the index has" '' 'git update-index --chmod=+x b.ts'
T=$(mktemp -d) && git init -q "$T/r" && cd "$T/r" && echo a >a && git add a && git -c user.name=a -c user.email=a@b commit -qm a
S=$(echo t | deno run -q --allow-run=git "$OLDPWD/handshake.ts" wrap --context | sed -n 's/^snapshot: //p')
echo "== 6 claims nested 1,000 deep"
python3 -c "import json;print(json.dumps({'ok':True,'summary':'','files_changed':['/'.join(['x']*i) for i in range(1,1001)],'errors':[],'evidence':[]}))" | deno run -q --allow-run=git "$OLDPWD/gate.ts" --since "$S"; echo "exit $?"
