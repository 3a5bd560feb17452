. "$(dirname "$0")/../gate-10/pre.sh"
git config core.autocrlf true; rm b.ts; git checkout -q b.ts; sleep 1; git update-index --refresh; sleep 1
git config core.autocrlf false
spawn
echo a2 >a.ts; git commit -qam e
touch b.ts
gate b.ts
