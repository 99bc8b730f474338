/**
 * revts8 (LableOrg/java-uniqueid): 8 bytes, big-endian: the 42-bit
 * millisecond timestamp bit-reversed into bits 63..22, the sequence (6
 * bits), 6 reserved zero bits, the generator (6 bits) and the cluster (4
 * bits).  Text: the 16 lower-case hex digits of the bytes (either case on
 * input).  See doc/formats.md and src/codec/revts8_codec.c.
 *
 * The bytes are not in time order; the server's default btree order is
 * time order (timestamp, sequence, generator, cluster), and so is this
 * class's compareTo().  The order of the bytes (operator class
 * revts8_bytes_ops) is Revts8.compareBytes().
 */
import { INTERNAL, Int64Value } from './base.js';
import { InvalidBinaryRepresentation, NumericValueOutOfRange } from './errors.js';
import {
  BAD_LENGTH, BAD_RESERVED, Refusal, bitReverse, checkField, decodeText, hexDigits,
  readHex, tickToMicros, timeToTick,
} from './support.js';

const EXPECTED = '16 hexadecimal digits with bits 15 to 10 clear';
const LOW_BITS = 22n;
const LOW_MASK = (1n << LOW_BITS) - 1n;
const RESERVED_MASK = 0xfc00n;

/** Milliseconds since 1970-01-01 UTC, 42 bits. */
const CLOCK = {
  typeName: 'revts8',
  epochUs: 0n,
  tickUs: 1000n,
  tickMax: 2n ** 42n - 1n,
};

/**
 * Turns the bytes (as a big-endian integer) into the time-ordered key and
 * back: the 42 bits above LOW_BITS reversed, the rest as they are.
 */
const reverseTime = (v) => (bitReverse(v >> LOW_BITS, 42) << LOW_BITS) | (v & LOW_MASK);

/** A revts8 ID. */
export class Revts8 extends Int64Value {
  static typeName = 'revts8';

  /** The bytes, as an unsigned big-endian integer, of a key. */
  static wireOf(key) {
    return reverseTime(key);
  }

  /** Checks the bytes from outside: the reserved bits must be clear. */
  static keyOf(wire, binary) {
    const canonical = BigInt.asUintN(64, wire);
    if (canonical & RESERVED_MASK) {
      const Err = binary ? InvalidBinaryRepresentation : NumericValueOutOfRange;
      throw new Err(
        `invalid ${binary ? 'binary' : 'bigint'} value for type revts8: reserved bits are set`,
        `Bits 15 to 10 of a revts8 must be zero; the value is ${hexDigits(canonical, 16)}.`);
    }
    return reverseTime(canonical);
  }

  /**
   * The ID of its text form, as the type's input function reads it.
   * @param {string} text 16 hex digits, bits 15 to 10 clear
   * @throws {import('./errors.js').InvalidTextRepresentation}
   */
  static parse(text) {
    return new Revts8(INTERNAL, decodeText('revts8', text, EXPECTED, (bytes) => {
      if (bytes.length !== 16) throw new Refusal(BAD_LENGTH);
      const canonical = readHex(bytes, 0, 16);
      if (canonical & RESERVED_MASK) throw new Refusal(BAD_RESERVED);
      return reverseTime(canonical);
    }));
  }

  /** The text form: the 16 lower-case hex digits of the bytes. */
  toString() {
    return hexDigits(Revts8.wireOf(this._rep), 16);
  }

  /** Microseconds since 1970-01-01 UTC of its millisecond (`revts8_timestamp()`). */
  get unixMicros() {
    return tickToMicros(CLOCK, this._rep >> LOW_BITS);
  }

  /** The sequence, 0..63 (`revts8_sequence()`). */
  get sequence() {
    return Number((this._rep >> 16n) & 63n);
  }

  /** The generator, 0..63 (`revts8_generator()`). */
  get generator() {
    return Number((this._rep >> 4n) & 63n);
  }

  /** The cluster, 0..15 (`revts8_cluster()`). */
  get cluster() {
    return Number(this._rep & 15n);
  }

  /**
   * The order of the bytes (the operator class revts8_bytes_ops, `ORDER BY
   * id USING ~<~`), for Array.prototype.sort.
   */
  static compareBytes(a, b) {
    a.compareTo(b); // the same class, or a TypeError
    const x = Revts8.wireOf(a._rep);
    const y = Revts8.wireOf(b._rep);
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /**
   * The ID of the fields, as `revts8_from_parts()` makes it: time floored
   * to the millisecond; a field out of range is 22003, a time out of range
   * 22008.
   * @param {Date | bigint} time a Date or Unix microseconds
   * @param {number} sequence 0..63
   * @param {number} generator 0..63
   * @param {number} cluster 0..15
   */
  static fromParts(time, sequence, generator, cluster) {
    sequence = checkField('revts8', 'sequence', sequence, 0, 63);
    generator = checkField('revts8', 'generator', generator, 0, 63);
    cluster = checkField('revts8', 'cluster', cluster, 0, 15);
    const ts = timeToTick(CLOCK, time, false);
    return new Revts8(INTERNAL, (ts << LOW_BITS) | BigInt((sequence << 16) | (generator << 4) | cluster));
  }

  /**
   * The smallest ID in time order at or after the time, as `revts8_boundary()`.
   * @param {Date | bigint | number} time a Date, Unix microseconds, or ±Infinity
   */
  static boundary(time) {
    return new Revts8(INTERNAL, timeToTick(CLOCK, time, true) << LOW_BITS);
  }
}
