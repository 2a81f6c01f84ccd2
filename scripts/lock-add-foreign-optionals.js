// Usage: npm ci 2>&1 | grep Missing: | sed -E "s/.*Missing: (.*)@([^@]*) from lock file/\1 \2/" > /tmp/m.txt && node scripts/lock-add-foreign-optionals.js package-lock.json /tmp/m.txt
// Adds lock entries for platform-specific optional packages that this machine's registry does not serve,
// marked optional with their os/cpu, so that `npm ci` validates and skips them on Linux.
const fs = require('fs');
const lockPath = process.argv[2];
const lock = JSON.parse(fs.readFileSync(lockPath));
// argv[3]: the "Missing: name@ from lock file" names, one per line (`name version`), from a failed `npm ci`.
const missing = fs.readFileSync(process.argv[3], 'utf8').trim().split('\n').map((l) => l.split(' ')[0]);
const pk = lock.packages;
for (const name of missing) {
  // find a parent that lists it as optional dependency, take its spec
  let spec;
  for (const [k, v] of Object.entries(pk)) if (v.optionalDependencies && v.optionalDependencies[name]) { spec = v.optionalDependencies[name]; break; }
  if (!spec) { console.error('no parent for', name); continue; }
  const version = spec.replace(/^[\^~=]/, '');
  const n = name.split('/').pop();
  const os = ['darwin', 'win32', 'android', 'freebsd', 'openharmony', 'linux', 'sunos', 'aix', 'netbsd', 'openbsd'].find((o) => n.includes(o));
  const cpu = ['arm64', 'x64', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32', 'arm'].find((c) => n.includes(c));
  const entry = { version, dev: true, optional: true };
  if (os) entry.os = [os];
  if (cpu) entry.cpu = [cpu];
  if (n.includes('musl')) entry.libc = ['musl'];
  else if (os === 'linux' && n.includes('gnu')) entry.libc = ['glibc'];
  pk['node_modules/' + name] = entry;
}
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log('added', missing.length);
