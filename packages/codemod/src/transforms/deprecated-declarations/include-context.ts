import {
  INCLUDE_CONTEXT_GUIDANCE,
  isDeprecatedIncludeContext,
  isMcpSdkDeclarationFile,
} from '@mcp-mrtr/core';
import { ts } from 'ts-morph';
import type { FileContext, SiteBase } from '../../analysis/file-context.js';
import { isUnresolvedType } from '../../analysis/sdk-resolution.js';
import type { Site } from '../../analysis/site.js';
import { forEachDescendant, propertyNameText, staticString } from '../../analysis/syntax.js';
import { removeListElement } from '../../edits/removal.js';
import { TRANSFORM_ID } from './transform-id.js';

/** Whether the SDK declares the `includeContext` this object literal's type expects. */
function sdkIncludeContext(context: FileContext, object: ts.ObjectLiteralExpression): boolean | 'unresolved' {
  const type = context.checker.getContextualType(object);
  if (type === undefined) return false;
  if (isUnresolvedType(type)) return 'unresolved';
  const property = type.getProperty('includeContext');
  return (property?.declarations ?? []).some((declaration) =>
    isMcpSdkDeclarationFile(declaration.getSourceFile().fileName),
  );
}

/**
 * Finds `includeContext: 'thisServer' | 'allServers'` in SDK sampling parameters and removes it
 * (the default `none` applies). A computed value is left as manual work.
 */
export function analyseIncludeContext(context: FileContext): Site[] {
  const sites: Site[] = [];
  forEachDescendant(context.sourceFile, (node) => {
    if (
      !(ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) ||
      propertyNameText(node.name) !== 'includeContext'
    )
      return;
    const object = node.parent;
    if (!ts.isObjectLiteralExpression(object)) return;
    const value = ts.isPropertyAssignment(node) ? staticString(node.initializer) : undefined;
    if (value !== undefined && !isDeprecatedIncludeContext(value)) return;
    const fromSdk = sdkIncludeContext(context, object);
    context.countResolution(fromSdk === 'unresolved' ? 'none' : 'types');
    if (fromSdk === false) return;
    const base: SiteBase = {
      transform: TRANSFORM_ID,
      category: 'sampling',
      kind: 'include-context',
      node,
      todo: INCLUDE_CONTEXT_GUIDANCE,
    };
    if (fromSdk === 'unresolved') {
      sites.push(context.manualSite(base, 'the type these parameters are given to is unknown (any)'));
    } else if (value === undefined) {
      sites.push(
        context.manualSite(base, 'the value is computed, so whether it is deprecated depends on the code'),
      );
    } else {
      sites.push(
        context.rewriteSite(base, [
          removeListElement(context.sourceFile, object.properties, object.properties.indexOf(node)),
        ]),
      );
    }
  });
  return sites;
}
