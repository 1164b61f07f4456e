// Lint: typescript-eslint's recommended rules, no default exports, and the DESIGN.md layering enforced
// one-way: a package may import only packages of lower layers, and only through their package name.
import tseslint from 'typescript-eslint';

/** DESIGN.md's layers; a package may import only from packages in a strictly lower layer. */
const layers = {
  core: 0,
  selectors: 1,
  cel: 1,
  crd: 1,
  attrs: 2,
  defaulter: 2,
  decorators: 2,
  informer: 3,
  apiserver: 3,
  envtest: 3,
  controller: 4,
  webhook: 4,
  cli: 5,
};

/**
 * Imports DESIGN.md allows within one layer: crd uses selectors' name and label validation and the CEL
 * engine; cel's format library uses selectors' DNS name validation.
 */
const sameLayerAllowed = {
  cel: ['selectors'],
  crd: ['selectors', 'cel'],
};

/** Extra bans within the same or lower layers that DESIGN.md spells out. */
const extraBans = {
  selectors: ['crd', 'cel'],
  attrs: ['defaulter', 'decorators'],
  defaulter: ['attrs', 'decorators'],
  decorators: ['attrs'],
  apiserver: ['informer', 'controller', 'decorators', 'cli'],
  informer: ['apiserver', 'controller', 'decorators', 'cli'],
  controller: ['apiserver', 'decorators', 'cli', 'envtest'],
  // DESIGN.md: envtest (the real kube-apiserver) is for tests only; no SDK package imports it.
  cli: ['envtest'],
  envtest: ['informer', 'controller', 'decorators', 'cli'],
  webhook: ['apiserver', 'informer', 'controller', 'cli', 'envtest'],
};

function forbiddenFor(pkg) {
  const mine = layers[pkg];
  const allowed = sameLayerAllowed[pkg] ?? [];
  const banned = Object.keys(layers).filter((other) => other !== pkg && layers[other] >= mine && !allowed.includes(other));
  for (const b of extraBans[pkg] ?? []) if (!banned.includes(b)) banned.push(b);
  return banned;
}

const layerConfigs = Object.keys(layers).map((pkg) => ({
  files: [`packages/${pkg}/src/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [
        ...forbiddenFor(pkg).map((other) => ({
          group: [`@kubekit/${other}`, `@kubekit/${other}/*`],
          message: `DESIGN.md layering: @kubekit/${pkg} (layer ${layers[pkg]}) must not import @kubekit/${other}.`,
        })),
        { group: ['../../*/src/*', '../../../*/src/*', '@kubekit/*/src/*'], message: 'Import other packages through their public entry point.' },
      ],
    }],
  },
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.tools/**', '.tmp/**', 'scripts/*.cjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      'no-restricted-syntax': ['error', { selector: 'ExportDefaultDeclaration', message: 'Named exports only (STYLE.md).' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-this-alias': 'off',
    },
  },
  ...layerConfigs,
  {
    files: ['eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
