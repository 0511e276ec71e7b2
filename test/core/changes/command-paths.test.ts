// Which files a bash command or an MCP call names (command-paths.ts): what decides which of several overlapping
// calls a change is put down to. Attacked with what a hostile or careless command looks like: a path only in a
// comment, in a string it echoes, in a heredoc's body; quotes and spaces; a symlink; a rename; `cd` first.
import assert from 'node:assert/strict';
import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandWords, inputWords, namingCall, resolveWords } from '../../../src/core/changes/command-paths';
import { tempDir } from '../../kit/temp-dirs';

describe('command paths: the files a call names', () => {
  let root: string;
  before(() => {
    root = realpathSync(tempDir('delegate-named-'));
    mkdirSync(join(root, 'src'));
    writeFileSync(join(root, 'real.txt'), 'x\n');
    symlinkSync('real.txt', join(root, 'link.txt'));
    symlinkSync(join(root, 'src'), join(root, 'srclink'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));
  const names = (command: string): string[] => [...resolveWords(commandWords(command), root)].sort();

  it('a redirection\'s target, relative or absolute, normalised', () => {
    assert.deepEqual(names('echo x > a.txt'), ['a.txt']);
    assert.deepEqual(names('echo x >> ./src/../a.txt 2>&1'), ['a.txt']);
    assert.deepEqual(names(`printf 'y' &> ${root}/src/b.js`), ['src/b.js']);
    assert.deepEqual(names('cat <<EOF > gen.ts\nb.txt\nEOF'), ['gen.ts'], 'a heredoc\'s body is data');
  });

  it('the arguments of a command that writes: sed -i, touch, mv (both names), tee, --out=, of=', () => {
    assert.deepEqual(names("sed -i 's/a/b/' src/a.js"), ['s/a/b', 'src/a.js'].sort());
    assert.deepEqual(names('touch b'), ['b']);
    assert.deepEqual(names('mv old.txt new.txt'), ['new.txt', 'old.txt']);
    assert.deepEqual(names('echo x | tee -a log.txt'), ['log.txt']);
    const dd = names('gen --out=dist/x.js && dd if=/dev/zero of=blob.bin');
    assert.ok(dd.includes('dist/x.js') && dd.includes('blob.bin') && !dd.includes('gen'), dd.join(' '));
  });

  it('not: a path in a comment, in what echo/printf print, in what a look reads, in a quoted script, a glob, a variable', () => {
    assert.deepEqual(names('sleep 2 # then b.txt'), []);
    assert.deepEqual(names('echo b.txt; printf "%s" b.txt; echo "do not touch b.txt"'), []);
    assert.deepEqual(names('cat b.txt | grep x b.txt; wc -l b.txt; git diff b.txt; sleep 1'), []);
    assert.deepEqual(names(`python3 -c "open('b.txt','w')"`), ['open(\'b.txt\',\'w\')'], 'the whole string is one word, no file of that name');
    assert.deepEqual(names('rm *.txt; rm "$F"; rm $(cat list)'), []);
  });

  it('quotes and spaces in a path', () => {
    assert.deepEqual(names(`echo x > "my file.txt"`), ['my file.txt']);
    assert.deepEqual(names(`touch 'it'\\''s.txt' my\\ other.txt`), ["it's.txt", 'my other.txt']);
  });

  it('a symlink names its target too; a folder through a symlinked folder', () => {
    assert.deepEqual(names('echo y > link.txt'), ['link.txt', 'real.txt']);
    assert.deepEqual(names('touch srclink/new.ts'), ['src/new.ts', 'srclink/new.ts']);
  });

  it('`cd x &&` is followed; paths outside the workspace are dropped', () => {
    assert.deepEqual(names('cd src && echo x > a.js'), ['src/a.js']);
    assert.deepEqual(names('echo x > /tmp/elsewhere.txt; touch ../up.txt'), []);
  });

  it('an MCP call\'s input: each string value that could be a path', () => {
    assert.deepEqual([...resolveWords(inputWords({ path: 'config.ts', text: 'export const x = 1;\n', opts: { files: ['src/a.ts'] } }), root)].sort(), ['config.ts', 'src/a.ts']);
  });

  it('of overlapping calls, the one that names the file; none or several: undefined (shared)', () => {
    const calls = ['a', 'b'];
    const by = (sets: Record<string, string[]>) => (c: string): Set<string> => new Set(sets[c] ?? []);
    assert.equal(namingCall(calls, 'x.txt', by({ a: ['y.txt'], b: ['x.txt'] })), 'b');
    assert.equal(namingCall(calls, 'x.txt', by({ a: ['x.txt'], b: ['x.txt'] })), undefined);
    assert.equal(namingCall(calls, 'x.txt', by({})), undefined);
  });
});
