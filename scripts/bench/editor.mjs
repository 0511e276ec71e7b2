// Bench sections for the editor side, each measured by its own script in its own process:
//   5. the panel (scripts/bench-webview.mjs, headless Chromium): 5,000-call snapshot, 1,000-event burst
//   6. extension activation, and the Language Model API path's harness time per turn, inside the real VS Code
//      (the extension-host suite prints both)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs a script, handing each output line to `onLine`; resolves with its exit code. */
function runScript(args, onLine) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let buffer = '';
    const take = (chunk) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      lines.forEach(onLine);
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      if (buffer) onLine(buffer);
      resolve(code);
    });
  });
}

export async function benchPanel(report) {
  const frames = [];
  const code = await runScript(['scripts/bench-webview.mjs'], (line) => {
    report.note(line);
    // "  ms per frame (rAF interval):  mean 28.1  p50 33.2 ..." → the p50 of the 16 ms-batched burst
    const m = /ms per frame.*p50\s+([\d.]+)/.exec(line);
    if (m) frames.push(Number(m[1]));
  });
  if (code !== 0) throw new Error(`bench-webview.mjs exited ${code}`);
  if (frames.length > 0) report.row('burst of 1,000 events: ms per frame (p50)', frames[0], { max: 16 });
}

export async function benchActivation(report) {
  const figures = [];
  const lmPath = [];
  const code = await runScript(['scripts/test-vscode.mjs'], (line) => {
    const m = /activation took ([\d.]+) ms \((.*)\)/.exec(line);
    if (m) {
      figures.push(Number(m[1]));
      report.note(`breakdown: ${m[2]}`);
    }
    // "lm path: harness ms per turn beyond the model's own time: mean 0.52 p50 0.45 max 2.12 over 35 turns (...)"
    const lm = /lm path: harness ms per turn .*?p50 ([\d.]+) .*?(\(.*\))$/.exec(line);
    if (lm) {
      lmPath.push(Number(lm[1]));
      report.note(`Language Model API path ${lm[2]}`);
    }
  });
  if (code !== 0) report.note(`(the extension-host suite exited ${code}; the figures below are still its measurements)`);
  if (figures.length === 0) throw new Error('the extension-host suite printed no activation figure');
  report.row('activation: bundle evaluation + activate()', figures, { max: 50 });
  if (lmPath.length === 0) throw new Error('the extension-host suite printed no Language Model API path figure');
  report.row("Language Model API path: harness ms per turn beyond the model's own time (p50 of 35 turns)", lmPath, { max: 2, digits: 2 });
}
