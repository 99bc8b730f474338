/** postgres.js: the types option from withUidTypes(), values as parameters through serialize. */
import { test } from 'node:test';

import postgres from 'postgres';

import { withUidTypes } from '../src/postgres.js';
import { planText, roundTrip } from './roundtrip.js';
import { OTHER_LAYOUT, assertOtherLayout, describeServer } from './server.js';

roundTrip('postgres', {
  async open(schema) {
    // one connection: EXPLAIN must see the session's enable_seqscan
    const options = { max: 1, onnotice: () => {}, connection: { TimeZone: 'UTC', search_path: `${schema}, public` } };
    return postgres(await withUidTypes(options));
  },
  async insertDefault(sql, type, table, count) {
    const rows = await sql`INSERT INTO ${sql(table)} (note) SELECT 'new' FROM generate_series(1, ${count}::int) RETURNING id`;
    return rows.map((r) => r.id);
  },
  async selectAll(sql, type, table) {
    return (await sql`SELECT id FROM ${sql(table)}`).map((r) => r.id);
  },
  async selectSince(sql, type, table, boundary) {
    return (await sql`SELECT id FROM ${sql(table)} WHERE id >= ${boundary}`).map((r) => r.id);
  },
  async explainSince(sql, type, table, boundary) {
    await sql`SET enable_seqscan = off`;
    return planText(await sql`EXPLAIN SELECT id FROM ${sql(table)} WHERE id >= ${boundary}`);
  },
  close: (sql) => sql.end(),
});

describeServer('pgkuid/postgres beyond the round trip', () => {
  test('snowflakeSi options: results and arrays carry them', async () => {
    const sql = postgres(await withUidTypes({ max: 1, onnotice: () => {}, ...OTHER_LAYOUT.options }));
    try {
      const [row] = await sql.unsafe(`SELECT ${OTHER_LAYOUT.sql} AS id, ARRAY[${OTHER_LAYOUT.sql}] AS many`);
      assertOtherLayout(row.id);
      assertOtherLayout(row.many[0]);
    } finally {
      await sql.end();
    }
  });
});
