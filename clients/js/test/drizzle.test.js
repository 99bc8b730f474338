/** Drizzle over node-postgres: the column builders' toDriver and fromDriver. */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { gte, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { pgSchema, pgTable, text } from 'drizzle-orm/pg-core';

import * as columns from '../src/drizzle.js';
import { SnowflakeSi } from '../src/index.js';
import { planText, roundTrip } from './roundtrip.js';
import { OTHER_LAYOUT, assertOtherLayout, connect, describeServer } from './server.js';

/** Each type's column builder by its SQL name. */
const BUILDERS = {
  sno: columns.sno, muid: columns.muid, snowflake_si: columns.snowflakeSi, revts8: columns.revts8, uid60: columns.uid60,
};

roundTrip('drizzle', {
  async open(schema) {
    const s = pgSchema(schema);
    const tables = Object.fromEntries(Object.entries(BUILDERS).map(([type, column]) => [`t_${type}`,
      s.table(`t_${type}`, { id: column('id').primaryKey().default(sql.raw(`${type}_new()`)), note: text('note') })]));
    const client = await connect();
    return { client, db: drizzle(client), tables };
  },
  async insertDefault({ db, tables }, type, table, count) {
    const t = tables[table];
    const rows = await db.insert(t).values(Array.from({ length: count }, () => ({ note: 'new' })))
      .returning({ id: t.id });
    return rows.map((r) => r.id);
  },
  async selectAll({ db, tables }, type, table) {
    return (await db.select({ id: tables[table].id }).from(tables[table])).map((r) => r.id);
  },
  async selectSince({ db, tables }, type, table, boundary) {
    const t = tables[table];
    return (await db.select({ id: t.id }).from(t).where(gte(t.id, boundary))).map((r) => r.id);
  },
  async explainSince({ client, db, tables }, type, table, boundary) {
    // Drizzle has no EXPLAIN: explain the SQL and parameters it makes for the query
    const t = tables[table];
    const query = db.select({ id: t.id }).from(t).where(gte(t.id, boundary)).toSQL();
    await client.query('SET enable_seqscan = off');
    return planText((await client.query(`EXPLAIN ${query.sql}`, query.params)).rows);
  },
  close: ({ client }) => client.end(),
});

describeServer('pgkuid/drizzle beyond the round trip', () => {
  test('uidColumns() with snowflakeSi options: the values read carry them', async () => {
    const client = await connect();
    try {
      await client.query(`CREATE TEMP TABLE pgkuid_layout (id snowflake_si, note text);
        INSERT INTO pgkuid_layout SELECT ${OTHER_LAYOUT.sql}, 'server'`);
      const t = pgTable('pgkuid_layout', {
        id: columns.uidColumns(OTHER_LAYOUT.options).snowflakeSi('id'), note: text('note'),
      });
      const db = drizzle(client);
      const [{ id }] = await db.select({ id: t.id }).from(t);
      assertOtherLayout(id);
      // a value made under the defaults goes in as its number and comes back under the column's
      await db.insert(t).values({ id: SnowflakeSi.parse(id.toString()), note: 'drizzle' });
      const back = await db.select({ id: t.id }).from(t).where(sql`${t.note} = 'drizzle'`);
      assert.equal(back.length, 1);
      assertOtherLayout(back[0].id);
    } finally {
      await client.end();
    }
  });
});
