import { DYNAMIC_SDK_IMPORT_IN_TEXT, isMcpSdkModule, SDK_MODULE_IN_TEXT } from '@mcp-mrtr/core';
import { ts } from 'ts-morph';

/**
 * Whether a file imports an MCP SDK package: a top-level import, re-export or `import x =
 * require(…)`, or a `require()` / `import()` anywhere: what the lint's `importsSdk` asks of ESTree.
 */
export function importsMcpSdk(sourceFile: ts.SourceFile): boolean {
  const text = sourceFile.text;
  if (!SDK_MODULE_IN_TEXT.test(text)) return false;
  if (DYNAMIC_SDK_IMPORT_IN_TEXT.test(text)) return true;
  return sourceFile.statements.some((statement) => {
    const module =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)
        ? statement.moduleSpecifier
        : ts.isImportEqualsDeclaration(statement) && ts.isExternalModuleReference(statement.moduleReference)
          ? statement.moduleReference.expression
          : undefined;
    return module !== undefined && ts.isStringLiteral(module) && isMcpSdkModule(module.text);
  });
}
