// Another maintained Node line for the data plane (Node 24: no native uWS build loads there, so the
// data plane serves through its own node:http adapter). The binary comes from scripts/with-node.mjs,
// which fetches the pinned version from the npm registry once into .cache/node/.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repositoryRoot } from './managed-process.js';

interface WithNode {
  nodeBinDirectory(line: string): string;
}

/** The `node` binary of `line`, or an error saying why it cannot be had (no network, other platform). */
export async function nodeLineBinary(line: '22' | '24'): Promise<string> {
  const withNode = (await import(pathToFileURL(path.join(repositoryRoot, 'scripts', 'with-node.mjs')).href)) as WithNode;
  return path.join(withNode.nodeBinDirectory(line), 'node');
}
