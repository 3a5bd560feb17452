import sys, zlib, os, subprocess
# forge the loose object of tree id T (argv1) to have the content of tree id N (argv2)
T, N = sys.argv[1], sys.argv[2]
body = subprocess.run(["git","cat-file","tree",N],capture_output=True,check=True).stdout
raw = b"tree %d\0" % len(body) + body
p = f".git/objects/{T[:2]}/{T[2:]}"
os.chmod(p, 0o644); open(p,"wb").write(zlib.compress(raw))
