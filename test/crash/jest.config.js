// `npm run test:crash`: the crash test against the built server (test/crash/crash-safety.crash.ts), with the
// transforms of the main jest configuration (package.json) but none of its global setup (no template database).
const { globalSetup, globalTeardown, ...base } = require('../../package.json').jest;

module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/crash/**/*.crash.ts'],
  testTimeout: 10 * 60 * 1000,
  maxWorkers: 1,
};
