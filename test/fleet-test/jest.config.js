// `npm run test:fleet`: the fleet test against the built server (test/fleet-test/fleet.fleet.ts), with the
// transforms of the main jest configuration (package.json) but none of its global setup (no template database).
const { globalSetup, globalTeardown, ...base } = require('../../package.json').jest;

module.exports = {
  ...base,
  rootDir: '../..',
  testMatch: ['<rootDir>/test/fleet-test/**/*.fleet.ts'],
  testTimeout: 5 * 60 * 1000,
  maxWorkers: 1,
};
