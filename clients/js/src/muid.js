/**
 * muid (Gink, x5e/gink): 16 bytes, big-endian: the timestamp (52 bits,
 * microseconds since 1970-01-01 UTC), the medallion (44 bits) and the
 * offset (32 bits, two's complement).  Text: upper-case hex in groups of
 * 13, 11 and 8 joined by dashes; input takes either case and leaves out a
 * zero offset, or a zero medallion and offset.  See doc/formats.md and
 * src/codec/muid_codec.c.
 */
import { BytesValue, INTERNAL } from './base.js';
import {
  BAD_CHAR, BAD_LENGTH, BAD_SHAPE, Refusal, checkField, decodeText, hexDigits, hexValue, int32Arg,
  loadBE, readHex, storeBE, tickToMicros, timeToTick, toHex,
} from './support.js';

const EXPECTED = 'hex digits in groups of 13, 11 and 8 joined by dashes ' +
  '(TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups';
const LENGTH = 16;
const GROUP_DIGITS = [13, 11, 8];
const DASH = 0x2d;
const MEDALLION_MAX = 2 ** 44 - 1;

/**
 * Microseconds since 1970-01-01 UTC; the all-ones timestamp (Gink's
 * "global" sentinel) is a value but no time muid_from_parts() takes.
 */
const CLOCK = {
  typeName: 'muid',
  epochUs: 0n,
  tickUs: 1n,
  tickMax: 2n ** 52n - 2n,
};

/** The 16 bytes of the fields. */
function pack(timestamp, medallion, offset) {
  const out = new Uint8Array(LENGTH);
  const med = BigInt(medallion);
  storeBE(out, 0, 8, (timestamp << 12n) | (med >> 32n));
  storeBE(out, 8, 8, ((med & 0xffffffffn) << 32n) | BigInt(offset >>> 0));
  return out;
}

/** A muid ID. */
export class Muid extends BytesValue {
  static typeName = 'muid';
  static LENGTH = LENGTH;

  /**
   * The ID of its text form, as the type's input function reads it.
   * @param {string} text `TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO`, or its first one or two groups
   * @throws {import('./errors.js').InvalidTextRepresentation}
   */
  static parse(text) {
    return new Muid(INTERNAL, decodeText('muid', text, EXPECTED, (bytes) => {
      const groups = { 34: 3, 25: 2, 13: 1 }[bytes.length];
      if (groups === undefined) throw new Refusal(BAD_LENGTH);
      // a dash where a digit belongs means a group of the wrong width
      const badDigit = (pos) => new Refusal(bytes[pos] === DASH ? BAD_SHAPE : BAD_CHAR, pos);
      const values = [0n, 0n, 0n];
      let pos = 0;
      for (let g = 0; g < groups; g++) {
        if (g > 0) {
          if (bytes[pos] !== DASH) {
            throw new Refusal(hexValue(bytes[pos]) >= 0 ? BAD_SHAPE : BAD_CHAR, pos);
          }
          pos++;
        }
        values[g] = readHex(bytes, pos, GROUP_DIGITS[g], badDigit);
        pos += GROUP_DIGITS[g];
      }
      return pack(values[0], values[1], Number(BigInt.asIntN(32, values[2])));
    }));
  }

  /** The text form, as the type's output function writes it (upper case, 34 characters). */
  toString() {
    return `${hexDigits(this.#timestamp, 13, true)}-${hexDigits(this.medallion, 11, true)}-` +
      hexDigits(this.offset, 8, true);
  }

  /** The same 16 bytes as a uuid (`muid::uuid`). */
  toUuid() {
    const h = toHex(this._rep);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** @returns {bigint} the 52-bit timestamp field */
  get #timestamp() {
    return loadBE(this._rep, 0, 8) >> 12n;
  }

  /** Microseconds since 1970-01-01 UTC, exact (`muid_timestamp()`). */
  get unixMicros() {
    return tickToMicros(CLOCK, this.#timestamp);
  }

  /** The medallion, 0 .. 2^44 - 1, as a number (it fits 53 bits) (`muid_medallion()`). */
  get medallion() {
    return Number(loadBE(this._rep, 6, 6) & BigInt(MEDALLION_MAX));
  }

  /** The offset within the transaction, a signed 32-bit integer (`muid_offset()`). */
  get offset() {
    return Number(BigInt.asIntN(32, loadBE(this._rep, 12, 4)));
  }

  /**
   * The ID of the fields, as `muid_from_parts()` makes it: time exact to
   * the microsecond (22008 outside 1970-01-01 .. 2112-09-17 23:53:47.370494
   * UTC), medallion 0 .. 2^44 - 1 (else 22003), any 32-bit offset.
   * @param {Date | bigint} time a Date or Unix microseconds
   * @param {number | bigint} medallion
   * @param {number} [offset]
   */
  static fromParts(time, medallion, offset = 0) {
    offset = int32Arg(offset, 'offset');
    medallion = checkField('muid', 'medallion', medallion, 0, MEDALLION_MAX, true);
    return new Muid(INTERNAL, pack(timeToTick(CLOCK, time, false), medallion, offset));
  }

  /**
   * The smallest muid at or after the time, as `muid_boundary()`.
   * @param {Date | bigint | number} time a Date, Unix microseconds, or ±Infinity
   */
  static boundary(time) {
    return new Muid(INTERNAL, pack(timeToTick(CLOCK, time, true), 0, 0));
  }
}
