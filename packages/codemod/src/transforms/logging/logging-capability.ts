import path from 'node:path';
import type { FileContext } from '../../analysis/file-context.js';
import { downgrade, type Site } from '../../analysis/site.js';
import { findProperty, forEachDescendant } from '../../analysis/syntax.js';
import { removeListElement } from '../../edits/removal.js';
import type { ResolveContext } from '../../transform.js';
import { findCapabilityDeclarations } from '../shared/capabilities.js';
import { TRANSFORM_ID } from './logging-sends.js';

const SERVER_CLASSES = new Set(['McpServer', 'Server']);

const CAPABILITY_TODO =
  'Remove the logging capability once nothing sends protocol logs or handles logging/setLevel; log to stderr or through OpenTelemetry.';

/** Finds `logging` in server capability declarations and plans its removal (settled in `resolve`). */
export function analyseLoggingCapability(context: FileContext): Site[] {
  const sites: Site[] = [];
  forEachDescendant(context.sourceFile, (node) => {
    const declaration = findCapabilityDeclarations(context, SERVER_CLASSES, node);
    if (declaration === undefined) return;
    const property = findProperty(declaration.object, 'logging');
    if (property === undefined) return;
    const index = declaration.object.properties.indexOf(property);
    sites.push(
      context.rewriteSite(
        {
          transform: TRANSFORM_ID,
          category: 'logging',
          kind: 'capability',
          node: property,
          todo: CAPABILITY_TODO,
        },
        [removeListElement(context.sourceFile, declaration.object.properties, index)],
      ),
    );
  });
  return sites;
}

/** The kinds of site that need the capability until they are gone. */
const NEEDS_CAPABILITY = new Set([
  'send-logging-message',
  'notification',
  'mcp-req-log',
  'set-level-handler',
]);

/**
 * The SDK refuses a `logging/setLevel` handler and a `notifications/message` send without the
 * capability, so it goes only when every such site in the run is rewritten and no file of the
 * same projects outside the run may still log through the protocol.
 */
export function resolveLoggingCapability(sites: readonly Site[], context: ResolveContext): readonly Site[] {
  const blocking = sites.filter((site) => NEEDS_CAPABILITY.has(site.kind) && site.rewrite === undefined);
  const unvisited = context.unvisitedCandidates.get(TRANSFORM_ID) ?? [];
  if (blocking.length === 0 && unvisited.length === 0) return sites;
  const where = (file: string, line?: number) =>
    `${path.relative(context.cwd, file)}${line === undefined ? '' : `:${line}`}`;
  const listed = [
    ...blocking.map((site) => where(site.file, site.line)),
    ...unvisited.map((file) => `${where(file)} (not in this run)`),
  ];
  const shown = listed.slice(0, 3).join(', ') + (listed.length > 3 ? ` and ${listed.length - 3} more` : '');
  const reason = `protocol logging is still used at ${shown}; the SDK needs the capability until those are migrated`;
  return sites.map((site) =>
    site.kind === 'capability' && site.rewrite !== undefined ? downgrade(site, reason) : site,
  );
}
