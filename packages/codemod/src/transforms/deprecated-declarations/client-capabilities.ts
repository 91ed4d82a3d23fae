import { isMcpSdkDeclarationFile, legacyCapability, type LegacyCategory } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext } from '../../analysis/file-context.js';
import { sdkExportName } from '../../analysis/sdk-resolution.js';
import type { Site } from '../../analysis/site.js';
import { findProperty, forEachDescendant, staticString, unwrapExpression } from '../../analysis/syntax.js';
import { lineAndColumn } from '../../edits/line-ranges.js';
import { removeListElements } from '../../edits/removal.js';
import { findCapabilityDeclarations, type CapabilityDeclaration } from '../shared/capabilities.js';
import { TRANSFORM_ID } from './transform-id.js';

const CLIENT_CLASSES = new Set(['Client']);

/** A deprecated client capability and what keeps it necessary. */
interface DeprecatedFeature {
  readonly capability: 'roots' | 'sampling';
  readonly category: LegacyCategory;
  /** The request a client handler answers while it declares the capability. */
  readonly method: string;
  readonly requestSchema: string;
  /** Client calls the SDK refuses without the capability. */
  readonly calls: readonly string[];
}

const FEATURES: readonly DeprecatedFeature[] = [
  {
    capability: 'roots',
    category: 'roots',
    method: 'roots/list',
    requestSchema: 'ListRootsRequestSchema',
    calls: ['sendRootsListChanged'],
  },
  {
    capability: 'sampling',
    category: 'sampling',
    method: 'sampling/createMessage',
    requestSchema: 'CreateMessageRequestSchema',
    calls: [],
  },
];

function todoFor(feature: DeprecatedFeature): string {
  return (
    legacyCapability('client', [feature.capability])?.guidance ?? `Stop declaring ${feature.capability}.`
  );
}

/** The local variable a client lives in, when the code keeps it in one this file owns. */
function clientVariable(context: FileContext, declaration: CapabilityDeclaration): ts.Symbol | string {
  let holder: ts.Node | undefined;
  if (declaration.receiver !== undefined) {
    holder = unwrapExpression(declaration.receiver);
    if (!ts.isIdentifier(holder))
      return 'the client is not kept in a local variable, so its handlers cannot be followed';
  } else {
    let parent = declaration.origin.parent;
    while (
      ts.isParenthesizedExpression(parent) ||
      ts.isAsExpression(parent) ||
      ts.isSatisfiesExpression(parent)
    )
      parent = parent.parent;
    if (!ts.isVariableDeclaration(parent) || !ts.isIdentifier(parent.name))
      return 'the client is not kept in a local variable, so its handlers cannot be followed';
    holder = parent.name;
  }
  const symbol = context.checker.getSymbolAtLocation(holder);
  const variable = symbol?.valueDeclaration;
  if (symbol === undefined || variable === undefined || variable.getSourceFile() !== context.sourceFile)
    return 'the client is created in another file';
  const statement = ts.isVariableDeclaration(variable) ? variable.parent.parent : undefined;
  if (
    statement !== undefined &&
    ts.isVariableStatement(statement) &&
    statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  )
    return 'the client is exported, so other modules may register handlers on it';
  return symbol;
}

/** Why a feature's capability must stay, or undefined when removing it changes nothing else. */
function whyCapabilityStays(
  context: FileContext,
  client: ts.Symbol,
  feature: DeprecatedFeature,
): string | undefined {
  let reason: string | undefined;
  const line = (node: ts.Node) => lineAndColumn(context.text, node.getStart(context.sourceFile)).line;
  forEachDescendant(context.sourceFile, (node) => {
    if (reason !== undefined || !ts.isIdentifier(node)) return;
    const declaration = client.valueDeclaration;
    if (declaration !== undefined && ts.isVariableDeclaration(declaration) && declaration.name === node)
      return;
    if (context.checker.getSymbolAtLocation(node) !== client) return;
    const access = node.parent;
    if (!ts.isPropertyAccessExpression(access) || access.expression !== node) {
      reason = `the client is passed on at line ${line(node)}, where code this run cannot follow may depend on ${feature.capability}`;
      return;
    }
    const call = access.parent;
    if (!ts.isCallExpression(call) || call.expression !== access) return;
    const member = access.name.text;
    if (feature.calls.includes(member)) {
      reason = `the client calls ${member}() at line ${line(call)}, which the SDK refuses without the capability; remove both together`;
      return;
    }
    if (member === 'setRequestHandler') {
      const first = call.arguments[0];
      const handled =
        first !== undefined &&
        (staticString(first) === feature.method ||
          sdkExportName(context.checker, unwrapExpression(first)) === feature.requestSchema);
      if (handled)
        reason = `the client still answers ${feature.method} (handler at line ${line(call)}); remove the handler and the capability together`;
    }
  });
  return reason;
}

/**
 * Whether the object literal is typed as the SDK's client capabilities: its contextual type has
 * the SDK-declared `capability` and `elicitation` (servers declare neither). The v1 type is
 * inferred from a zod schema, so there is no type name to go by.
 */
function isClientCapabilitiesObject(
  context: FileContext,
  object: ts.ObjectLiteralExpression,
  capability: string,
): boolean {
  const type = context.checker.getContextualType(object);
  if (type === undefined) return false;
  const fromSdk = (name: string) =>
    (type.getProperty(name)?.declarations ?? []).some((declaration) =>
      isMcpSdkDeclarationFile(declaration.getSourceFile().fileName),
    );
  return fromSdk(capability) && fromSdk('elicitation');
}

/**
 * Finds `roots` and `sampling` in client capability declarations. Given straight to `new
 * Client(…)` or `client.registerCapabilities(…)` for a client this file owns and that answers
 * neither request, they are removed; anywhere else they are left as manual work with the reason.
 */
export function analyseClientCapabilities(context: FileContext): Site[] {
  const sites: Site[] = [];
  const handled = new Set<ts.ObjectLiteralExpression>();
  forEachDescendant(context.sourceFile, (node) => {
    const declaration = findCapabilityDeclarations(context, CLIENT_CLASSES, node);
    if (declaration === undefined) return;
    handled.add(declaration.object);
    const found = FEATURES.flatMap((feature) => {
      const property = findProperty(declaration.object, feature.capability);
      return property === undefined ? [] : [{ feature, property }];
    });
    if (found.length === 0) return;
    const client = clientVariable(context, declaration);
    const removable: typeof found = [];
    for (const { feature, property } of found) {
      const base = {
        transform: TRANSFORM_ID,
        category: feature.category,
        kind: `client-capability-${feature.capability}`,
        node: property,
        todo: todoFor(feature),
      };
      const reason = typeof client === 'string' ? client : whyCapabilityStays(context, client, feature);
      if (reason !== undefined) sites.push(context.manualSite(base, reason));
      else removable.push({ feature, property });
    }
    // One set of edits for every removed property of the object, so that neighbours do not clash.
    const edits = removeListElements(
      context.sourceFile,
      declaration.object.properties,
      removable.map(({ property }) => declaration.object.properties.indexOf(property)),
    );
    removable.forEach(({ feature, property }, index) => {
      const base = {
        transform: TRANSFORM_ID,
        category: feature.category,
        kind: `client-capability-${feature.capability}`,
        node: property,
        todo: todoFor(feature),
      };
      sites.push(context.rewriteSite(base, index === 0 ? edits : []));
    });
  });
  forEachDescendant(context.sourceFile, (node) => {
    if (!ts.isObjectLiteralExpression(node) || handled.has(node)) return;
    for (const feature of FEATURES) {
      const property = findProperty(node, feature.capability);
      if (property === undefined || !isClientCapabilitiesObject(context, node, feature.capability)) continue;
      sites.push(
        context.manualSite(
          {
            transform: TRANSFORM_ID,
            category: feature.category,
            kind: `client-capability-${feature.capability}`,
            node: property,
            todo: todoFor(feature),
          },
          'these ClientCapabilities are not given straight to new Client(), so whether a handler still needs them cannot be followed',
        ),
      );
    }
  });
  return sites;
}
