export { discoverFiles, MAX_SOURCE_BYTES, SKIPPED_DIRECTORIES, SOURCE_EXTENSIONS } from './discover-files.js';
export type { DiscoverOptions, DiscoveredFiles, SkippedFile, SkipReason } from './discover-files.js';
export { ExitCode, UsageError } from './exit-codes.js';
export type { CliIo, OutputStream } from './io.js';
export { main } from './main.js';
