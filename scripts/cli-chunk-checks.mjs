// Does each dynamic import() of ours get, from the split bundle, the names it takes? Under Node or tsx an
// `import('yaml')` (a CommonJS package) gives its named exports; in esbuild's split ESM output the same import
// loads a chunk whose only export is `default` — the crash of "delegate: s is not a function". Read from the
// build's metafile (each import() target's chunk and its exports) and the TypeScript source (the names taken).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/**
 * One line per problem: an import() in `sources` (src/) whose chunk lacks a name it takes, or whose use cannot be read
 * (then write it as `const { a } = await import('…')` or `import('…').then((m) => m.a)`).
 */
export function dynamicImportProblems(metafile, root, sources = 'src/') {
  const exportsOf = new Map();
  for (const out of Object.values(metafile.outputs)) if (out.entryPoint) exportsOf.set(out.entryPoint, out.exports);
  const problems = [];
  for (const [input, info] of Object.entries(metafile.inputs)) {
    if (!input.startsWith(sources)) continue;
    // One record per import() call: one target per specifier is enough.
    const targets = [...new Map(info.imports.filter((i) => i.kind === 'dynamic-import' && !i.external && i.original).map((i) => [i.original, i])).values()];
    if (targets.length === 0) continue;
    const uses = dynamicImportUses(input, readFileSync(join(root, input), 'utf8'));
    for (const target of targets) {
      const exported = exportsOf.get(target.path);
      for (const use of uses.filter((u) => u.specifier === target.original)) {
        const where = `${input}:${use.line} import('${use.specifier}')`;
        if (!exported) problems.push(`${where}: no chunk of the build is its target`);
        else if (use.names === undefined) problems.push(`${where}: cannot tell which of its exports it uses`);
        else {
          const missing = use.names.filter((n) => !exported.includes(n));
          if (missing.length) problems.push(`${where} takes ${missing.join(', ')}, but its chunk exports only ${exported.join(', ') || 'nothing'}`);
        }
      }
    }
  }
  return problems;
}

/** Each `import('literal')` in a source file, with the names taken from what it resolves to (undefined: unknown). */
export function dynamicImportUses(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const uses = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      uses.push({ specifier: node.arguments[0].text, line, names: namesTaken(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return uses;
}

function namesTaken(call) {
  let node = call.parent;
  while (ts.isParenthesizedExpression(node)) node = node.parent;
  if (ts.isAwaitExpression(node)) {
    let outer = node.parent;
    while (ts.isParenthesizedExpression(outer)) outer = outer.parent;
    if (ts.isPropertyAccessExpression(outer)) return [outer.name.text];
    if (ts.isVariableDeclaration(outer)) return bindingNames(outer.name, outer.parent.parent.parent);
    return undefined;
  }
  // import('x').then((m) => …)
  if (ts.isPropertyAccessExpression(node) && node.name.text === 'then' && ts.isCallExpression(node.parent)) {
    const callback = node.parent.arguments[0];
    if (callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback)) && callback.parameters[0]) {
      return bindingNames(callback.parameters[0].name, callback.body);
    }
  }
  return undefined;
}

/** `{ a, b: c }` → a, b; an identifier → the properties read from it in `scope`; anything else → unknown. */
function bindingNames(name, scope) {
  if (ts.isObjectBindingPattern(name)) {
    if (name.elements.some((e) => e.dotDotDotToken)) return undefined;
    return name.elements.map((e) => (e.propertyName ?? e.name).getText());
  }
  if (!ts.isIdentifier(name)) return undefined;
  const names = new Set();
  let opaque = false;
  const visit = (node) => {
    if (ts.isIdentifier(node) && node.text === name.text && node !== name) {
      if (ts.isPropertyAccessExpression(node.parent) && node.parent.expression === node) names.add(node.parent.name.text);
      else opaque = true; // passed on whole: its uses cannot be followed here
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  return opaque ? undefined : [...names];
}
