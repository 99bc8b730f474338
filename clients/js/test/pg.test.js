/** node-postgres: registerTypes() on a client, values as parameters through toPostgres(). */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import pg from 'pg';

import { Sno } from '../src/index.js';
import { registerTypes } from '../src/pg.js';
import { planText, roundTrip } from './roundtrip.js';
import {
  OTHER_LAYOUT, PG_CONFIG, assertOtherLayout, connect, describeServer,
} from './server.js';

roundTrip('pg', {
  async open(schema) {
    const client = await connect();
    await registerTypes(client);
    await client.query(`SET search_path = ${schema}, public`);
    return client;
  },
  async insertDefault(client, type, table, count) {
    const { rows } = await client.query(
      `INSERT INTO ${table} (note) SELECT 'new' FROM generate_series(1, $1) RETURNING id`, [count]);
    return rows.map((r) => r.id);
  },
  async selectAll(client, type, table) {
    return (await client.query(`SELECT id FROM ${table}`)).rows.map((r) => r.id);
  },
  async selectSince(client, type, table, boundary) {
    return (await client.query(`SELECT id FROM ${table} WHERE id >= $1`, [boundary])).rows.map((r) => r.id);
  },
  async explainSince(client, type, table, boundary) {
    await client.query('SET enable_seqscan = off');
    return planText((await client.query(`EXPLAIN SELECT id FROM ${table} WHERE id >= $1`, [boundary])).rows);
  },
  close: (client) => client.end(),
});

describeServer('pguid/pg beyond the round trip', () => {
  test('a pool: parsers on its clients, not on pg.types; arrays and binary results', async () => {
    const pool = new pg.Pool({ ...PG_CONFIG, max: 2 });
    try {
      const oids = await registerTypes(pool);
      assert.equal(pg.types.getTypeParser(oids.sno.oid), pg.types.getTypeParser(0));
      const [a, b] = await Promise.all([pool.connect(), pool.connect()]);
      try {
        for (const client of [a, b]) {
          const { rows } = await client.query(
            "SELECT 'brpk4q72xwf2m63l'::sno AS one, ARRAY['2222222222222222'::sno, NULL] AS many");
          assert.ok(rows[0].one.equals(Sno.parse('brpk4q72xwf2m63l')));
          assert.deepEqual(rows[0].many.map(String), ['2222222222222222', 'null']);
        }
        const { rows } = await a.query({ text: "SELECT 'brpk4q72xwf2m63l'::sno AS one", binary: true });
        assert.ok(rows[0].one.equals(Sno.parse('brpk4q72xwf2m63l')));
      } finally {
        a.release();
        b.release();
      }
    } finally {
      await pool.end();
    }
  });

  test('snowflakeSi options: text, array and binary results carry them', async () => {
    const client = await connect();
    try {
      await registerTypes(client, OTHER_LAYOUT.options);
      const query = `SELECT ${OTHER_LAYOUT.sql} AS id, ARRAY[${OTHER_LAYOUT.sql}] AS many`;
      const { rows } = await client.query(query);
      assertOtherLayout(rows[0].id);
      assertOtherLayout(rows[0].many[0]);
      const binary = await client.query({ text: `SELECT ${OTHER_LAYOUT.sql} AS id`, binary: true });
      assertOtherLayout(binary.rows[0].id);
    } finally {
      await client.end();
    }
  });
});
