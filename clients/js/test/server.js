/**
 * The server the server tests run against: the one the libpq environment
 * variables (PGHOST, PGPORT, PGUSER, PGDATABASE) name, with the extension
 * uid.  Without PGHOST or PGPORT, or when that server cannot be reached or
 * has no uid, the server tests are skipped with the reason, unless
 * UID_TEST_REQUIRE_SERVER=1 makes that a failure (as CI does).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import pg from 'pg';

import { SnowflakeSi } from '../src/index.js';

const REQUIRE = process.env.UID_TEST_REQUIRE_SERVER === '1';

/** node-postgres's settings: the environment's, the session in UTC (the server's messages print times). */
export const PG_CONFIG = { options: '-c TimeZone=UTC', connectionTimeoutMillis: 10000 };

/** Why there is no server to test against, or null when there is one. */
async function probe() {
  const { PGHOST, PGPORT } = process.env;
  if (!PGHOST && !PGPORT) return 'PGHOST and PGPORT are not set: no server to test against';
  const where = `PGHOST=${PGHOST ?? ''} PGPORT=${PGPORT ?? ''}`;
  const client = new pg.Client(PG_CONFIG);
  try {
    await client.connect();
    await client.query('CREATE EXTENSION IF NOT EXISTS uid');
    return null;
  } catch (e) {
    return `no server with the uid extension at ${where}: ${e.message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

const reason = await probe();
if (reason) console.log(`# server tests ${REQUIRE ? 'fail' : 'skipped'}: ${reason}`);

/**
 * describe() for tests that need the server: skipped with the reason when
 * there is none, or one failing test under UID_TEST_REQUIRE_SERVER=1.
 */
export function describeServer(name, fn) {
  if (!reason) return describe(name, fn);
  if (REQUIRE) return test(name, () => { throw new Error(`UID_TEST_REQUIRE_SERVER=1: ${reason}`); });
  return test(name, { skip: reason }, () => {});
}

/** A connected node-postgres client (TimeZone UTC), closed by the caller. */
export async function connect(extra = {}) {
  const client = new pg.Client({ ...PG_CONFIG, ...extra });
  await client.connect();
  return client;
}

/**
 * The result of a query, or the error it raised as the fields the classes'
 * errors have ({ code, message, detail, hint }; absent ones undefined).
 */
export async function outcome(client, text, params) {
  try {
    return { rows: (await client.query(text, params)).rows };
  } catch (e) {
    if (!e.code) throw e;
    return { error: errorFields(e) };
  }
}

/** The fields of an error that the server and the classes both give. */
export function errorFields(e) {
  return { code: e.code, message: e.message, detail: e.detail, hint: e.hint };
}

/**
 * What a call of the classes gives, in the shape of outcome(): its result
 * mapped by fn, or its error's fields.
 */
export function attempt(call, fn) {
  try {
    return { rows: [fn(call())] };
  } catch (e) {
    if (!e.code) throw e;
    return { error: errorFields(e) };
  }
}

/** Each type's accessor functions, by the name of the class's getter. */
export const ACCESSORS = {
  sno: { meta: 'sno_meta', partition: 'sno_partition', sequence: 'sno_sequence', tick: 'sno_tick' },
  muid: { medallion: 'muid_medallion', offset: 'muid_offset' },
  snowflake_si: { machine: 'snowflake_si_machine', index: 'snowflake_si_index' },
  revts8: { sequence: 'revts8_sequence', generator: 'revts8_generator', cluster: 'revts8_cluster' },
  uid60: { worker: 'uid60_worker', sequence: 'uid60_sequence', random: 'uid60_random' },
};

/**
 * A select list of the server's view of the ID in column `col`: its text,
 * its time in Unix microseconds (as text) and its fields.
 */
export function serverView(type, col = 'id') {
  const fields = Object.entries(ACCESSORS[type])
    .map(([name, fn]) => `${fn}(${col})::bigint::text AS "${name}"`);
  return [`${col}::text AS text`,
    `(extract(epoch FROM ${type}_timestamp(${col})) * 1000000)::bigint::text AS unix_us`,
    ...fields].join(', ');
}

/** The same view of a value of the classes (fields under the default settings). */
export function clientView(id, decoded = id) {
  const type = id.constructor.typeName;
  const out = { text: id.toString(), unix_us: String(decoded.unixMicros) };
  for (const name of Object.keys(ACCESSORS[type])) out[name] = String(decoded[name]);
  return out;
}

/**
 * A snowflake_si made under settings other than the defaults (its SQL,
 * and the adapters' options that name those settings): read through an
 * adapter given the options, it has the time, machine and index it was
 * made from.
 */
export const OTHER_LAYOUT = {
  sql: "snowflake_si_from_parts('2010-05-06 07:08:09.123+00', 300, 9, '2004-01-01 00:00:00+00', 4)",
  options: { snowflakeSi: { epoch: new Date('2004-01-01T00:00:00Z'), indexBits: 4 } },
};

/** Asserts that id is OTHER_LAYOUT's ID, carrying its settings. */
export function assertOtherLayout(id) {
  assert.ok(id instanceof SnowflakeSi, `${String(id)} is a SnowflakeSi`);
  assert.deepEqual({
    timestamp: id.timestamp.toISOString(), machine: id.machine, index: id.index,
    epoch: id.epoch.toISOString(), indexBits: id.indexBits,
  }, {
    timestamp: '2010-05-06T07:08:09.123Z', machine: 300, index: 9,
    epoch: '2004-01-01T00:00:00.000Z', indexBits: 4,
  });
}
