// Finds import circles among the TypeScript sources of every package and app, with the TypeScript
// compiler's parser: every import counts, type-only ones and `import('...')` types included, since a
// circle of types still ties its files into one floor. Run: node tooling/scripts/importCircles.mjs
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The `.ts` files (not `.d.ts`) under `dir`, sorted. */
function sourcesUnder(dir) {
  const found = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...sourcesUnder(path));
    else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** The `src/` files of every package and app under `root` (`packages/*`, `apps/*`). */
export function workspaceSources(root = ROOT) {
  const found = [];
  for (const group of ['packages', 'apps']) {
    if (!existsSync(join(root, group))) continue;
    for (const folder of readdirSync(join(root, group)).sort()) {
      const src = join(root, group, folder, 'src');
      if (existsSync(src) && statSync(src).isDirectory()) found.push(...sourcesUnder(src));
    }
  }
  return found;
}

/** Every module specifier a file names: imports, re-exports and `import('...')` types. */
function specifiersOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found = [];
  const visit = (node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      found.push(node.argument.literal.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The source file a relative specifier names (`./x.js` is `./x.ts`), if it is one of `known`. */
function resolveRelative(from, specifier, known) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => known.has(candidate));
}

/** The import graph of `files`: each file to the files of the same set it imports. */
export function importGraph(files) {
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const targets = specifiersOf(file)
      .map((specifier) => resolveRelative(file, specifier, known))
      .filter((target) => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The circles of `graph`: its strongly connected components of more than one file (or a file
 * importing itself), each as one closed path through the component, starting at its first file.
 */
export function circlesOf(graph) {
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, at] = frame;
      const targets = graph.get(node) ?? [];
      if (at < targets.length) {
        frame[1] = at + 1;
        const target = targets[at];
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) !== index.get(node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (graph.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) components.push(component.sort());
    }
  }
  return components.map((component) => closedPath(graph, component));
}

/** A shortest path from the component's first file back to it, through the component. */
function closedPath(graph, component) {
  const inside = new Set(component);
  const start = component[0];
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!inside.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return { files: component, path: [...path, start] };
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return { files: component, path: [start, start] };
}

/** The import circles among the sources of every package and app under `root`. */
export function findImportCircles(root = ROOT) {
  return circlesOf(importGraph(workspaceSources(root)));
}

/** One line per circle: its size and a closed path, relative to `root`. */
export function describeCircles(circles, root = ROOT) {
  return circles.map(
    ({ files, path }) =>
      `${files.length} files: ${path.map((file) => relative(root, file)).join(' -> ')}`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const circles = findImportCircles();
  for (const line of describeCircles(circles)) console.log(line);
  if (circles.length > 0) process.exitCode = 1;
  else console.log('no import circles');
}
