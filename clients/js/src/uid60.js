/**
 * uid60 (abyss-club/uexky's "Unique ID Generator Design", 2019): a 60-bit
 * non-negative integer `n = ts << 28 | worker << 19 | seq << 9 | rand`,
 * with ts the seconds since 2018-03-01 UTC.  Text: ten characters of the
 * base64url alphabet over n with its 32 timestamp bits reversed, made to
 * look random (so text order is not time order).  See doc/formats.md and
 * src/codec/uid60_codec.c.
 */
import { INTERNAL, Int64Value } from './base.js';
import {
  BAD_CHAR, BAD_LENGTH, Refusal, bitReverse, checkField, checkRange, decodeText, tickToMicros,
  timeToTick,
} from './support.js';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const EXPECTED = '10 characters of A-Z, a-z, 0-9, - and _';
const MAX = 2n ** 60n - 1n;
const LOW_BITS = 28n;
const LOW_MASK = (1n << LOW_BITS) - 1n;

/** The value of each byte of the text, or -1. */
const DECODE = new Int8Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Seconds since 2018-03-01T00:00:00Z, 32 bits. */
const CLOCK = {
  typeName: 'uid60',
  epochUs: 1519862400000000n,
  tickUs: 1000000n,
  tickMax: 2n ** 32n - 1n,
};

/** n and its display form, each of the other: the timestamp's 32 bits reversed. */
const display = (n) => (bitReverse(n >> LOW_BITS, 32) << LOW_BITS) | (n & LOW_MASK);

/** A uid60 ID. */
export class Uid60 extends Int64Value {
  static typeName = 'uid60';

  /** Checks a 64-bit value from outside: 0 .. 2^60 - 1. */
  static keyOf(wire, binary) {
    return checkRange('uid60', wire, MAX, binary);
  }

  /**
   * The ID of its text form, as the type's input function reads it.
   * @param {string} text exactly 10 characters of A-Z, a-z, 0-9, - and _ (case-sensitive)
   * @throws {import('./errors.js').InvalidTextRepresentation}
   */
  static parse(text) {
    return new Uid60(INTERNAL, decodeText('uid60', text, EXPECTED, (bytes) => {
      if (bytes.length !== 10) throw new Refusal(BAD_LENGTH);
      let m = 0n;
      for (let i = 0; i < 10; i++) {
        const d = DECODE[bytes[i]];
        if (d < 0) throw new Refusal(BAD_CHAR, i);
        m = (m << 6n) | BigInt(d);
      }
      return display(m);
    }));
  }

  /** The text form: the ten characters of the display form. */
  toString() {
    const m = display(this._rep);
    let s = '';
    for (let i = 9; i >= 0; i--) s += ALPHABET[Number((m >> BigInt(6 * i)) & 63n)];
    return s;
  }

  /** Microseconds since 1970-01-01 UTC of its second (`uid60_timestamp()`). */
  get unixMicros() {
    return tickToMicros(CLOCK, this._rep >> LOW_BITS);
  }

  /** The worker, 0..511 (`uid60_worker()`). */
  get worker() {
    return Number((this._rep >> 19n) & 511n);
  }

  /** The sequence, 0..1023 (`uid60_sequence()`). */
  get sequence() {
    return Number((this._rep >> 9n) & 1023n);
  }

  /** The random bits, 0..511 (`uid60_random()`). */
  get random() {
    return Number(this._rep & 511n);
  }

  /**
   * The ID of the fields, as `uid60_from_parts()` makes it: time floored to
   * the second; a field out of range is 22003, a time out of range 22008.
   * @param {Date | bigint} time a Date or Unix microseconds
   * @param {number} worker 0..511
   * @param {number} sequence 0..1023
   * @param {number} random 0..511
   */
  static fromParts(time, worker, sequence, random) {
    worker = checkField('uid60', 'worker', worker, 0, 511);
    sequence = checkField('uid60', 'sequence', sequence, 0, 1023);
    random = checkField('uid60', 'random', random, 0, 511);
    const ts = timeToTick(CLOCK, time, false);
    return new Uid60(INTERNAL, (ts << LOW_BITS) | BigInt((worker << 19) | (sequence << 9) | random));
  }

  /**
   * The smallest ID at or after the time, as `uid60_boundary()`.
   * @param {Date | bigint | number} time a Date, Unix microseconds, or ±Infinity
   */
  static boundary(time) {
    return new Uid60(INTERNAL, timeToTick(CLOCK, time, true) << LOW_BITS);
  }
}
