// Which commands are looks (not listed with a subagent's changes) and which may change files.
import assert from 'node:assert/strict';
import { isReadOnlyCommand } from '../../../src/core/changes/read-only-command';

describe('read-only commands', () => {
  it('a look is not a change: ls, wc, git status, a pipeline of greps, output to /dev/null', () => {
    for (const c of ['ls', 'ls -la src', 'wc -l src/*.ts', 'git status', 'git --no-pager log --oneline -5', 'git -C sub diff --stat', 'grep -rn "TODO" src | head -20', 'cat a.txt 2>/dev/null', 'cd src && ls', 'find . -name "*.ts" | wc -l', 'git branch', 'test -f x && echo yes', 'FOO=1 ls', 'echo "$(git rev-parse HEAD)"']) {
      assert.equal(isReadOnlyCommand(c), true, c);
    }
  });

  it('anything that may write counts: redirects, in-place edits, find -delete, git commit, unknown programs, a write in a substitution', () => {
    for (const c of ['git status > status.txt', 'echo x >> log', 'sed -i s/a/b/ f', 'find . -name "*.tmp" -delete', 'find . -exec rm {} +', 'git commit -m x', 'git branch new-feature', 'git stash', 'npm test', 'rm -rf build', 'ls && touch x', 'echo $(rm -rf x)', 'sort -o out.txt in.txt', 'env FOO=1 rm x', 'git config user.name me', 'python3 script.py', '']) {
      assert.equal(isReadOnlyCommand(c), false, c);
    }
  });
});
