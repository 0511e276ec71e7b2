// grep over ripgrep in a real folder: modes, filters, .gitignore, confinement, caps, bad input.
import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { createGrepTool } from '../../../src/core/tools/grep';
import { defaultRipgrepPath } from '../../../src/core/tools/ripgrep';
import type { Tool, ToolResult } from '../../../src/core/tools/types';
import { tempDir } from '../../kit/temp-dirs';

const ctx = { signal: new AbortController().signal, agentId: 'a', toolUseId: 't' };

async function call<I>(tool: Tool<I>, raw: unknown): Promise<ToolResult> {
  const parsed = tool.parse(raw);
  if (!parsed.ok) return { content: parsed.error, isError: true };
  return tool.execute(parsed.input, ctx);
}

describe('grep tool (ripgrep)', () => {
  let ws: string;
  let tool: Tool;
  beforeEach(async () => {
    ws = await fs.realpath(tempDir('delegate-grep-'));
    await fs.mkdir(path.join(ws, 'src'), { recursive: true });
    await fs.mkdir(path.join(ws, 'node_modules', 'dep'), { recursive: true });
    await fs.mkdir(path.join(ws, 'build'), { recursive: true });
    await fs.writeFile(path.join(ws, '.gitignore'), 'build/\n');
    await fs.writeFile(path.join(ws, 'src', 'a.ts'), 'export const alpha = 1;\n// TODO: alpha tests\nconst Alpha = 2;\n');
    await fs.writeFile(path.join(ws, 'src', 'b.js'), 'const beta = "alpha";\n');
    await fs.writeFile(path.join(ws, 'node_modules', 'dep', 'x.ts'), 'alpha in a dependency\n');
    await fs.writeFile(path.join(ws, 'build', 'out.ts'), 'alpha in build output\n');
    tool = createGrepTool(ws, defaultRipgrepPath());
  });
  afterEach(() => fs.rm(ws, { recursive: true, force: true }));

  it('lists matching files by default, respecting .gitignore and never node_modules', async () => {
    const r = await call(tool, { pattern: 'alpha' });
    assert.equal(r.content, 'src/a.ts\nsrc/b.js');
    assert.equal(tool.kind, 'read');
  });

  it('content mode with line numbers and context; case-insensitive; glob filter; count', async () => {
    assert.equal((await call(tool, { pattern: 'TODO', output_mode: 'content' })).content, 'src/a.ts:2:// TODO: alpha tests');
    const ctxr = await call(tool, { pattern: 'TODO', output_mode: 'content', '-C': 1 });
    assert.equal(ctxr.content, 'src/a.ts-1-export const alpha = 1;\nsrc/a.ts:2:// TODO: alpha tests\nsrc/a.ts-3-const Alpha = 2;');
    assert.equal((await call(tool, { pattern: 'alpha', '-i': true, output_mode: 'count', glob: '*.ts' })).content, 'src/a.ts:3');
    assert.equal((await call(tool, { pattern: 'alpha', output_mode: 'count', path: 'src/b.js' })).content, 'src/b.js:1');
  });

  it('caps the lines, says when nothing matches, refuses paths outside and bad input', async () => {
    const capped = await call(tool, { pattern: 'a', output_mode: 'content', head_limit: 2 });
    assert.match(capped.content, /^src\/.*\n.*\n\[\d+ more lines not shown; narrow the search or raise head_limit\]$/);
    assert.equal((await call(tool, { pattern: 'zebra' })).content, 'No matches for zebra');
    const outside = await call(tool, { pattern: 'x', path: '../' });
    assert.equal(outside.isError, true);
    assert.match(outside.content, /escapes the workspace/);
    assert.match((await call(tool, { pattern: 'x', output_mode: 'lines' })).content, /output_mode/);
    const bad = await call(tool, { pattern: '(unclosed' });
    assert.equal(bad.isError, true);
    assert.match(bad.content, /grep failed: .*regex/i);
  });

  it('a file name with a newline, tab or quote is one result in every mode, quoted as git quotes it', async () => {
    await fs.writeFile(path.join(ws, 'src', 'two\nlines.ts'), 'alpha here\nbeta\n');
    await fs.writeFile(path.join(ws, 'src', 'say "hi"\t.ts'), 'alpha\n');
    assert.equal((await call(tool, { pattern: 'alpha', path: 'src' })).content, 'src/a.ts\nsrc/b.js\n"src/say \\"hi\\"\\t.ts"\n"src/two\\nlines.ts"', 'sorted by the names as written');
    assert.equal((await call(tool, { pattern: 'alpha', path: 'src', output_mode: 'count' })).content, 'src/a.ts:2\nsrc/b.js:1\n"src/say \\"hi\\"\\t.ts":1\n"src/two\\nlines.ts":1');
    const content = await call(tool, { pattern: 'here', output_mode: 'content', '-C': 1 });
    assert.equal(content.content, '"src/two\\nlines.ts":1:alpha here\n"src/two\\nlines.ts"-2-beta');
    assert.equal((await call(tool, { pattern: 'here', output_mode: 'content', '-n': false })).content, '"src/two\\nlines.ts":alpha here');
  });

  it('says so when ripgrep is missing', async () => {
    const none = createGrepTool(ws, undefined);
    assert.match((await call(none, { pattern: 'x' })).content, /ripgrep \(rg\) was not found/);
  });
});
