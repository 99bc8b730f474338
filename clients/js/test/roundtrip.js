/**
 * The round trip that every adapter's test runs, per type, in a schema of
 * its own: a table `id <type> PRIMARY KEY DEFAULT <type>_new()` with rows
 * the server made a day ago (<type>_from_parts()) and rows inserted through
 * the adapter with the server's DEFAULT; read back through the adapter,
 * each ID is a value of the class whose text, fields and time equal the
 * server's accessors; a client-made boundary (an hour ago) passed through
 * the adapter as the parameter of `id >= $1` selects the rows that the
 * server's own <type>_boundary() selects (the new ones), and EXPLAIN of
 * that query (enable_seqscan off) uses the primary key's index.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { TYPES } from '../src/index.js';
import { clientView, connect, describeServer, serverView } from './server.js';

/** Arguments of <type>_from_parts() after the time, for row g of the old rows. */
const OLD_PARTS = {
  sno: '0, 0, g', muid: '0, g', snowflake_si: '0, g', revts8: 'g, 0, 0', uid60: '0, g, 0',
};

const NEW_ROWS = 3;

/**
 * @typedef {object} Adapter what an adapter's test supplies, each on its one session
 * @property {(schema: string) => Promise<object>} open connects; returns a context
 * @property {(ctx: object, type: string, table: string, count: number) => Promise<unknown[]>} insertDefault
 *   inserts count rows with the DEFAULT id; returns their ids
 * @property {(ctx: object, type: string, table: string) => Promise<unknown[]>} selectAll every id
 * @property {(ctx: object, type: string, table: string, boundary: unknown) => Promise<unknown[]>} selectSince
 *   the ids at or after the boundary, passed as a parameter
 * @property {(ctx: object, type: string, table: string, boundary: unknown) => Promise<string>} explainSince
 *   the plan of selectSince's query, after SET enable_seqscan = off in the session
 * @property {(ctx: object) => Promise<void>} close
 */

/**
 * The tests of an adapter.
 * @param {string} name
 * @param {Adapter} adapter
 */
export function roundTrip(name, adapter) {
  const schema = `pgkuid_test_${name}`;
  describeServer(`round trip through ${name}`, () => {
    let admin;
    let ctx;
    before(async () => {
      admin = await connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      for (const type of Object.keys(TYPES)) {
        const table = `${schema}.t_${type}`;
        await admin.query(
          `CREATE TABLE ${table} (id ${type} PRIMARY KEY DEFAULT ${type}_new(), note text);
           INSERT INTO ${table}
           SELECT ${type}_from_parts(now() - interval '1 day', ${OLD_PARTS[type]}), 'old'
           FROM generate_series(1, 3) g`);
      }
      ctx = await adapter.open(schema);
    });
    after(async () => {
      if (ctx) await adapter.close(ctx);
      if (admin) {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      }
    });

    for (const [type, cls] of Object.entries(TYPES)) {
      test(type, async () => {
        const table = `t_${type}`;
        const inserted = await adapter.insertDefault(ctx, type, table, NEW_ROWS);
        assert.equal(inserted.length, NEW_ROWS);
        for (const id of inserted) assert.ok(id instanceof cls, `inserted ${String(id)} is a ${cls.name}`);

        // every row: the class's text, fields and time are the server's
        const views = new Map((await admin.query(`SELECT ${serverView(type)} FROM ${schema}.${table}`))
          .rows.map((r) => [r.text, r]));
        const all = await adapter.selectAll(ctx, type, table);
        assert.equal(all.length, NEW_ROWS + 3);
        for (const id of all) {
          assert.ok(id instanceof cls, `${String(id)} is a ${cls.name}`);
          assert.deepEqual(clientView(id), views.get(id.toString()));
          if (type === 'snowflake_si') {
            assert.equal(typeof id.value, 'number');
            assert.equal(typeof id.valueOf(), 'number');
          }
        }

        // a boundary made here selects what the server's boundary selects
        const since = new Date(Date.now() - 3600 * 1000);
        const boundary = cls.boundary(since);
        const fromServer = (await admin.query(
          `SELECT id::text FROM ${schema}.${table} WHERE id >= ${type}_boundary($1::timestamptz) ORDER BY id`,
          [since.toISOString()])).rows.map((r) => r.id);
        assert.deepEqual(fromServer.sort(), inserted.map(String).sort());
        const selected = await adapter.selectSince(ctx, type, table, boundary);
        assert.deepEqual(selected.map(String).sort(), fromServer.sort());

        const plan = await adapter.explainSince(ctx, type, table, boundary);
        assert.match(plan, new RegExp(`(Index (Only )?Scan using|Bitmap Index Scan on) ${table}_pkey`), plan);
        assert.match(plan, /Index Cond: \(id >= /, plan);
      });
    }
  });
}

/** The text of EXPLAIN's rows, whatever the column is called. */
export const planText = (rows) => rows.map((r) => Object.values(r)[0]).join('\n');
