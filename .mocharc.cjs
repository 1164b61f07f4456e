// One mocha run over every package's suite. Tests run from TypeScript sources: tsx compiles them, and
// the `kubekit-source` export condition makes `@kubekit/*` imports resolve to each package's src/.
'use strict';
// `npx mocha path/to/x.test.ts` runs only the files named; plain `mocha` runs every suite.
const named = process.argv.slice(2).some((a) => !a.startsWith('-') && /\.test\.ts$|\*/.test(a));
module.exports = {
  spec: named ? [] : [
    'packages/*/test/**/*.test.ts',
    'examples/*/test/**/*.test.ts',
    'test/**/*.test.ts',
  ],
  'node-option': ['import=tsx', 'conditions=kubekit-source'],
  reporter: './scripts/mocha-reporter.cjs',
  timeout: 20000,
  exit: true,
};
