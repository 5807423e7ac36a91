// The data plane's Node flags (DATA_PLANE_NODE_FLAGS): what they do to V8's young generation on the Node
// line running this test (the Node 24 line runs this folder too), and that every way the README and the
// image start the data plane passes them.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATA_PLANE_NODE_FLAGS, nodeFlagsNotGiven } from '@voice-router/service-kit/node-flags';
import { newSpaceAfterChurn } from '@voice-router/test-support';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const MiB = 1024 * 1024;

describe('DATA_PLANE_NODE_FLAGS', () => {
  it(`keeps the young generation within 32 MiB on Node ${process.versions.node}, where V8's default may grow it further`, () => {
    expect(newSpaceAfterChurn(DATA_PLANE_NODE_FLAGS)).toBeLessThanOrEqual(32 * MiB);
    const major = Number(process.versions.node.split('.')[0]);
    // Node 20's and Node 22's V8 stop at 32 MiB by themselves (measured: 22.23.3 too); Node 24's grows past it (128 MiB).
    if (major >= 24) expect(newSpaceAfterChurn([])).toBeGreaterThan(32 * MiB);
  });

  it("leaves a flag out when NODE_OPTIONS already gives it (an operator's value wins)", () => {
    expect(nodeFlagsNotGiven(DATA_PLANE_NODE_FLAGS, {})).toEqual(['--max-semi-space-size=16']);
    expect(nodeFlagsNotGiven(DATA_PLANE_NODE_FLAGS, { NODE_OPTIONS: '--max-semi-space-size=64 --enable-source-maps' })).toEqual([]);
  });

  it("is passed by the image's CMD and by README's command for a data-plane replica", () => {
    const dockerfile = fs.readFileSync(path.join(root, 'infra/docker/Dockerfile'), 'utf8');
    const stage = dockerfile.slice(dockerfile.indexOf('FROM runtime AS data-plane'));
    const command = JSON.parse(/^CMD (\[.*\])$/m.exec(stage)![1]!) as string[];
    expect(command).toEqual([...DATA_PLANE_NODE_FLAGS, 'dist/main.js']);
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme).toContain(`node ${DATA_PLANE_NODE_FLAGS.join(' ')} apps/data-plane/dist/main.js`);
  });
});
