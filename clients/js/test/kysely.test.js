/** Kysely with its PostgresDialect over a pool with pgkuid/pg's parsers. */
import { test } from 'node:test';

import { Kysely, sql } from 'kysely';
import pg from 'pg';

import { uidPostgresDialect } from '../src/kysely.js';
import { planText, roundTrip } from './roundtrip.js';
import { OTHER_LAYOUT, PG_CONFIG, assertOtherLayout, describeServer } from './server.js';

roundTrip('kysely', {
  async open(schema) {
    // one connection: EXPLAIN must see the session's enable_seqscan
    const pool = new pg.Pool({ ...PG_CONFIG, max: 1 });
    return new Kysely({ dialect: await uidPostgresDialect(pool) }).withSchema(schema);
  },
  async insertDefault(db, type, table, count) {
    const rows = await db.insertInto(table).values(Array.from({ length: count }, () => ({ note: 'new' })))
      .returning('id').execute();
    return rows.map((r) => r.id);
  },
  async selectAll(db, type, table) {
    return (await db.selectFrom(table).select('id').execute()).map((r) => r.id);
  },
  async selectSince(db, type, table, boundary) {
    return (await db.selectFrom(table).select('id').where('id', '>=', boundary).execute()).map((r) => r.id);
  },
  async explainSince(db, type, table, boundary) {
    await sql`SET enable_seqscan = off`.execute(db);
    return planText(await db.selectFrom(table).select('id').where('id', '>=', boundary).explain());
  },
  close: (db) => db.destroy(),
});

describeServer('pgkuid/kysely beyond the round trip', () => {
  test('snowflakeSi options: the values read carry them', async () => {
    const pool = new pg.Pool({ ...PG_CONFIG, max: 1 });
    const db = new Kysely({ dialect: await uidPostgresDialect(pool, {}, OTHER_LAYOUT.options) });
    try {
      const { rows } = await sql.raw(`SELECT ${OTHER_LAYOUT.sql} AS id`).execute(db);
      assertOtherLayout(rows[0].id);
    } finally {
      await db.destroy();
    }
  });
});
