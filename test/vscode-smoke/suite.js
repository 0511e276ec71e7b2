// Entry point of the extension tests (extensionTestsPath): runs inside the real VS Code extension host.
// run() runs the mocha files below and resolves (exit 0) only when all passed; it prints `N passed, N failed`.
const path = require('path');
const Mocha = require('mocha');

function runMochaFiles(files, { timeout = 30_000 } = {}) {
  const mocha = new Mocha({ ui: 'bdd', timeout, color: false, reporter: 'spec' });
  for (const f of files) mocha.addFile(f);
  return new Promise((resolve, reject) => {
    let passed = 0;
    let failed = 0;
    const runner = mocha.run(() => {
      console.log(`${passed} passed, ${failed} failed`);
      if (failed > 0 || passed === 0) reject(new Error(`${failed} failed, ${passed} passed`));
      else resolve();
    });
    runner.on('pass', () => passed++);
    runner.on('fail', () => failed++);
  });
}

exports.runMochaFiles = runMochaFiles;
exports.run = () => {
  console.log(`extension host started ${process.uptime().toFixed(1)} s before the tests`);
  return runMochaFiles([path.join(__dirname, 'smoke.test.js')]);
};
