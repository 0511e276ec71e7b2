/**
 * Entry of the extension-host suites: loaded by the real VS Code through the test payload
 * (`extensionTestsPath`), it runs mocha inside the extension host and prints the closing
 * "N passed, N failed" line CI reads.
 */
import Mocha from 'mocha';
import { cleanupHooks } from '../kit/cleanup';

export function run(): Promise<void> {
  // The kit's cleanups (tempDir, testSession) after each test; the editor's TMPDIR is already its own (editor-server.mjs).
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec', rootHooks: cleanupHooks });
  // Define describe/it before the suites load (they are bundled, so no file list to add).
  mocha.suite.emit('pre-require', globalThis, 'extension-host', mocha);
  // Required here, after pre-require set the globals; DELEGATE_VSCODE_SUITES=proxy,… (scripts/test-vscode.mjs
  // proxy) loads only those.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const suites: Record<string, () => unknown> = {
    'extension-host': () => require('./extension-host.test'),
    'mcp-approval': () => require('./mcp-approval.test'),
    'lm-model': () => require('./lm-model.test'),
    proxy: () => require('./proxy.test'),
    // Only in a launch of its own, with workspace trust on and never granted (scripts/test-vscode.mjs).
    untrusted: () => require('./untrusted.test'),
    'tool-env': () => require('./tool-env.test'),
    land: () => require('./land.test'),
    'agent-panel': () => require('./agent-panel.test'),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const apart = new Set(['untrusted']);
  const only = process.env.DELEGATE_VSCODE_SUITES?.split(',').filter(Boolean);
  const unknown = only?.filter((name) => !(name in suites)) ?? [];
  if (unknown.length) return Promise.reject(new Error(`no extension-host suite named ${unknown.join(', ')} (there are: ${Object.keys(suites).join(', ')})`));
  for (const [name, load] of Object.entries(suites)) if (only?.length ? only.includes(name) : !apart.has(name)) load();
  return new Promise((resolve, reject) => {
    // One "FAILED: …" line per failure before the total, as test/kit/summary-reporter.cjs prints them.
    const failed: string[] = [];
    const runner = mocha.run((failures) => {
      const { passes = 0, pending = 0 } = runner.stats ?? {};
      if (failed.length) console.log(`\n${failed.join('\n')}`);
      console.log(`\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
    runner.on('fail', (test, err: unknown) => {
      const first = String(err instanceof Error ? err.message : err).split('\n').find((l) => l.trim()) ?? '';
      failed.push(`FAILED: ${test.fullTitle()} — ${first.trim().slice(0, 300)}`);
    });
  });
}
