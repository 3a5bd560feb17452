import sys, hashlib
T, N = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
d = bytearray(open(".git/index","rb").read())
i = d.find(b"TREE"); j = d.find(N, i); assert i>0 and j>0, (i,j)
d[j:j+20] = T
d[-20:] = hashlib.sha1(bytes(d[:-20])).digest()
open(".git/index","wb").write(d)
