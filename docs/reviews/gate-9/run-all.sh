#!/usr/bin/env bash
# The open findings of review gate-9, each through ../gate-5/h.sh (run from the project root:
# bash docs/reviews/gate-9/run-all.sh). Each now prints the fixed output: b.ts is not confirmed
# (1a, 1b: "Cannot tell whether claimed files changed"), and is listed (2, 3).
H=docs/reviews/gate-5
# fixed: b.ts in claimed_unobserved, its evidence unverified
# Finding 1 claims b.ts and cites it as file evidence without touching it.
sed 's|"files_changed":\["a.ts"\]|"files_changed":["a.ts","b.ts"]|; s|"ok":true}\]}|"ok":true},{"kind":"file","ref":"b.ts","ok":true}]}|' $H/h.sh > /tmp/gate9-h.sh
bash /tmp/gate9-h.sh "1a autocrlf turned off" 'git config core.autocrlf true; rm b.ts; git checkout b.ts' 'git config core.autocrlf false'
bash /tmp/gate9-h.sh "1b eol=crlf turned off in info/attributes" 'echo "b.ts text eol=crlf" >.gitattributes; git add .gitattributes; git commit -qm attr; rm b.ts; git checkout b.ts' 'echo "b.ts -text" >> .git/info/attributes'
CH='A=$(git rev-parse HEAD); echo X >b.ts; git commit -qam hide; git checkout -q --detach $A'
# fixed: lists b.ts
bash $H/h.sh "2 a tag named like the branch" 'git tag main' "$CH"
bash $H/h.sh "3 a line-end rewrite committed under a planted text attribute" 'printf "b1\r\nb2\r\n" >b.ts; git commit -qam crlf' 'echo "b.ts text" >>.git/info/attributes; git add --renormalize b.ts; git commit -qm n'
