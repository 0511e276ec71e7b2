// What the adversarial run broke: parallel edits of one file, FIFOs and other non-regular files,
// files that are not UTF-8, read-only files. Real temp folders, real FIFOs and sockets.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:net';
import * as path from 'node:path';
import { createBaseTools } from '../../../src/core/tools/base-tools';
import { createNodeFileOps } from '../../../src/core/tools/node-file-ops';
import type { ToolRegistry, ToolResult } from '../../../src/core/tools/types';
import { tempDir } from '../../kit/temp-dirs';

let n = 0;
function call(tools: ToolRegistry, name: string, raw: unknown, signal = new AbortController().signal): Promise<ToolResult> {
  const tool = tools.get(name);
  if (!tool) throw new Error(`no tool ${name}`);
  const parsed = tool.parse(raw);
  if (!parsed.ok) return Promise.resolve({ content: parsed.error, isError: true });
  return tool.execute(parsed.input, { signal, agentId: 'a', toolUseId: `tu_${++n}` });
}

describe('file tools: safety', () => {
  let ws: string;
  let tools: ToolRegistry;
  const file = (p: string): string => path.join(ws, p);

  beforeEach(async () => {
    ws = await fs.realpath(tempDir('delegate-safety-'));
    tools = createBaseTools(ws, { defaultTimeoutMs: 5000, maxTimeoutMs: 5000, maxOutputChars: 10_000 });
  });
  afterEach(() => fs.rm(ws, { recursive: true, force: true }));

  describe('parallel writers of one file', () => {
    it('keeps every one of several concurrent edits to different lines (each told "Edited")', async () => {
      const lines = Array.from({ length: 8 }, (_, i) => `line ${i} = old`);
      await fs.writeFile(file('shared.txt'), lines.join('\n') + '\n');
      const results = await Promise.all(
        [1, 3, 5, 7].map((i) => call(tools, 'edit_file', { path: 'shared.txt', old_text: `line ${i} = old`, new_text: `line ${i} = NEW by ${i}` })),
      );
      for (const r of results) assert.match(r.content, /^Edited shared\.txt/, r.content);
      const after = await fs.readFile(file('shared.txt'), 'utf8');
      for (const i of [1, 3, 5, 7]) assert.ok(after.includes(`line ${i} = NEW by ${i}`), `edit ${i} survived:\n${after}`);
      for (const i of [0, 2, 4, 6]) assert.ok(after.includes(`line ${i} = old`));
    });

    it('orders a write_file racing an edit_file: the file is what some serial order of the two successes gives', async () => {
      await fs.writeFile(file('race.txt'), 'a\nb\n');
      const [edit, write] = await Promise.all([
        call(tools, 'edit_file', { path: 'race.txt', old_text: 'b', new_text: 'B' }),
        call(tools, 'write_file', { path: 'race.txt', content: 'a\nb\nc\n' }),
      ]);
      assert.equal(write.isError, undefined, write.content);
      const after = await fs.readFile(file('race.txt'), 'utf8');
      if (edit.isError) assert.equal(after, 'a\nb\nc\n');
      else assert.ok(['a\nb\nc\n', 'a\nB\nc\n'].includes(after), `a serial outcome, not a lost write: ${JSON.stringify(after)}`);
    });
  });

  describe('files that are not regular', () => {
    let server: Server | undefined;
    afterEach(() => server?.close());

    it('refuses a FIFO in every file tool at once, without opening it', async function () {
      this.timeout(5000);
      execFileSync('mkfifo', [file('pipe')]);
      const t0 = Date.now();
      const read = await call(tools, 'read_file', { path: 'pipe' });
      const edit = await call(tools, 'edit_file', { path: 'pipe', old_text: 'x', new_text: 'y' });
      const write = await call(tools, 'write_file', { path: 'pipe', content: 'x' });
      assert.ok(Date.now() - t0 < 1000, 'no call blocked');
      for (const r of [read, edit, write]) {
        assert.equal(r.isError, true);
        assert.match(r.content, /pipe is a named pipe \(FIFO\), not a regular file/);
      }
      assert.ok((await fs.lstat(file('pipe'))).isFIFO(), 'write_file did not replace the FIFO');
    });

    it('refuses a socket and a directory with a reason', async () => {
      server = createServer();
      await new Promise<void>((resolve) => server?.listen(file('sock'), resolve));
      assert.match((await call(tools, 'read_file', { path: 'sock' })).content, /sock is a socket, not a regular file/);
      await fs.mkdir(file('dir'));
      assert.match((await call(tools, 'read_file', { path: 'dir' })).content, /dir is a directory/);
    });

    it('FileOps.readFile itself refuses a FIFO (nothing opened), and aborts with its signal', async () => {
      const ops = createNodeFileOps();
      execFileSync('mkfifo', [file('late')]);
      await assert.rejects(ops.readFile(file('late')), (err: Error & { code?: string }) => err.code === 'ENOTREGULAR');
      await fs.writeFile(file('big.txt'), 'x'.repeat(1000));
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(ops.readFile(file('big.txt'), controller.signal), (err: Error & { code?: string }) => err.code === 'ABORT_ERR');
    });
  });

  describe('encodings and line endings', () => {
    const latin1 = Buffer.from('caf\xe9 cr\xe8me\nligne deux\nd\xe8s demain\n', 'latin1');

    it('edits a Latin-1 file on another line without touching a byte outside the edited span', async () => {
      await fs.writeFile(file('fr.txt'), latin1);
      const r = await call(tools, 'edit_file', { path: 'fr.txt', old_text: 'ligne deux', new_text: 'line two' });
      assert.match(r.content, /^Edited fr\.txt at line 2.*Windows-1252/, r.content);
      assert.deepEqual(await fs.readFile(file('fr.txt')), Buffer.from('caf\xe9 cr\xe8me\nline two\nd\xe8s demain\n', 'latin1'));
    });

    it('edits non-ASCII text of a Latin-1 file in its own encoding, and refuses characters it cannot hold', async () => {
      await fs.writeFile(file('fr.txt'), latin1);
      const ok = await call(tools, 'edit_file', { path: 'fr.txt', old_text: 'dès demain', new_text: 'dès lundi, à 9 h' });
      assert.equal(ok.isError, undefined, ok.content);
      assert.deepEqual(await fs.readFile(file('fr.txt')), Buffer.from('caf\xe9 cr\xe8me\nligne deux\nd\xe8s lundi, \xe0 9 h\n', 'latin1'));
      const bad = await call(tools, 'edit_file', { path: 'fr.txt', old_text: 'ligne deux', new_text: 'ligne → deux' });
      assert.equal(bad.isError, true);
      assert.match(bad.content, /cannot hold →/);
      assert.match(await fs.readFile(file('fr.txt'), 'latin1'), /ligne deux/);
    });

    it('read_file decodes a Latin-1 file and says it is not UTF-8; refuses binary', async () => {
      await fs.writeFile(file('fr.txt'), latin1);
      const r = await call(tools, 'read_file', { path: 'fr.txt' });
      assert.ok(r.content.startsWith('café crème\nligne deux\ndès demain'), r.content);
      assert.match(r.content, /\[fr\.txt is not valid UTF-8: shown decoded as Windows-1252/);
      await fs.writeFile(file('bin.dat'), Buffer.from([1, 2, 0, 3]));
      assert.match((await call(tools, 'read_file', { path: 'bin.dat' })).content, /binary/);
      await fs.writeFile(file('plain.txt'), 'héllo\n');
      assert.equal((await call(tools, 'read_file', { path: 'plain.txt' })).content, 'héllo');
    });

    it('keeps a UTF-8 BOM and CRLF line endings through an edit', async () => {
      const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\ntwo\r\nthree\r\n')]);
      await fs.writeFile(file('win.txt'), original);
      const r = await call(tools, 'edit_file', { path: 'win.txt', old_text: 'two\nthree', new_text: 'TWO\nTHREE' });
      assert.equal(r.isError, undefined, r.content);
      assert.deepEqual(await fs.readFile(file('win.txt')), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\nTWO\r\nTHREE\r\n')]));
    });

    it('reads and edits a UTF-16LE file with its BOM', async () => {
      await fs.writeFile(file('u16.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('première\nzweite Zeile\n', 'utf16le')]));
      assert.equal((await call(tools, 'read_file', { path: 'u16.txt' })).content.split('\n')[0], 'première');
      const r = await call(tools, 'edit_file', { path: 'u16.txt', old_text: 'zweite', new_text: 'dritte' });
      assert.equal(r.isError, undefined, r.content);
      assert.deepEqual(await fs.readFile(file('u16.txt')), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('première\ndritte Zeile\n', 'utf16le')]));
    });

    it('write_file over an existing Latin-1 CRLF file keeps its encoding and line endings', async () => {
      await fs.writeFile(file('old.txt'), Buffer.from('\xe9t\xe9\r\nhiver\r\n', 'latin1'));
      const r = await call(tools, 'write_file', { path: 'old.txt', content: 'été\nautomne\n' });
      assert.match(r.content, /kept CRLF line endings, kept its windows-1252 encoding/);
      assert.deepEqual(await fs.readFile(file('old.txt')), Buffer.from('\xe9t\xe9\r\nautomne\r\n', 'latin1'));
    });
  });

  describe('read-only files', () => {
    it('write_file and edit_file refuse a file its owner may not write, leaving it unchanged', async () => {
      await fs.writeFile(file('locked.txt'), 'keep me\n');
      await fs.chmod(file('locked.txt'), 0o444);
      const w = await call(tools, 'write_file', { path: 'locked.txt', content: 'replaced\n' });
      const e = await call(tools, 'edit_file', { path: 'locked.txt', old_text: 'keep', new_text: 'lose' });
      for (const r of [w, e]) {
        assert.equal(r.isError, true);
        assert.match(r.content, /locked\.txt is read-only \(mode 0444\)/);
      }
      assert.equal(await fs.readFile(file('locked.txt'), 'utf8'), 'keep me\n');
      assert.equal((await fs.stat(file('locked.txt'))).mode & 0o777, 0o444);
    });
  });
});
