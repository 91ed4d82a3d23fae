export { DEFAULT_HANDLER_OPTIONS } from './analysis/file-context.js';
export type { FileContext, HandlerOptions, LoggingTarget } from './analysis/file-context.js';
export type { Rewrite, Site } from './analysis/site.js';
export type { MissingDependency } from './engine/dependencies.js';
export { allSites, manualSites } from './engine/migration-result.js';
export type { FileOutcome, FileStatus, MigrationResult, ProjectSummary } from './engine/migration-result.js';
export { planMigration } from './engine/plan-migration.js';
export type { MigrationOptions } from './engine/plan-migration.js';
export type { Phase, ProgressEvent, ProgressListener } from './engine/progress.js';
export { findUnresolvedSdkPackages } from './engine/sdk-preflight.js';
export type { UnresolvedSdkPackage } from './engine/sdk-preflight.js';
export { MARKER_PREFIX } from './edits/markers.js';
export { ruleIdOf } from './analysis/site-category.js';
export type { ResolveContext, Transform } from './transform.js';
export { selectTransforms, transforms, UnknownTransformError } from './transforms/index.js';
export { findStrayTemporaryFiles } from './engine/staged-write.js';
export { findNearestTsconfig } from './project/find-tsconfig.js';
export { writeChanges } from './engine/write-changes.js';
export { formatMarkdownReport } from './report/markdown-report.js';
export { buildReport } from './report/migration-report.js';
export type {
  MigrationReport,
  ReportedFile,
  ReportedManualSite,
  ReportedSite,
  RunMode,
} from './report/migration-report.js';
export { unifiedDiff } from './report/unified-diff.js';
export { describeFormatFailure, formatChangedFiles } from './format/format-changes.js';
export type { FormatFailure } from './format/format-changes.js';
