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
});

test('the type declarations compile', (t) => {
  let tsc;
  try {
    tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return t.skip('TypeScript is not installed');
  }
  assert.ok(existsSync(tsc));
  try {
    execFileSync(process.execPath, [tsc, '-p', join(PACKAGE_DIR, 'test/types/tsconfig.json')],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    assert.fail(`tsc: ${e.stdout}${e.stderr}`);
  }
});
