/**
 * The value classes against the server: for each refused input the
 * server's error equals the class's; for every vector the server's text,
 * binary form and accessors equal the class's; _from_parts() and
 * _boundary() give the same IDs and the same refusals; ORDER BY on the
 * server equals sorting with compare().
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Muid, Revts8, Sno, SnowflakeSi, TYPES, Uid60 } from '../src/index.js';
import { formatTimestamptz, unixMicrosOf } from '../src/support.js';
import {
  attempt, clientView, connect, describeServer, outcome, serverView,
} from './server.js';
import { fieldsOf, fromHex, ids, refused, valueOf } from './vectors.js';

/** A time as a timestamptz parameter. */
const timeParam = (t) => formatTimestamptz(unixMicrosOf(t));

describeServer('the classes against the server', () => {
  let client;
  before(async () => {
    client = await connect();
  });
  after(() => client?.end());

  test('refused inputs: the same errors', async () => {
    for (const v of refused) {
      const server = await outcome(client, `SELECT $1::${v.type}`, [v.input]);
      assert.deepEqual(attempt(() => v.cls.parse(v.input), String), server, v.input);
    }
  });

  test('refused binary values: the same errors', async () => {
    for (const [type, hex] of BINARY_REFUSED) {
      const bytes = fromHex(hex);
      const server = await outcome(client, `SELECT $1::${type}`, [Buffer.from(bytes)]);
      assert.deepEqual(attempt(() => TYPES[type].fromBytes(bytes), String), server, `${type} 0x${hex}`);
    }
  });

  test('casts from bigint: the same IDs and the same refusals', async () => {
    for (const [type, value] of BIGINT_CASES) {
      const server = await outcome(client, `SELECT $1::bigint::${type}::text AS id`, [String(value)]);
      const mine = attempt(() => TYPES[type].fromBigInt(value), (id) => ({ id: String(id) }));
      assert.deepEqual(mine, server, `${value}::bigint::${type}`);
    }
  });

  test('vectors: the same text, bytes, fields and time', async () => {
    for (const v of ids) {
      const id = valueOf(v);
      // the vector's own input, as the parameter $1 of the type: text through
      // the input function, bytes (a Buffer goes in binary) through recv
      const param = v.form === 'bytes' ? Buffer.from(fromHex(v.input.slice(2))) : v.input;
      let select = serverView(v.type, 'x');
      const params = [param];
      if (v.type === 'snowflake_si') {
        // the vector's base clock and index width as the functions' arguments
        const { epoch, indexBits } = { epoch: new Date('2024-01-01T00:00:00Z'), indexBits: 8, ...v.opts };
        params.push(timeParam(typeof epoch === 'number' ? new Date(epoch) : epoch), indexBits);
        select = 'x::text AS text, ' +
          '(extract(epoch FROM snowflake_si_timestamp(x, $2::timestamptz)) * 1000000)::bigint::text AS unix_us, ' +
          'snowflake_si_machine(x, $3::int)::text AS machine, snowflake_si_index(x, $3::int)::text AS index';
      }
      const { rows } = await client.query(
        `SELECT ${select}, encode(${v.type}_send(x), 'hex') AS bytes FROM (SELECT $1::${v.type} AS x) s`, params);
      const decoded = v.type === 'snowflake_si' ? id.fields(v.opts) : id;
      assert.deepEqual(rows[0], { ...clientView(id, decoded), bytes: Buffer.from(id.toBytes()).toString('hex') },
        `${v.type} ${v.input}`);
      assert.equal(String(fieldsOf(v, id).unix_us), rows[0].unix_us);
    }
  });

  test('to_json(): the same JSON as JSON.stringify()', async () => {
    for (const v of ids) {
      const id = valueOf(v);
      const { rows } = await client.query(`SELECT to_json($1::${v.type})::text AS json`, [id.toString()]);
      assert.equal(JSON.stringify(id), rows[0].json, `${v.type} ${v.input}`);
    }
  });

  test('from_parts and boundary: the same IDs and the same refusals', async () => {
    for (const c of PARTS_CASES) {
      const placeholders = c.args.map((_, i) => `$${i + 2}`).join(', ');
      const server = await outcome(client,
        `SELECT ${c.type}_from_parts($1::timestamptz${placeholders ? ', ' + placeholders : ''})::text AS id`,
        [timeParam(c.time), ...c.args]);
      const mine = attempt(() => TYPES[c.type].fromParts(c.time, ...c.args), (id) => ({ id: String(id) }));
      assert.deepEqual(mine, server, `${c.type}_from_parts(${timeParam(c.time)}, ${c.args})`);
    }
    for (const [type, cls] of Object.entries(TYPES)) {
      for (const time of BOUNDARY_TIMES) {
        const server = await outcome(client, `SELECT ${type}_boundary($1::timestamptz)::text AS id`,
          [timeParam(time)]);
        const mine = attempt(() => cls.boundary(time), (id) => ({ id: String(id) }));
        assert.deepEqual(mine, server, `${type}_boundary(${timeParam(time)})`);
      }
    }
  });

  test('snowflake_si base clocks at the ends and past them: the same IDs and refusals', async () => {
    const last = 9222272525227000000n; // 294212-03-08 08:07:07+00
    for (const epoch of [1047972019224000n, 1047972019225000n, last, last + 1000n, 9224318015999999000n]) {
      for (const time of [epoch, d('2026-01-01T00:00:00Z'), (2n ** 63n - 1n) / 1000n * 1000n]) {
        const server = await outcome(client,
          'SELECT snowflake_si_from_parts($1::timestamptz, 31, 255, $2::timestamptz, 8)::text AS id',
          [timeParam(time), timeParam(epoch)]);
        const mine = attempt(() => SnowflakeSi.fromParts(time, 31, 255, { epoch, indexBits: 8 }),
          (id) => ({ id: String(id) }));
        assert.deepEqual(mine, server, `snowflake_si_from_parts(${timeParam(time)}, 31, 255, ${timeParam(epoch)}, 8)`);
      }
    }
  });

  test('ORDER BY on the server equals sorting with compare()', async () => {
    await client.query('CREATE TEMP TABLE order_test (type text, id text)');
    try {
      for (const [type, cls] of Object.entries(TYPES)) {
        const texts = [...new Set(ids.filter((v) => v.type === type).map((v) => v.text))];
        for (const time of ORDER_TIMES) texts.push(String(cls.boundary(time)));
        await client.query(`INSERT INTO order_test SELECT $1, unnest($2::text[])`, [type, texts]);
        await client.query(`INSERT INTO order_test SELECT $1, ${type}_new()::text FROM generate_series(1, 20)`, [type]);
        const ordered = async (using = '') => (await client.query(
          `SELECT id FROM order_test WHERE type = $1 ORDER BY id::${type} ${using}`, [type])).rows.map((r) => r.id);
        const all = await ordered();
        const sorted = all.map((t) => cls.parse(t)).sort(cls.compare).map(String);
        assert.deepEqual(sorted, all, type);
        assert.deepEqual(all.map((t) => cls.parse(t)).sort((a, b) => -cls.compare(a, b)).map(String),
          await ordered('DESC'), type);
        if (type === 'revts8') {
          assert.deepEqual(all.map((t) => cls.parse(t)).sort(Revts8.compareBytes).map(String),
            await ordered('USING ~<~'), 'revts8 bytes order');
        }
      }
    } finally {
      await client.query('DROP TABLE order_test');
    }
  });
});

/** Binary values the receive functions refuse: lengths, ranges, reserved bits. */
const BINARY_REFUSED = [
  ['sno', '4e6f2160a0ff9a0a10'], ['sno', '4e6f2160a0ff9a0a103300'], ['muid', '00'],
  ['snowflake_si', '0020000000000000'], ['snowflake_si', 'ffffffffffffffff'], ['snowflake_si', '00000007'],
  ['revts8', '0000000000000400'], ['revts8', 'ffffffffffffffff'], ['revts8', '000000000000000000'],
  ['uid60', '1000000000000000'], ['uid60', '8000000000000000'], ['uid60', ''],
];

/** bigint values cast to the 8-byte types: edges, out of range, reserved bits. */
const BIGINT_CASES = [
  ['snowflake_si', 0n], ['snowflake_si', 2n ** 53n - 1n], ['snowflake_si', 2n ** 53n], ['snowflake_si', -1n],
  ['uid60', 2n ** 60n - 1n], ['uid60', 2n ** 60n], ['uid60', -(2n ** 63n)],
  ['revts8', -1n], ['revts8', 0x400n], ['revts8', -(2n ** 63n)], ['revts8', 2n ** 63n - 1n],
];

const d = (iso) => new Date(iso);
const BOUNDARY_TIMES = [
  -Infinity, Infinity, d('1969-12-31T23:59:59.999Z'), d('1970-01-01T00:00:00Z'), d('2009-12-31T23:59:59.999Z'),
  d('2010-01-01T00:00:00.001Z'), d('2018-03-01T00:00:00.500Z'), d('2024-01-01T00:00:00Z'),
  d('2026-11-29T03:00:00.123Z'), 1764385200123457n, d('2058-11-03T19:53:47.775Z'), d('2058-11-03T19:53:47.776Z'),
  d('2079-09-07T15:47:35.548Z'), d('2079-09-07T15:47:35.549Z'), d('2109-05-15T07:35:11.103Z'),
  d('2112-09-17T23:53:47.370Z'), 4503599627370494n, 4503599627370495n, d('2154-04-07T06:28:15Z'), d('2154-04-07T06:28:16Z'),
];
const ORDER_TIMES = BOUNDARY_TIMES.filter((t) => {
  try {
    return [Sno, Muid, SnowflakeSi, Revts8, Uid60].every((c) => c.boundary(t));
  } catch {
    return false;
  }
});

const now = d('2026-11-29T03:04:05.678Z');
const PARTS_CASES = [
  { type: 'sno', time: now, args: [255, 65535, 65535, 1] },
  { type: 'sno', time: now, args: [256, 0, 0, 0] },
  { type: 'sno', time: now, args: [0, -1, 0, 0] },
  { type: 'sno', time: now, args: [0, 0, 65536, 0] },
  { type: 'sno', time: now, args: [0, 0, 0, 2] },
  { type: 'sno', time: d('2009-12-31T23:59:59.999Z'), args: [0, 0, 0, 0] },
  { type: 'sno', time: d('2079-09-07T15:47:35.551Z'), args: [1, 2, 3, 0] },
  { type: 'muid', time: 1642579230975519n, args: [1923190821165, -1] },
  { type: 'muid', time: now, args: [2 ** 44, 0] },
  { type: 'muid', time: now, args: [-1, 0] },
  { type: 'muid', time: 4503599627370494n, args: [0, 7] },
  { type: 'muid', time: 4503599627370495n, args: [0, 7] },
  { type: 'muid', time: -1n, args: [0, 7] },
  { type: 'snowflake_si', time: now, args: [31, 255] },
  { type: 'snowflake_si', time: now, args: [32, 0] },
  { type: 'snowflake_si', time: now, args: [0, 256] },
  { type: 'snowflake_si', time: d('2023-12-31T23:59:59.999Z'), args: [0, 0] },
  { type: 'snowflake_si', time: d('2058-11-03T19:53:47.775Z'), args: [1, 1] },
  { type: 'snowflake_si', time: d('2058-11-03T19:53:47.776Z'), args: [1, 1] },
  { type: 'revts8', time: now, args: [63, 63, 15] },
  { type: 'revts8', time: now, args: [64, 0, 0] },
  { type: 'revts8', time: now, args: [0, 64, 0] },
  { type: 'revts8', time: now, args: [0, 0, 16] },
  { type: 'revts8', time: -1000n, args: [0, 0, 0] },
  { type: 'uid60', time: now, args: [511, 1023, 511] },
  { type: 'uid60', time: now, args: [512, 0, 0] },
  { type: 'uid60', time: now, args: [0, 1024, 0] },
  { type: 'uid60', time: now, args: [0, 0, 512] },
  { type: 'uid60', time: d('2018-02-28T23:59:59Z'), args: [0, 0, 0] },
  { type: 'uid60', time: d('2154-04-07T06:28:16Z'), args: [0, 0, 0] },
];
