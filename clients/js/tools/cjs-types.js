/**
 * npm's prepare script (run by npm pack and npm install in this directory):
 * writes types/NAME.d.cts from each types/NAME.d.ts, the same declarations
 * for an importer in CommonJS (package.json's "require" conditions).  From a
 * CommonJS file, TypeScript reads drizzle-orm's and kysely's CommonJS
 * declarations; pgkuid's ES ones would name their ES declarations, whose
 * classes (drizzle's SQL, kysely's Kysely) are other classes to it, and the
 * two do not mix (TS2345, TS2769).  The copies' own imports name the copies.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = fileURLToPath(new URL('../types', import.meta.url));
const HEADER = '// Written by tools/cjs-types.js from the .d.ts of the same name: edit that one.\n';

for (const name of readdirSync(TYPES).filter((f) => f.endsWith('.d.ts')).sort()) {
  const text = readFileSync(join(TYPES, name), 'utf8').replace(/(from '\.\/[a-z_]+)\.js'/g, "$1.cjs'");
  writeFileSync(join(TYPES, name.replace(/\.d\.ts$/, '.d.cts')), HEADER + text);
}
