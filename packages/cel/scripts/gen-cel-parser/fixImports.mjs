// Splits the generated `import { … } from 'antlr4'` into the names the runtime exports as values and the
// names that are types only (DecisionState, TokenStream, …): under verbatimModuleSyntax every name of a
// plain import is kept at run time, and Node refuses an import of a name the runtime does not export.
import { readFileSync, writeFileSync } from 'node:fs';
import * as antlr4 from 'antlr4';

for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  const out = text.replace(/import \{([^}]*)\} from ['"]antlr4['"];/, (_, names) => {
    const all = names.split(',').map((n) => n.trim()).filter((n) => n !== '');
    const values = all.filter((n) => n in antlr4);
    const types = all.filter((n) => !(n in antlr4));
    let s = `import { ${values.join(', ')} } from 'antlr4';`;
    if (types.length > 0) s += `\nimport type { ${types.join(', ')} } from 'antlr4';`;
    return s;
  });
  writeFileSync(file, out);
}
