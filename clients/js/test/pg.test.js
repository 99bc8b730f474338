/** node-postgres: registerTypes() on a client, values as parameters through toPostgres(). */
import assert from 'node:assert/strict';
import { test } from 'node:test';

import pg from 'pg';

import { Sno, TYPES } from '../src/index.js';
import { binaryArrayParser } from '../src/catalog.js';
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

describeServer('pgkuid/pg beyond the round trip', () => {
  test('a pool: parsers on its clients, not on pg.types', async () => {
    const pool = new pg.Pool({ ...PG_CONFIG, max: 2 });
    try {
      const oids = await registerTypes(pool);
      assert.equal(pg.types.getTypeParser(oids.sno.oid), pg.types.getTypeParser(0));
      const [a, b] = await Promise.all([pool.connect(), pool.connect()]);
      try {
        for (const client of [a, b]) {
          const { rows } = await client.query(
            "SELECT 'brpk4q72xwf2m63l'::sno AS one, ARRAY['2222222222222222'::sno, NULL] AS many");
          assert.ok(rows[0].one instanceof Sno && rows[0].one.equals(Sno.parse('brpk4q72xwf2m63l')));
          assert.ok(rows[0].many[0] instanceof Sno, String(rows[0].many[0]));
          assert.deepEqual(rows[0].many.map(String), ['2222222222222222', 'null']);
          assert.equal(rows[0].many[1], null);
        }
        // binary: true takes the extended protocol only with parameters
        const { rows } = await a.query({ text: 'SELECT $1::sno AS one', values: ['2222222222222223'], binary: true });
        assert.ok(rows[0].one instanceof Sno && rows[0].one.equals(Sno.parse('2222222222222223')));
      } finally {
        a.release();
        b.release();
      }
    } finally {
      await pool.end();
    }
  });

  test('arrays of every type in text: NULLs, two dimensions, empty', async () => {
    const client = await connect();
    try {
      await registerTypes(client);
      const times = ['2020-01-01', '2021-01-01', '2022-01-01'].map((t) => new Date(`${t}T00:00:00Z`));
      for (const [type, cls] of Object.entries(TYPES)) {
        const [a, b, c] = times.map((t) => cls.boundary(t));
        const { rows } = await client.query(
          `SELECT ARRAY[[$1::${type}, NULL], [$2::${type}, $3::${type}]] AS two, ARRAY[]::${type}[] AS empty`,
          [a, b, c]);
        assert.deepEqual(shape(rows[0]), shape({ two: [[a, null], [b, c]], empty: [] }), type);
      }
    } finally {
      await client.end();
    }
  });

  test('binary results: values of every type, and the binary array parsers', async () => {
    const client = await connect();
    try {
      const oids = await registerTypes(client, OTHER_LAYOUT.options);
      for (const [type, cls] of Object.entries(TYPES)) {
        // node-postgres passes binary results through UTF-8 (brianc/node-postgres#3495):
        // only IDs whose bytes are all ASCII arrive intact, so these are such IDs
        const [a, b, c] = [1, 2, 3].map((n) => {
          const bytes = new Uint8Array(cls.LENGTH ?? 8);
          bytes[2] = 0x7f;
          bytes[bytes.length - 1] = n;
          return cls.fromBytes(bytes);
        });
        // (binary: true takes the extended protocol only with parameters)
        const { rows } = await client.query({ text: `SELECT $1::${type} AS one`, values: [a], binary: true });
        assert.deepEqual(shape(rows[0]), shape({ one: a }), type);
        // an array's binary form holds its element type's OID, which may have any bytes:
        // the server's array_send() bytes, as hex text, go to the parser registered
        const send = await client.query(
          `SELECT encode(array_send(ARRAY[[$1::${type}, NULL], [$2::${type}, $3::${type}]]), 'hex') AS two,
                  encode(array_send(ARRAY[]::${type}[]), 'hex') AS empty`, [a, b, c]);
        const parse = client.getTypeParser(oids[type].arrayOid, 'binary');
        const read = Object.fromEntries(Object.entries(send.rows[0]).map(([k, hex]) => [k, parse(Buffer.from(hex, 'hex'))]));
        assert.deepEqual(shape(read), shape({ two: [[a, null], [b, c]], empty: [] }), type);
        if (type === 'snowflake_si') {
          assert.deepEqual([rows[0].one.indexBits, read.two[1][0].indexBits], [4, 4]);
        }
      }
    } finally {
      await client.end();
    }
  });

  test('snowflakeSi options: values and arrays read carry them', async () => {
    const client = await connect();
    try {
      await registerTypes(client, OTHER_LAYOUT.options);
      const query = `SELECT ${OTHER_LAYOUT.sql} AS id, ARRAY[${OTHER_LAYOUT.sql}] AS many`;
      const { rows } = await client.query(query);
      assertOtherLayout(rows[0].id);
      assertOtherLayout(rows[0].many[0]);
    } finally {
      await client.end();
    }
  });
});

test('the binary array parser refuses bytes that are not an array (22P03)', () => {
  const parse = binaryArrayParser((bytes) => Sno.fromBytes(bytes), 'sno');
  const int32s = (...ns) => Buffer.concat(ns.map((n) => { const b = Buffer.alloc(4); b.writeInt32BE(n); return b; }));
  const element = Buffer.concat([int32s(10), Buffer.alloc(10)]);
  const oneDim = (n) => int32s(1, 0, 0, n, 1);
  assert.deepEqual(shape(parse(Buffer.concat([oneDim(2), element, int32s(-1)]))),
    [['Sno', '2222222222222222'], null]);
  for (const bytes of [
    Buffer.alloc(3), // shorter than a header
    Buffer.concat([oneDim(3), element, int32s(-1)]), // fewer elements than it says
    Buffer.concat([oneDim(1), element, int32s(-1)]), // more bytes than its elements
    oneDim(1e9), // a length no bytes follow
  ]) {
    assert.throws(() => parse(bytes), { code: '22P03', message: `malformed binary array of type sno: ${bytes.length} bytes` });
  }
});

/** Arrays and objects of values as plain data: each value its class's name and text. */
function shape(x) {
  if (x === null) return null;
  if (Array.isArray(x)) return x.map(shape);
  if (x.constructor === Object) return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, shape(v)]));
  return [x.constructor.name, String(x)];
}
