/**
 * The shared vectors of clients/vectors/vectors.json (made by the C
 * codecs), read with their large integers exact, and what a test needs to
 * check a value class against one.  UID_VECTORS names another file.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { TYPES } from '../src/index.js';

export const VECTORS_PATH = process.env.UID_VECTORS ||
  fileURLToPath(new URL('../../vectors/vectors.json', import.meta.url));

/**
 * The file, its integers that may pass 2^53 (bigint, unix_us) read as
 * strings first, so that none loses digits.
 */
function load(path) {
  const text = readFileSync(path, 'utf8')
    .replace(/"(bigint|unix_us)": (-?\d+)/g, '"$1": "$2"');
  return JSON.parse(text);
}

const data = load(VECTORS_PATH);

/** The members of a vector that are not fields of the value. */
const NOT_FIELDS = new Set([
  'bytes', 'form', 'input', 'options', 'text', 'timestamp', 'type', 'unix_us', 'bigint', 'uuid',
  'refused',
]);

/** The IDs, each with the value class of its type. */
export const ids = data.ids.map((v) => ({
  ...v,
  cls: TYPES[v.type],
  fieldNames: Object.keys(v).filter((k) => !NOT_FIELDS.has(k)),
  opts: snowflakeOptions(v.options),
}));

/** The refused inputs, each with the value class of its type. */
export const refused = data.refused.map((v) => ({
  ...v, cls: TYPES[v.type], opts: snowflakeOptions(v.options),
}));

/**
 * snowflake_si's options of a vector as the class takes them: the base
 * clock given as Unix milliseconds or an ISO time, the index width.
 */
function snowflakeOptions(options = {}) {
  const out = {};
  if (options.epoch !== undefined) {
    out.epoch = /^\d+$/.test(options.epoch) ? Number(options.epoch) : new Date(options.epoch);
  }
  if (options.index_bits !== undefined) out.indexBits = Number(options.index_bits);
  return out;
}

/** The bytes of hex text. */
export const fromHex = (hex) => Uint8Array.from(Buffer.from(hex, 'hex'));

/**
 * The value a vector's input makes: its text parsed, or its bytes ("0x...")
 * received; a snowflake_si carrying the vector's options.
 */
export function valueOf(v) {
  return v.form === 'bytes' ? v.cls.fromBytes(fromHex(v.input.slice(2)), v.opts) : v.cls.parse(v.input, v.opts);
}

/** The fields of each type in the order of its fromParts() arguments after the time. */
const PARTS = {
  sno: ['meta', 'partition', 'sequence', 'tick'],
  muid: ['medallion', 'offset'],
  snowflake_si: ['machine', 'index'],
  revts8: ['sequence', 'generator', 'cluster'],
  uid60: ['worker', 'sequence', 'random'],
};

/**
 * The arguments of fromParts() that make the vector's ID again: its time
 * (Unix microseconds), its fields, and for snowflake_si its options.
 */
export function partsOf(v) {
  const args = [BigInt(v.unix_us), ...PARTS[v.type].map((name) => v[name])];
  return v.type === 'snowflake_si' ? [...args, v.opts] : args;
}

/**
 * The value's fields and time as the vector names them: snowflake_si's
 * under the vector's base clock and index width.
 */
export function fieldsOf(v, id) {
  const decoded = v.type === 'snowflake_si' ? id.fields(v.opts) : id;
  const out = { unix_us: decoded.unixMicros, timestamp_ms: decoded.timestamp.getTime() };
  for (const name of v.fieldNames) out[name] = decoded[name];
  return out;
}

/** The same, from the vector. */
export function expectedFields(v) {
  const out = { unix_us: BigInt(v.unix_us), timestamp_ms: Number(BigInt(v.unix_us) / 1000n) };
  for (const name of v.fieldNames) out[name] = v[name];
  return out;
}
