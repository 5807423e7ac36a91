// Creates a new PGlite data dir and exits: `node pglite-initdb.js <dataDir> <settings as JSON>`. Run in a
// process of its own by database.ts, because PGlite's initdb runs in a second WebAssembly instance whose
// allocations (~650 MB at their peak) the allocator keeps after they are freed: the embedded service
// after a first start held 375 MB at rest with initdb in-process, 336 MB with it here (271 after a restart).
// Plain JavaScript on purpose, like pglite-worker.js: the same file runs from src/ (tests) and dist/.
import { PGlite } from '@electric-sql/pglite';

const [dataDir, settings] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: pglite-initdb.js <dataDir> [settings JSON]');
const database = await PGlite.create({ dataDir, postgresqlconf: settings ? JSON.parse(settings) : undefined });
await database.close();
