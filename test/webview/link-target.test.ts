/**
 * Unit tests of the markdown link classifier: workspace files (with a line), http(s) pages,
 * and everything else refused (scripts, other schemes, paths outside the workspace).
 */
import assert from 'node:assert/strict';
import { linkTarget } from '../../webview/link-target';

const ROOTS = ['/home/me/proj'];

describe('markdown link targets', () => {
  it('workspace-relative paths, with a line from :N or #LN', () => {
    assert.deepEqual(linkTarget('src/a.ts', ROOTS), { kind: 'file', path: 'src/a.ts' });
    assert.deepEqual(linkTarget('src/a.ts:12', ROOTS), { kind: 'file', path: 'src/a.ts', line: 12 });
    assert.deepEqual(linkTarget('src/a.ts:12:5', ROOTS), { kind: 'file', path: 'src/a.ts', line: 12 });
    assert.deepEqual(linkTarget('./docs/x.md#L3', ROOTS), { kind: 'file', path: 'docs/x.md', line: 3 });
    assert.deepEqual(linkTarget('docs/x.md#L3-L9', ROOTS), { kind: 'file', path: 'docs/x.md', line: 3 });
    assert.deepEqual(linkTarget('docs/x.md#usage', ROOTS), { kind: 'file', path: 'docs/x.md' });
    assert.deepEqual(linkTarget('README.md:7', ROOTS), { kind: 'file', path: 'README.md', line: 7 });
    assert.deepEqual(linkTarget('src/my%20file.ts', ROOTS), { kind: 'file', path: 'src/my file.ts' });
    assert.deepEqual(linkTarget('src/../lib/b.ts', ROOTS), { kind: 'file', path: 'lib/b.ts' });
  });

  it('file:// URLs and absolute paths only inside a workspace folder', () => {
    assert.deepEqual(linkTarget('file:///home/me/proj/src/a.ts#L4', ROOTS), { kind: 'file', path: '/home/me/proj/src/a.ts', line: 4 });
    assert.deepEqual(linkTarget('/home/me/proj/src/a.ts:9', ROOTS), { kind: 'file', path: '/home/me/proj/src/a.ts', line: 9 });
    assert.equal(linkTarget('file:///etc/passwd', ROOTS), null);
    assert.equal(linkTarget('file:///home/me/project-other/a.ts', ROOTS), null, 'a sibling folder with the same prefix');
    assert.equal(linkTarget('file:///home/me/proj/../../../etc/passwd', ROOTS), null);
    assert.equal(linkTarget('file://evil.example/share/a.ts', ROOTS), null);
    assert.equal(linkTarget('/etc/passwd', ROOTS), null);
    assert.equal(linkTarget('../outside.ts', ROOTS), null);
    assert.equal(linkTarget('src/../../outside.ts', ROOTS), null);
    assert.equal(linkTarget('file:///home/me/proj/a.ts', []), null, 'no workspace: no absolute file links');
  });

  it('Windows workspace paths compare case-insensitively', () => {
    const roots = ['c:\\Users\\me\\proj'];
    assert.deepEqual(linkTarget('file:///C:/Users/me/proj/src/a.ts', roots), { kind: 'file', path: 'C:/Users/me/proj/src/a.ts' });
    assert.deepEqual(linkTarget('C:\\Users\\me\\proj\\a.ts:3', roots), { kind: 'file', path: 'C:/Users/me/proj/a.ts', line: 3 });
    assert.equal(linkTarget('file:///D:/other/a.ts', roots), null);
  });

  it('http(s) pages are external; every other scheme is refused', () => {
    assert.deepEqual(linkTarget('https://example.com/a?b=1#c', ROOTS), { kind: 'external', url: 'https://example.com/a?b=1#c' });
    assert.deepEqual(linkTarget('HTTP://Example.com', ROOTS), { kind: 'external', url: 'http://example.com/' });
    for (const href of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'javascript:1',
      'vbscript:msgbox(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'command:workbench.action.terminal.new',
      'vscode://file/etc/passwd',
      'mailto:a@b.c',
      'ftp://example.com/x',
      '//example.com/x',
      '#heading',
      '',
      'src/a.ts?x=1',
      'http://',
    ]) {
      assert.equal(linkTarget(href, ROOTS), null, href);
    }
  });
});
