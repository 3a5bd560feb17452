. "$(dirname "$0")/pre.sh"
git config core.autocrlf true; rm b.ts; git checkout -q b.ts
spawn
echo a2 >a.ts; git commit -qam e
# a job the child leaves running: flips autocrlf off and back on
( while :; do git config core.autocrlf false; git config core.autocrlf true; done ) >/dev/null 2>&1 & BG=$!
for try in 1 2 3 4 5 6 7 8 9 10; do out=$(gate b.ts); echo "try $try: ${out:0:60}"; case $out in accept*) echo "$out"; break;; esac; done
kill $BG
