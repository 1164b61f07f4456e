// One mocha run over every package's suite. Tests run from TypeScript sources: tsx compiles them, and
// the `kubekit-source` export condition makes `@kubekit/*` imports resolve to each package's src/.
'use strict';
module.exports = {
  spec: [
    'packages/*/test/**/*.test.ts',
    'examples/*/test/**/*.test.ts',
    'test/**/*.test.ts',
  ],
  'node-option': ['import=tsx', 'conditions=kubekit-source'],
  reporter: './scripts/mocha-reporter.cjs',
  timeout: 20000,
  exit: true,
};
