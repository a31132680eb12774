// Prints the one line CI reads, `N passed, N failed`, from vitest's JSON report. A run that failed
// without failing tests (a build error, an unhandled rejection) counts one failure more, so a broken
// suite can never print `0 failed`.
import { existsSync, readFileSync } from 'node:fs';

const [reportPath, exitCode = '0'] = process.argv.slice(2);
let passed = 0;
let failed = 0;
if (reportPath && existsSync(reportPath)) {
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  passed = report.numPassedTests ?? 0;
  failed = report.numFailedTests ?? 0;
}
if (Number(exitCode) !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
