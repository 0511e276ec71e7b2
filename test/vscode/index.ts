/**
 * Entry of the extension-host suites: loaded by the real VS Code through the test payload
 * (`extensionTestsPath`), it runs mocha inside the extension host and prints the closing
 * "N passed, N failed" line CI reads.
 */
import Mocha from 'mocha';

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  // Define describe/it before the suites load (they are bundled, so no file list to add).
  mocha.suite.emit('pre-require', globalThis, 'extension-host', mocha);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- must evaluate after pre-require set the globals
  require('./extension-host.test');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  require('./mcp-approval.test');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
  require('./lm-model.test');
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const { passes = 0, pending = 0 } = runner.stats ?? {};
      console.log(`\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
      if (failures > 0) reject(new Error(`${failures} extension-host test(s) failed`));
      else resolve();
    });
  });
}
