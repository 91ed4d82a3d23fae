import path from 'node:path';
import ts from 'typescript';

/**
 * Reads the real SDK declarations with the TypeScript checker, so catalog tests compare our data
 * with what the published packages actually export (including type-only owners such as
 * `RequestHandlerExtra` that have no runtime value to inspect).
 */
export function propertyNamesOfTypes(
  probes: Readonly<Record<string, { module: string; importName: string; typeExpression: string }>>,
): Map<string, Set<string>> {
  const probeFile = path.join(import.meta.dirname, '__sdk_probe__.ts');
  const aliases = Object.entries(probes).map(([alias, probe], i) => {
    const local = `I${i}`;
    return {
      alias,
      imports: `import type { ${probe.importName} as ${local} } from '${probe.module}';`,
      declaration: `export type ${alias} = ${probe.typeExpression.replace(probe.importName, local)};`,
    };
  });
  const source =
    aliases.map((a) => a.imports).join('\n') + '\n' + aliases.map((a) => a.declaration).join('\n');

  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    types: [],
    skipLibCheck: true,
    noEmit: true,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (file) => (file === probeFile ? source : readFile(file));
  host.fileExists = (file) => file === probeFile || fileExists(file);
  host.getSourceFile = (file, language, onError, create) =>
    file === probeFile
      ? ts.createSourceFile(file, source, language, true)
      : getSourceFile(file, language, onError, create);

  const program = ts.createProgram([probeFile], options, host);
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(probeFile);
  if (sourceFile === undefined) throw new Error('probe file was not loaded');
  const unresolved = ts
    .getPreEmitDiagnostics(program, sourceFile)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (unresolved.length > 0) throw new Error(`SDK probe does not compile:\n${unresolved.join('\n')}`);

  const result = new Map<string, Set<string>>();
  for (const statement of sourceFile.statements) {
    if (!ts.isTypeAliasDeclaration(statement)) continue;
    const type = checker.getTypeAtLocation(statement.name);
    result.set(statement.name.text, new Set(type.getProperties().map((p) => p.getName())));
  }
  return result;
}
