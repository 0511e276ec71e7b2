// A release of the GitHub Action: a workflow runs `uses: OWNER/delegate@v1` straight from the repository at that
// ref, with no install, so the ref's tree must hold the built bundles that dist/ (git-ignored) keeps out of main.
// This makes that commit without touching the working tree or the index:
//
//   HEAD's tree + dist/cli/** + dist/action/** (built --production)  ─► commit (parent: HEAD) ─► refs/heads/BRANCH
//
//   node scripts/release-action.mjs [--branch action-release] [--skip-build] [--no-ref]
//   git tag -f v1 action-release && git push -f origin action-release v1      (what it prints at the end)
//
// --skip-build takes dist/ as it is (the tests use it; a release should not); --no-ref only prints the commit.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const branchAt = argv.indexOf('--branch');
const branch = branchAt >= 0 ? argv[branchAt + 1] : 'action-release';
if (!branch || branch.startsWith('-')) {
  console.error('release-action: --branch needs a name');
  process.exit(2);
}
const git = (args, env = {}) => execFileSync('git', args, { encoding: 'utf8', env: { ...process.env, ...env } }).trim();

if (!argv.includes('--skip-build')) execFileSync(process.execPath, ['scripts/build.mjs', '--production'], { stdio: 'inherit' });
for (const needed of ['dist/cli/start.cjs', 'dist/action/index.js', 'dist/action/artifact.js']) {
  if (!existsSync(needed)) {
    console.error(`release-action: ${needed} is missing: run npm run build first (or drop --skip-build)`);
    process.exit(1);
  }
}

const head = git(['rev-parse', 'HEAD']);
const scratch = mkdtempSync(join(tmpdir(), 'delegate-release-'));
try {
  // A private index: HEAD's tree plus the bundles, forced past .gitignore; source maps stay out.
  const env = { GIT_INDEX_FILE: join(scratch, 'index') };
  git(['read-tree', head], env);
  // A node_modules symlink committed by mistake would shadow nothing on the runner but confuse everyone.
  git(['rm', '--cached', '--quiet', '--ignore-unmatch', '--', 'node_modules'], env);
  git(['add', '--force', '--', 'dist/cli', 'dist/action', ':(exclude,glob)dist/**/*.map'], env);
  const tree = git(['write-tree'], env);
  const commit = git(['commit-tree', tree, '-p', head, '-m', `Action release of ${head.slice(0, 12)}: the built CLI and action bundles (dist/cli, dist/action)`]);
  if (argv.includes('--no-ref')) {
    console.log(commit);
  } else {
    git(['update-ref', `refs/heads/${branch}`, commit]);
    console.log(`release-action: ${branch} → ${commit}`);
    console.log(`tag and push it: git tag -f v1 ${branch} && git push -f origin ${branch} v1`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
