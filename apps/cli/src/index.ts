// The CLI's public surface: run it in-process (tests, embedding) with your own streams and fetch.
export { runCli } from './run-cli.js';
export type { CliIo, OutputStream } from './cli-io.js';
export { formatMicros, parseUsdToMicros } from './money.js';
export { configDirectory, configFilePath, type CliConfig } from './config.js';
