# Adds the 8 @biomejs/cli-* platform entries the local registry mirror lacks, so `npm ci`
# passes its lock/package.json sync check (npm skips them here: os/cpu/libc mismatch).
import json, sys
p = sys.argv[1] if len(sys.argv) > 1 else 'package-lock.json'
l = json.load(open(p)); pk = l['packages']
stubs = {'android-arm64':('android','arm64',None),'android-x64':('android','x64',None),'darwin-arm64':('darwin','arm64',None),'darwin-x64':('darwin','x64',None),'linux-arm64-musl':('linux','arm64','musl'),'linux-x64-musl':('linux','x64','musl'),'win32-arm64':('win32','arm64',None),'win32-x64':('win32','x64',None)}
for name, (os_, cpu, libc) in stubs.items():
    e = {'version': pk['node_modules/@biomejs/biome']['version'], 'cpu': [cpu], 'dev': True}
    if libc: e['libc'] = [libc]
    e.update({'license': 'MIT OR Apache-2.0', 'optional': True, 'os': [os_], 'engines': {'node': '>=14.21.3'}})
    pk.setdefault('node_modules/@biomejs/cli-' + name, e)
l['packages'] = dict(sorted(pk.items(), key=lambda kv: (kv[0] != '', kv[0])))
with open(p, 'w') as f: json.dump(l, f, indent=2); f.write('\n')
