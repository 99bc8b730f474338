/**
 * snowflake_si (Snowflake-SI, npm @litert/uuid): a 53-bit non-negative
 * integer, `MAB * 8192 + MID * 2^k + UIN`, with MAB the milliseconds after
 * the base clock, MID the machine id (13 - k bits) and UIN the index (k
 * bits).  It fits a JavaScript number exactly: that is the type's point,
 * so its value here is a number.  Text: the decimal integer.  See
 * doc/formats.md and src/codec/snowflake_si_codec.c.
 *
 * The server reads the base clock and the index width from the settings
 * uid.snowflake_si_epoch and uid.snowflake_si_index_bits.  Here a value
 * carries the ones it was made with (options { epoch, indexBits } of
 * parse(), fromBytes(), fromBigInt(), fromParts() and boundary(), and of
 * the adapters; by default the settings' defaults, 2024-01-01T00:00:00Z
 * and 8) for its timestamp, unixMicros, machine and index.  They take no
 * part in equality and order, as in the Python package.
 */
import { INTERNAL, Int64Value } from './base.js';
import { InvalidParameterValue } from './errors.js';
import {
  BAD_CHAR, OUT_OF_RANGE, Refusal, checkField, checkRange, dateOfMicros, decodeText,
  formatTimestamptz, int32Arg, tickToMicros, timeToTick, unixMicrosOf,
} from './support.js';

const EXPECTED = 'a decimal integer from 0 to 9007199254740991';
const MAX = 2n ** 53n - 1n;
const LOW_BITS = 13;
/** The earliest base clock the original accepts: 2003-03-18T07:20:19.225Z. */
const EPOCH_MIN_MS = 1047972019225n;
/**
 * The server's last base clock, 294212-03-08T08:07:07Z: its clock, to the
 * 40-bit end, has its microseconds in a signed 64-bit integer.
 */
const EPOCH_MAX_MS = (2n ** 63n - 1n) / 1000n - (2n ** 40n - 1n);

/**
 * The settings' defaults: the base clock 2024-01-01T00:00:00Z in Unix
 * milliseconds (a number, so that no one can change it, as one could a
 * shared Date), and the index width.
 */
export const DEFAULT_EPOCH_MS = Date.UTC(2024, 0, 1);
export const DEFAULT_INDEX_BITS = 8;

/** C's isspace() in the "C" locale: what bigint's input skips around digits. */
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c]);

/**
 * The base clock in Unix microseconds, checked as the server checks the
 * epoch argument (22023).
 * @param {Date | number | bigint} epoch a Date, Unix milliseconds (number) or microseconds (bigint)
 */
function epochMicros(epoch) {
  let us;
  if (typeof epoch === 'number' && Number.isFinite(epoch)) {
    if (!Number.isInteger(epoch)) throw new TypeError('a base clock in milliseconds is an integer');
    us = BigInt(epoch) * 1000n;
  } else {
    us = unixMicrosOf(epoch);
  }
  if (typeof us !== 'bigint' || us % 1000n !== 0n || us / 1000n < EPOCH_MIN_MS ||
      us / 1000n > EPOCH_MAX_MS) {
    throw new InvalidParameterValue(
      `invalid snowflake_si base clock: "${formatTimestamptz(us)}"`,
      'The base clock must be a whole number of milliseconds from ' +
        '2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.');
  }
  return us;
}

/** A layout: the clock of MAB and the index width k. */
function makeLayout(epochUs, k) {
  const clock = Object.freeze({
    typeName: 'snowflake_si',
    epochUs,
    tickUs: 1000n,
    tickMax: 2n ** 40n - 1n,
  });
  const l = Object.freeze({ clock, k });
  CHECKED.add(l);
  return l;
}

/** The layouts makeLayout() made: checked already, taken as they are. */
const CHECKED = new WeakSet();
const DEFAULT_LAYOUT = makeLayout(BigInt(DEFAULT_EPOCH_MS) * 1000n, DEFAULT_INDEX_BITS);

/**
 * The layout under the options, each one absent taken from base (22023
 * for a bad base clock, 22003 for a bad width).  Options that are a
 * layout already (from checkedLayout()) are taken unchecked.
 * @param {SnowflakeSiOptions | undefined} options
 * @param {{ clock: object, k: number }} [base]
 */
function layout(options, base = DEFAULT_LAYOUT) {
  if (options === undefined) return base;
  if (CHECKED.has(options)) return options;
  if (options === null || typeof options !== 'object') {
    throw new TypeError('snowflake_si options are an object { epoch, indexBits }');
  }
  const { epoch, indexBits } = options;
  const epochUs = epoch === undefined ? base.clock.epochUs : epochMicros(epoch);
  const k = indexBits === undefined ? base.k : checkField('snowflake_si', 'index_bits', indexBits, 1, 13);
  return epochUs === base.clock.epochUs && k === base.k ? base : makeLayout(epochUs, k);
}

/**
 * The options checked once, for the adapters: a layout that parse() and
 * the other factories take without checking it again.
 * @param {SnowflakeSiOptions} [options]
 */
export function checkedLayout(options) {
  return layout(options);
}

/** The layout each value was made with; a value not here has the defaults. */
const LAYOUTS = new WeakMap();

const layoutOf = (id) => LAYOUTS.get(id) ?? DEFAULT_LAYOUT;

/** The value of a key, carrying a layout. */
function make(key, l) {
  const id = new SnowflakeSi(INTERNAL, key);
  if (l !== DEFAULT_LAYOUT) LAYOUTS.set(id, l);
  return id;
}

/**
 * @typedef {object} SnowflakeSiOptions
 * @property {Date | number | bigint} [epoch] the base clock (`uid.snowflake_si_epoch`):
 *   a Date, Unix milliseconds (number) or Unix microseconds (bigint, as every
 *   bigint time of this package; Python's int epoch is milliseconds)
 * @property {number} [indexBits] the index width k, 1..13 (`uid.snowflake_si_index_bits`)
 */

/**
 * A snowflake_si ID, carrying the base clock and index width it was made
 * with (not part of equality or order).
 */
export class SnowflakeSi extends Int64Value {
  static typeName = 'snowflake_si';

  /** Checks a 64-bit value from outside: 0 .. 2^53 - 1. */
  static keyOf(wire, binary) {
    return checkRange('snowflake_si', wire, MAX, binary);
  }

  /** fromBytes() and fromBigInt() make their values here, with the options' layout. */
  static _of(key, options) {
    return make(key, layout(options));
  }

  /**
   * The ID of its text form, as the type's input function reads it:
   * decimal digits, surrounding white space and leading zeros allowed.
   * @param {string} text
   * @param {SnowflakeSiOptions} [options] the layout the value carries
   * @throws {import('./errors.js').InvalidTextRepresentation} not digits (22P02)
   * @throws {import('./errors.js').NumericValueOutOfRange} above 2^53 - 1 (22003)
   */
  static parse(text, options) {
    const l = layout(options);
    return make(decodeText('snowflake_si', text, EXPECTED, (bytes) => {
      let start = 0;
      let end = bytes.length;
      while (start < end && SPACE.has(bytes[start])) start++;
      while (end > start && SPACE.has(bytes[end - 1])) end--;
      if (start === end) throw new Refusal(BAD_CHAR, bytes.length);
      let v = 0n;
      for (let i = start; i < end; i++) {
        if (bytes[i] < 0x30 || bytes[i] > 0x39) throw new Refusal(BAD_CHAR, i);
        if (v <= MAX) v = v * 10n + BigInt(bytes[i] - 0x30);
      }
      if (v > MAX) throw new Refusal(OUT_OF_RANGE);
      return v;
    }), l);
  }

  /**
   * The ID of a number, as `bigint::snowflake_si` casts it (22003 outside
   * 0 .. 2^53 - 1).
   * @param {number | bigint} value
   * @param {SnowflakeSiOptions} [options]
   */
  static fromNumber(value, options) {
    return SnowflakeSi.fromBigInt(value, options);
  }

  /** The text form: the decimal integer. */
  toString() {
    return String(this._rep);
  }

  /** The ID as a number (exact: it has 53 bits). */
  get value() {
    return Number(this._rep);
  }

  /** The number, so that `+id`, `Number(id)` and `a < b` work. */
  valueOf() {
    return this.value;
  }

  /** The base clock this value's timestamp counts from (a new Date each time). */
  get epoch() {
    return dateOfMicros(layoutOf(this).clock.epochUs);
  }

  /** The index width this value's machine and index assume. */
  get indexBits() {
    return layoutOf(this).k;
  }

  /**
   * The same ID under another base clock or index width (the options
   * given; the others its own).
   * @param {SnowflakeSiOptions} options
   */
  withLayout(options) {
    return make(this._rep, layout(options, layoutOf(this)));
  }

  /**
   * The fields: what `snowflake_si_timestamp(id, epoch)`,
   * `snowflake_si_machine(id, k)` and `snowflake_si_index(id, k)` return,
   * under the value's own base clock and index width, or those of options.
   * @param {SnowflakeSiOptions} [options]
   * @returns {{ timestamp: Date, unixMicros: bigint, machine: number, index: number }}
   */
  fields(options) {
    const { clock, k } = layout(options, layoutOf(this));
    const id = this.value;
    const low = id % 2 ** LOW_BITS;
    const unixMicros = tickToMicros(clock, this._rep >> BigInt(LOW_BITS));
    return {
      timestamp: dateOfMicros(unixMicros),
      unixMicros,
      machine: Math.floor(low / 2 ** k),
      index: low % 2 ** k,
    };
  }

  /** Microseconds since 1970-01-01 UTC of its millisecond, after its base clock. */
  get unixMicros() {
    return this.fields().unixMicros;
  }

  /** The machine id under its index width (`snowflake_si_machine()`). */
  get machine() {
    return this.fields().machine;
  }

  /** The index under its index width (`snowflake_si_index()`). */
  get index() {
    return this.fields().index;
  }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    const l = layoutOf(this);
    const epoch = l.clock.epochUs === DEFAULT_LAYOUT.clock.epochUs ? ''
      : `, epoch ${this.epoch.toISOString()}`;
    const k = l.k === DEFAULT_INDEX_BITS ? '' : `, indexBits ${l.k}`;
    return `SnowflakeSi(${this}${epoch}${k})`;
  }

  /**
   * The ID of the fields, as `snowflake_si_from_parts()` makes it: time
   * floored to the millisecond; a field out of range is 22003, a time out
   * of range 22008, a bad base clock 22023.  It carries the options.
   * @param {Date | bigint} time a Date or Unix microseconds
   * @param {number} machine 0 .. 2^(13-k) - 1
   * @param {number} index 0 .. 2^k - 1
   * @param {SnowflakeSiOptions} [options]
   */
  static fromParts(time, machine, index, options) {
    machine = int32Arg(machine, 'machine');
    index = int32Arg(index, 'index');
    const l = layout(options);
    const { clock, k } = l;
    machine = checkField('snowflake_si', 'machine', machine, 0, 2 ** (LOW_BITS - k) - 1);
    index = checkField('snowflake_si', 'index', index, 0, 2 ** k - 1);
    const mab = timeToTick(clock, time, false);
    return make((mab << BigInt(LOW_BITS)) | BigInt(machine * 2 ** k + index), l);
  }

  /**
   * The smallest ID at or after the time, as `snowflake_si_boundary()`
   * (which reads only the base clock; the index width only goes with the
   * result).
   * @param {Date | bigint | number} time a Date, Unix microseconds, or ±Infinity
   * @param {SnowflakeSiOptions} [options]
   */
  static boundary(time, options) {
    const l = layout(options);
    return make(timeToTick(l.clock, time, true) << BigInt(LOW_BITS), l);
  }
}
