// The trusted folders' file: a yes by real path, written whole (other entries kept), a damaged file trusting nothing.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isFolderTrusted, rememberTrustedFolder, trustedFoldersFile } from '../../../src/core/store/trusted-folders';
import { tempDir } from '../../kit/temp-dirs';

describe('store: trusted folders', () => {
  let root: string;
  beforeEach(() => (root = tempDir('delegate-trust-')));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('lives in the data home; remembers a folder by its real path, keeps the others, leaves no temporary file', async () => {
    const file = trustedFoldersFile({ XDG_DATA_HOME: join(root, 'data') }, '/home/x');
    assert.equal(file, join(root, 'data', 'delegate', 'trusted-folders.json'));
    assert.equal(trustedFoldersFile({}, '/home/x'), '/home/x/.local/share/delegate/trusted-folders.json');
    const a = join(root, 'a');
    const b = join(root, 'b');
    mkdirSync(a);
    mkdirSync(b);
    symlinkSync(a, join(root, 'link'));
    await rememberTrustedFolder(file, join(root, 'link'));
    await rememberTrustedFolder(file, b);
    assert.equal(await isFolderTrusted(file, a), true, 'trusted through the link: the folder it named');
    assert.equal(await isFolderTrusted(file, b), true);
    assert.equal(await isFolderTrusted(file, join(a, 'sub')), false, 'not its subfolders');
    assert.deepEqual(Object.keys((JSON.parse(readFileSync(file, 'utf8')) as { folders: object }).folders).sort(), [a, b].sort());
    assert.deepEqual(readdirSync(join(root, 'data', 'delegate')), ['trusted-folders.json']);
    assert.equal(statSync(file).mode & 0o777, 0o600);
  });

  it('a damaged or foreign file trusts nothing (asked again), and the next yes replaces it', async () => {
    const file = join(root, 'trusted-folders.json');
    for (const text of ['{ not json', '[]', '{"folders": ["/x"]}', '{"folders": null}']) {
      writeFileSync(file, text);
      assert.equal(await isFolderTrusted(file, root), false, text);
    }
    assert.equal(await isFolderTrusted(file, 'constructor'), false, 'no inherited key counts');
    await rememberTrustedFolder(file, root);
    assert.equal(await isFolderTrusted(file, root), true);
  });
});
