#!/usr/bin/env bash
# The findings of review gate-8, each through ../gate-5/h.sh (run from the project root:
# bash docs/reviews/gate-8/run-all.sh). A correct gate lists the hidden path in
# observed_unclaimed on every line (3: b.ts claimed_unobserved, and a reject).
H=docs/reviews/gate-5
bash $H/h.sh "1 committed deletion, file kept and excluded" '' 'git rm -q --cached b.ts; git commit -qm del; echo b.ts >> .git/info/exclude'
bash $H/h.sh "2a CRLF written under a planted ident" 'printf "#!/bin/sh\necho hi\n" > b.sh; git add b.sh; git commit -qm sh' 'echo "b.sh ident" >> .git/info/attributes; printf "#!/bin/sh\r\necho hi\r\n" > b.sh'
bash $H/h.sh "2b CRLF committed, then a planted text attribute" 'printf "#!/bin/sh\necho hi\n" > b.sh; git add b.sh; git commit -qm sh' 'printf "#!/bin/sh\r\necho hi\r\n" > b.sh; git commit -qam crlf; echo "b.sh text" >> .git/info/attributes'
sed 's|"files_changed":\["a.ts"\]|"files_changed":["a.ts","b.ts"]|' $H/h.sh > /tmp/gate8-h.sh
bash /tmp/gate8-h.sh "3 branch reset onto another, b.ts claimed" 'git checkout -qb other; echo bX>b.ts; git commit -qam other; git checkout -q main' 'git reset -q --soft other'
bash $H/h.sh "5 commit on the branch, HEAD detached at the spawn" '' 'E=$(git rev-parse HEAD); echo evil > b.ts; git commit -qam evil; git checkout -q --detach $E'
