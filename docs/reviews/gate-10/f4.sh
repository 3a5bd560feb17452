. "$(dirname "$0")/pre.sh"
git config core.autocrlf true; rm b.ts; git checkout -q b.ts
unset HOME; export DENO_DIR=${DENO_DIR:-/root/.cache/deno}
spawn
echo a2 >a.ts; git commit -qam e
git config core.autocrlf false
gate b.ts
