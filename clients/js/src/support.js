/**
 * What the five value classes share: the text errors of the input
 * functions (src/type_support.c), the argument checks of the _from_parts()
 * functions, the clocks of the formats (uid_time_to_tick and
 * uid_tick_to_time), and big-endian byte handling.
 *
 * Internal: not an entry point of the package.
 */
import {
  DatetimeValueOutOfRange,
  InvalidBinaryRepresentation,
  InvalidTextRepresentation,
  NumericValueOutOfRange,
} from './errors.js';

// ---------------------------------------------------------------------------
// Text input

const encoder = new TextEncoder();

/**
 * The text as the server's input function sees it: UTF-8 bytes.  Lengths
 * and character positions in the server's messages count bytes.
 * @param {string} text
 * @param {string} typname for the TypeError of a non-string
 * @returns {Uint8Array}
 */
export function inputBytes(text, typname) {
  if (typeof text !== 'string') {
    throw new TypeError(`${typname}.parse() takes a string, not ${typeof text}`);
  }
  return encoder.encode(text);
}

/** Why a codec refused text (uid_status of src/codec/bits.h). */
export const BAD_LENGTH = 'length';
export const BAD_CHAR = 'char';
export const BAD_SHAPE = 'shape';
export const BAD_RESERVED = 'reserved';
export const OUT_OF_RANGE = 'range';

/**
 * A codec's refusal of text, thrown by the codecs and turned into the
 * server's error by textError().
 */
export class Refusal {
  /**
   * @param {string} status one of the BAD_ and OUT_OF_RANGE constants
   * @param {number} [pos] the zero-based byte position of the bad character
   */
  constructor(status, pos = 0) {
    this.status = status;
    this.pos = pos;
  }
}

/**
 * The server's error for text a codec refused (uid_text_error): 22003 for
 * a value beyond the type's range, else 22P02 with a DETAIL saying what is
 * wrong; both with the HINT "Expected <expected>.".
 * @param {string} typname
 * @param {string} input the text as given
 * @param {Uint8Array} bytes its UTF-8 bytes
 * @param {Refusal} refusal
 * @param {string} expected the accepted form, as the type's C file words it
 */
export function textError(typname, input, bytes, refusal, expected) {
  const hint = `Expected ${expected}.`;
  if (refusal.status === OUT_OF_RANGE) {
    return new NumericValueOutOfRange(
      `value "${input}" is out of range for type ${typname}`, undefined, hint);
  }
  const details = {
    [BAD_CHAR]: () => `Character ${refusal.pos + 1} is not allowed here.`,
    [BAD_LENGTH]: () => `The input is ${bytes.length} characters long.`,
    [BAD_SHAPE]: () =>
      `Character ${refusal.pos + 1} is out of place: a group has the wrong number of digits.`,
    [BAD_RESERVED]: () => 'Reserved bits are set.',
  };
  return new InvalidTextRepresentation(
    `invalid input syntax for type ${typname}: "${input}"`,
    (details[refusal.status] ?? (() => 'The input is malformed.'))(), hint);
}

/**
 * Decodes text with a codec, or throws the server's error.
 * @template T
 * @param {string} typname
 * @param {string} text
 * @param {string} expected
 * @param {(bytes: Uint8Array) => T} decode throws a Refusal for bad text
 * @returns {T}
 */
export function decodeText(typname, text, expected, decode) {
  const bytes = inputBytes(text, typname);
  try {
    return decode(bytes);
  } catch (e) {
    if (e instanceof Refusal) throw textError(typname, text, bytes, e, expected);
    throw e;
  }
}

/** The value of a hex digit (either case), or -1. */
export function hexValue(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/** Reads exactly count hex digits at bytes[from..], as a bigint; Refusal on a non-digit. */
export function readHex(bytes, from, count, onBad = (pos) => new Refusal(BAD_CHAR, pos)) {
  let v = 0n;
  for (let i = from; i < from + count; i++) {
    const d = hexValue(bytes[i]);
    if (d < 0) throw onBad(i);
    v = (v << 4n) | BigInt(d);
  }
  return v;
}

/** v as exactly digits hex digits (the low ones), upper or lower case. */
export function hexDigits(v, digits, upper = false) {
  const s = BigInt.asUintN(digits * 4, BigInt(v)).toString(16).padStart(digits, '0');
  return upper ? s.toUpperCase() : s;
}

// ---------------------------------------------------------------------------
// Arguments of the SQL functions

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * An integer argument as the server's integer (int4) parameter takes it:
 * a whole number, else TypeError; outside int4, the server's 22003.
 * @param {number | bigint} value
 * @param {string} arg the argument's name, for the TypeError
 * @returns {number}
 */
export function int32Arg(value, arg) {
  if (typeof value === 'bigint') value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new TypeError(`"${arg}" must be an integer, not ${String(value)}`);
  }
  if (value < INT32_MIN || value > INT32_MAX) {
    throw new NumericValueOutOfRange(`value "${value}" is out of range for type integer`);
  }
  return value;
}

/**
 * An integer argument as the server's bigint (int8) parameter takes it.
 * @param {number | bigint} value
 * @param {string} arg
 * @returns {bigint}
 */
export function int64Arg(value, arg) {
  if (typeof value === 'number' && Number.isSafeInteger(value)) value = BigInt(value);
  if (typeof value !== 'bigint') {
    throw new TypeError(`"${arg}" must be a safe integer or a bigint, not ${String(value)}`);
  }
  if (value < INT64_MIN || value > INT64_MAX) {
    throw new NumericValueOutOfRange(`value "${value}" is out of range for type bigint`);
  }
  return value;
}

/**
 * A field of a _from_parts() function checked as uid_check_field() does:
 * 22003 unless min <= value <= max.
 * @param {string} typname
 * @param {string} arg the SQL argument's name
 * @param {number | bigint} value an int4 (or, with wide, int8) argument
 * @param {number} min
 * @param {number} max
 * @param {boolean} [wide] the argument is a bigint
 * @returns {number}
 */
export function checkField(typname, arg, value, min, max, wide = false) {
  const v = wide ? int64Arg(value, arg) : BigInt(int32Arg(value, arg));
  if (v < BigInt(min) || v > BigInt(max)) {
    throw new NumericValueOutOfRange(
      `value ${v} is out of range for argument "${arg}"`,
      `Type ${typname} takes "${arg}" from ${min} to ${max}.`);
  }
  return Number(v);
}

/**
 * A 64-bit value of a type whose values are 0 .. max, checked as
 * uid_check_range() does: 22P03 for binary input, 22003 for a bigint.
 * @param {string} typname
 * @param {bigint} value a signed 64-bit value
 * @param {bigint} max
 * @param {boolean} binary the value came from the binary form
 * @returns {bigint}
 */
export function checkRange(typname, value, max, binary) {
  if (value < 0n || value > max) {
    const Err = binary ? InvalidBinaryRepresentation : NumericValueOutOfRange;
    throw new Err(
      `${binary ? 'binary value' : 'value'} ${value} is out of range for type ${typname}`,
      `A ${typname} is between 0 and ${max}.`);
  }
  return value;
}

// ---------------------------------------------------------------------------
// Time

/** timestamptz's 'infinity' and '-infinity'. */
const NOT_FINITE = new Set([Infinity, -Infinity]);

/**
 * A time argument in Unix microseconds: a Date (whole milliseconds), a
 * bigint of microseconds since 1970-01-01 UTC (the precision of
 * timestamptz), or Infinity / -Infinity for timestamptz's 'infinity' and
 * '-infinity'.
 * @param {Date | bigint | number} time
 * @returns {bigint | number} microseconds, or ±Infinity
 */
export function unixMicrosOf(time) {
  if (typeof time === 'bigint') return time;
  if (time instanceof Date) {
    const ms = time.getTime();
    if (Number.isNaN(ms)) throw new TypeError('invalid Date');
    return BigInt(ms) * 1000n;
  }
  if (NOT_FINITE.has(time)) return time;
  throw new TypeError(
    'a time is a Date, a bigint of microseconds since 1970-01-01 UTC, or ±Infinity, not ' +
      String(time));
}

/** The Date of the millisecond holding Unix microseconds us (floored). */
export function dateOfMicros(us) {
  return new Date(Number(floorDiv(us, 1000n)));
}

/** floor(a / b) for bigints, b > 0. */
export function floorDiv(a, b) {
  const q = a / b;
  return a % b !== 0n && a < 0n ? q - 1n : q;
}

const pad = (n, w = 2) => String(n).padStart(w, '0');

/**
 * Unix microseconds as PostgreSQL prints a timestamptz in ISO DateStyle in
 * a session whose TimeZone is UTC ("2010-01-01 00:00:00+00", trailing zeros
 * of the fraction dropped): the form of the server's messages.
 * @param {bigint | number} us microseconds, or ±Infinity
 */
export function formatTimestamptz(us) {
  if (us === Infinity) return 'infinity';
  if (us === -Infinity) return '-infinity';
  // in bigints: a Date ends in 275760, a timestamptz in 294276
  const days = floorDiv(us, 86400000000n);
  const rest = us - days * 86400000000n;
  let [year, month, day] = civilFromDays(days);
  const bc = year <= 0n;
  if (bc) year = 1n - year;
  const secs = Number(rest / 1000000n);
  const frac = Number(rest % 1000000n);
  let s = `${pad(year, 4)}-${pad(month)}-${pad(day)} ` +
    `${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}`;
  if (frac !== 0) s += '.' + pad(frac, 6).replace(/0+$/, '');
  return s + '+00' + (bc ? ' BC' : '');
}

/** The proleptic Gregorian [year, month, day] of a bigint day counted from 1970-01-01. */
function civilFromDays(days) {
  const z = days + 719468n; // from 0000-03-01
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  return [yoe + era * 400n + (month <= 2n ? 1n : 0n), month, doy - (153n * mp + 2n) / 5n + 1n];
}

/**
 * A format's clock (UidClockSpec): tick t starts at epochUs + t * tickUs
 * Unix microseconds; ticks run from 0 to tickMax.
 * @typedef {{ typeName: string, epochUs: bigint, tickUs: bigint, tickMax: bigint }} Clock
 */

/** Unix microseconds of the start of tick. */
export function tickToMicros(clock, tick) {
  return clock.epochUs + tick * clock.tickUs;
}

/**
 * The tick of clock that holds time (roundUp false: floored), or the first
 * tick at or after it (roundUp true: times before the range give tick 0),
 * as uid_time_to_tick(); a time outside the range is the server's 22008.
 * @param {Clock} clock
 * @param {Date | bigint | number} time
 * @param {boolean} roundUp
 * @returns {bigint}
 */
export function timeToTick(clock, time, roundUp) {
  const t = unixMicrosOf(time);
  let tick = null;
  if (t === -Infinity) {
    if (roundUp) return 0n;
  } else if (t !== Infinity) {
    const us = t - clock.epochUs;
    if (us < 0n) {
      if (roundUp) return 0n;
    } else {
      tick = us / clock.tickUs;
      if (roundUp && us % clock.tickUs !== 0n) tick++;
      if (tick > clock.tickMax) tick = null;
    }
  }
  if (tick === null) {
    throw new DatetimeValueOutOfRange(
      `timestamp out of range for type ${clock.typeName}: "${formatTimestamptz(t)}"`,
      `The range is ${formatTimestamptz(tickToMicros(clock, 0n))} to ` +
        `${formatTimestamptz(tickToMicros(clock, clock.tickMax))}.`);
  }
  return tick;
}

// ---------------------------------------------------------------------------
// Bytes

/**
 * A copy of a binary value, checked for its length as the server's
 * receive functions do (22P03).
 * @param {Uint8Array} bytes
 * @param {number} len
 * @param {string} typname
 * @returns {Uint8Array}
 */
export function binaryOf(bytes, len, typname) {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`${typname}.fromBytes() takes a Uint8Array (or Buffer)`);
  }
  if (bytes.length !== len) {
    throw new InvalidBinaryRepresentation(
      `invalid binary length for type ${typname}: ${bytes.length} bytes`,
      `A ${typname} is ${len} bytes.`);
  }
  return Uint8Array.from(bytes);
}

/** The n bytes at bytes[from..] as an unsigned big-endian bigint. */
export function loadBE(bytes, from, n) {
  let v = 0n;
  for (let i = from; i < from + n; i++) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/** Writes the low n bytes of v big-endian at out[from..]. */
export function storeBE(out, from, n, v) {
  for (let i = from + n - 1; i >= from; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
}

/** The bytes as lower-case hex. */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The bits 0..width-1 of v in reverse order. */
export function bitReverse(v, width) {
  let r = 0n;
  for (let i = 0n; i < BigInt(width); i++) {
    r = (r << 1n) | ((v >> i) & 1n);
  }
  return r;
}
