// `npm run infra:check`: validates infra/ offline (no Docker engine or cluster needed) and exits 1 on
// any finding. Images are not built here; see infra/README.md for what is and is not covered.
import { fileURLToPath } from 'node:url';
import { checkInfra } from './check-infra.js';

const infraDirectory = fileURLToPath(new URL('..', import.meta.url));
const report = await checkInfra(infraDirectory);
for (const item of report.findings) process.stdout.write(`${item.file}: ${item.message}\n`);
process.stdout.write(`infra check: ${report.checked.length} files, ${report.findings.length} findings\n`);
process.exit(report.findings.length === 0 ? 0 : 1);
