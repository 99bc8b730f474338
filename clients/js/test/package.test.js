/**
 * The package as users get it: `npm pack`, then `npm install --offline`
 * of the tarball in a new project, imports every entry point; and the
 * type declarations compile (test/types, with TypeScript when installed).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8'));
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('the packed package', () => {
  let dir;
  let files;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'pgkuid-pack-'));
    const [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', dir], PACKAGE_DIR));
    files = packed.files.map((f) => f.path);
    const app = join(dir, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(dir, packed.filename)], app);
    // the optional peers, as the user's own dependencies would be
    for (const peer of Object.keys(pkg.peerDependencies)) {
      mkdirSync(dirname(join(app, 'node_modules', peer)), { recursive: true });
      symlinkSync(join(PACKAGE_DIR, 'node_modules', peer), join(app, 'node_modules', peer), 'dir');
    }
  });
  after(() => dir && rmSync(dir, { recursive: true, force: true }));

  test('holds the sources, declarations and README, no tests', () => {
    assert.ok(files.includes('src/index.js') && files.includes('types/index.d.ts') && files.includes('README.md'));
    assert.deepEqual(files.filter((f) => !/^(src\/|types\/|README\.md$|package\.json$)/.test(f)), []);
  });

  test('installs with no dependencies and imports every entry point', () => {
    const installed = JSON.parse(readFileSync(join(dir, 'app/node_modules/pgkuid/package.json'), 'utf8'));
    assert.equal(installed.dependencies, undefined);
    const script = [
      "import { Sno } from 'pgkuid';",
      ...Object.keys(pkg.exports).filter((e) => e.startsWith('./') && e !== './package.json')
        .map((e, i) => `import * as m${i} from 'pgkuid/${e.slice(2)}';`),
      "const loaded = [m0, m1, m2, m3].map((m) => Object.keys(m).length);",
      "console.log(JSON.stringify({ text: Sno.parse('BRPK4Q72XWF2M63L').toString(), loaded }));",
    ].join('\n');
    writeFileSync(join(dir, 'app/check.mjs'), script);
    const out = JSON.parse(execFileSync(process.execPath, ['check.mjs'], { cwd: join(dir, 'app'), encoding: 'utf8' }));
    assert.equal(out.text, 'brpk4q72xwf2m63l');
    assert.ok(out.loaded.every((n) => n > 0), JSON.stringify(out.loaded));
  });

  test('type-checks and runs in a CommonJS project, as npm init makes one', (t) => {
    const tsc = typescript();
    if (!tsc) return t.skip('TypeScript is not installed');
    // a project of its own type (npm init writes "commonjs"), the tarball's node_modules above it
    const cjs = join(dir, 'app/cjs');
    mkdirSync(cjs);
    writeFileSync(join(cjs, 'package.json'), JSON.stringify({ name: 'cjs', private: true, type: 'commonjs' }));
    for (const f of ['usage.ts', 'negative.ts']) {
      writeFileSync(join(cjs, f), readFileSync(join(PACKAGE_DIR, 'test/types', f)));
    }
    const types = join(dir, 'app/node_modules/@types/node');
    if (!existsSync(types)) symlinkSync(join(PACKAGE_DIR, 'node_modules/@types/node'), types, 'dir');
    const modes = { nodenext: { module: 'nodenext' }, node16: { module: 'node16' },
      node10: { module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true } };
    for (const [mode, options] of Object.entries(modes)) {
      const config = `tsconfig.${mode}.json`;
      writeFileSync(join(cjs, config), JSON.stringify({
        compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
        files: ['usage.ts', 'negative.ts'],
      }));
      try {
        execFileSync(process.execPath, [tsc, '-p', config], { cwd: cjs, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) {
        assert.fail(`tsc, module ${mode}, in a CommonJS project: ${e.stdout}${e.stderr}`);
      }
    }
    // and require() gets what the declarations say (Node.js 20.19+ and 22.12+ load an ES module so)
    const script = "const { Sno } = require('pgkuid'); const { registerTypes } = require('pgkuid/pg');" +
      "console.log(Sno.parse('BRPK4Q72XWF2M63L').toString(), typeof registerTypes);";
    const out = execFileSync(process.execPath, ['-e', script], { cwd: cjs, encoding: 'utf8' });
    assert.equal(out.trim(), 'brpk4q72xwf2m63l function');
  });
});

/** tsc's script, or undefined where TypeScript is not installed. */
function typescript() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

test('the type declarations compile', (t) => {
  const tsc = typescript();
  if (!tsc) return t.skip('TypeScript is not installed');
  assert.ok(existsSync(tsc));
  try {
    execFileSync(process.execPath, [tsc, '-p', join(PACKAGE_DIR, 'test/types/tsconfig.json')],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    assert.fail(`tsc: ${e.stdout}${e.stderr}`);
  }
});
