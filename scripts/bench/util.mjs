// Shared helpers of the benchmark: statistics over repeated runs, the report (figures next to their
// targets), the scratch workspace every scenario reads, and loading the project's TypeScript sources.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { require as tsxRequire } from 'tsx/cjs/api';

/** Loads a TypeScript module of the repo (path relative to the repo root) through tsx. */
export function loadTs(repoPath) {
  return tsxRequire(`../../${repoPath}`, import.meta.url);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Median, min and max of a list of numbers. */
export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

/** Runs fn() n times in a row; returns the list of what it returned. */
export async function repeat(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(await fn(i));
  return out;
}

const num = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : String(v));

/**
 * Prints rows `label  median unit  [min–max, n]  target` and counts targets met and missed.
 * A target is { max } (the median must not exceed it), { min } (nor fall below it) or { equals } (for yes/no checks).
 */
export class Report {
  constructor(write = (line) => console.log(line), lastRelease = lastReleaseFigures()) {
    this.write = write;
    this.met = [];
    this.missed = [];
    /** label → the figure last release printed (docs/benchmarks.md, "Last release's figures"): shown beside each row. */
    this.lastRelease = lastRelease;
  }

  section(title) {
    this.write(`\n${title}`);
  }

  note(text) {
    for (const line of text.split('\n')) this.write(`   ${line}`);
  }

  /** values: a list (median/min/max are shown) or a single number. */
  row(label, values, { unit = 'ms', digits = 1, max, min } = {}) {
    const list = Array.isArray(values) ? values : [values];
    const s = stats(list);
    const spread = list.length > 1 ? `  [${num(s.min, digits)}–${num(s.max, digits)}, n=${s.n}]` : '';
    let target = '';
    if (max !== undefined) {
      const ok = s.median <= max;
      const by = ok ? '' : ` by ${num(s.median - max, digits)} ${unit} (${Math.round((s.median / max - 1) * 100)}%)`;
      target = `   target ≤ ${max} ${unit}: ${ok ? 'ok' : `MISSED${by}`}`;
      (ok ? this.met : this.missed).push(`${label}: ${num(s.median, digits)} ${unit} (target ≤ ${max})`);
    } else if (min !== undefined) {
      const ok = s.median >= min;
      target = `   target ≥ ${min} ${unit}: ${ok ? 'ok' : `MISSED by ${num(min - s.median, digits)} ${unit}`}`;
      (ok ? this.met : this.missed).push(`${label}: ${num(s.median, digits)} ${unit} (target ≥ ${min})`);
    }
    const last = this.lastRelease.get(label.trim());
    const before = last === undefined ? '' : `   last release ${last}`;
    this.write(`   ${label.padEnd(46)} ${num(s.median, digits).padStart(8)} ${unit}${spread}${target}${before}`);
    return s;
  }

  /** A yes/no check with its target. */
  check(label, ok, detail = '') {
    (ok ? this.met : this.missed).push(label);
    this.write(`   ${label.padEnd(46)} ${ok ? 'yes' : 'NO'}${detail ? `  (${detail})` : ''}   target: yes`);
  }
}

/**
 * The regression guard: the table under "## Last release's figures" in docs/benchmarks.md (`| row label | figure |`),
 * by label. Update it when a release is cut; a row missing there prints without a comparison.
 */
export function lastReleaseFigures(docs = new URL('../../docs/benchmarks.md', import.meta.url)) {
  const figures = new Map();
  let text;
  try {
    text = readFileSync(docs, 'utf8');
  } catch {
    return figures;
  }
  const start = text.indexOf("\n## Last release's figures");
  if (start < 0) return figures;
  const end = text.indexOf('\n## ', start + 1);
  for (const line of text.slice(start, end < 0 ? undefined : end).split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || cells[1] === '' || cells[1] === 'row' || /^-+$/.test(cells[1])) continue;
    figures.set(cells[1].replace(/^`|`$/g, ''), cells[2]);
  }
  return figures;
}

/** Unique marker per workspace file: if one shows up in a parent's request, a child's output leaked. */
export const canary = (i) => `CANARY-${String(i).padStart(2, '0')}-7f3a`;

export const GROWTH_FILES = Array.from({ length: 20 }, (_, i) => `files/f${String(i + 1).padStart(2, '0')}.txt`);

/**
 * A scratch workspace (read-only for every scenario) and a scratch root for transcripts:
 *   small.txt, notes.md   cheap read_file / glob targets
 *   files/f01..f20.txt    ~3 KB each, each with its own canary line
 */
export function makeScratch() {
  const root = mkdtempSync(join(tmpdir(), 'delegate-bench-'));
  const workdir = join(root, 'ws');
  mkdirSync(join(workdir, 'files'), { recursive: true });
  writeFileSync(join(workdir, 'small.txt'), 'export const answer = 42;\n'.repeat(8));
  writeFileSync(join(workdir, 'notes.md'), '# Notes\n\nNothing to see here.\n');
  GROWTH_FILES.forEach((file, i) => {
    const line = (n) => `line ${n} of ${file}: lorem ipsum dolor sit amet, consectetur adipiscing elit.\n`;
    const body = Array.from({ length: 40 }, (_, n) => line(n + 1)).join('');
    writeFileSync(join(workdir, file), `${canary(i + 1)}\n${body}`);
  });
  let runs = 0;
  const cacheDir = join(root, 'cache');
  mkdirSync(cacheDir);
  return {
    root,
    workdir,
    /** XDG_CACHE_HOME of every CLI run: the CLI's V8 code cache. */
    cacheDir,
    /** A fresh workspace holding edits/JOB-E1..n.txt (~2 KB each, one `status: draft` line) for children to edit. */
    editWorkdir: (n) => {
      const dir = join(root, `edit-ws-${++runs}`);
      mkdirSync(join(dir, 'edits'), { recursive: true });
      for (let i = 1; i <= n; i++) {
        const body = Array.from({ length: 30 }, (_, k) => `line ${k + 1} of job ${i}: lorem ipsum dolor sit amet, consectetur.\n`).join('');
        writeFileSync(join(dir, 'edits', `JOB-E${i}.txt`), `# Job ${i}\nstatus: draft\n${body}`);
      }
      return dir;
    },
    /** A fresh folder for one run's transcripts (or a CLI's XDG_DATA_HOME). */
    dataDir: () => {
      const dir = join(root, `data-${++runs}`);
      mkdirSync(dir);
      return dir;
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** The environment a bench CLI process runs with: the local server, a fresh data folder, the scratch's code cache. */
export function cliEnv(server, scratch) {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: server.baseURL,
    XDG_DATA_HOME: scratch.dataDir(),
    // The CLI's V8 code cache (src/cli/start.ts) lives in the scratch folder, not in the user's ~/.cache: the
    // warm-up run writes it, the measured runs use it.
    XDG_CACHE_HOME: scratch.cacheDir,
  };
}
