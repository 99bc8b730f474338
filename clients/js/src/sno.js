/**
 * sno (muyo/sno v1.2.1): 10 bytes, big-endian: the 39-bit count of 4 ms
 * units since 2010-01-01 UTC shifted left by one plus the tick-tock bit,
 * the metabyte, the partition (16 bits) and the sequence (16 bits).  Text:
 * 16 characters of 23456789abcdefghijklmnopqrstuvwx (input also upper
 * case).  See doc/formats.md and src/codec/sno_codec.c.
 */
import { BytesValue, INTERNAL } from './base.js';
import {
  BAD_CHAR, BAD_LENGTH, Refusal, checkField, decodeText, loadBE, storeBE, tickToMicros, timeToTick,
} from './support.js';

const ALPHABET = '23456789abcdefghijklmnopqrstuvwx';
const EXPECTED = '16 characters of 2-9 and a-x';
const LENGTH = 10;
const TEXT_LENGTH = 16;

/** The value of each byte of the text (A-X fold to a-x), or -1. */
const DECODE = new Int8Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) {
  DECODE[ALPHABET.charCodeAt(i)] = i;
  DECODE[ALPHABET.toUpperCase().charCodeAt(i)] = i;
}

/** 4 ms units since 2010-01-01T00:00:00Z, 0 .. 2^39 - 1. */
const CLOCK = {
  typeName: 'sno',
  epochUs: 1262304000000000n,
  tickUs: 4000n,
  tickMax: 2n ** 39n - 1n,
};

/** The 10 bytes of the fields. */
function pack(units, tick, meta, partition, sequence) {
  const out = new Uint8Array(LENGTH);
  storeBE(out, 0, 5, (units << 1n) | BigInt(tick));
  out[5] = meta;
  storeBE(out, 6, 2, BigInt(partition));
  storeBE(out, 8, 2, BigInt(sequence));
  return out;
}

/** An sno ID. */
export class Sno extends BytesValue {
  static typeName = 'sno';
  static LENGTH = LENGTH;

  /**
   * The ID of its text form, as the type's input function reads it.
   * @param {string} text 16 characters of 2-9 and a-x (or A-X)
   * @throws {import('./errors.js').InvalidTextRepresentation}
   */
  static parse(text) {
    return new Sno(INTERNAL, decodeText('sno', text, EXPECTED, (bytes) => {
      if (bytes.length !== TEXT_LENGTH) throw new Refusal(BAD_LENGTH);
      const out = new Uint8Array(LENGTH);
      // 40 bits are exactly 8 characters: each half decodes alone
      for (let half = 0; half < 2; half++) {
        let v = 0n;
        for (let i = 8 * half; i < 8 * half + 8; i++) {
          const d = DECODE[bytes[i]];
          if (d < 0) throw new Refusal(BAD_CHAR, i);
          v = (v << 5n) | BigInt(d);
        }
        storeBE(out, 5 * half, 5, v);
      }
      return out;
    }));
  }

  /** The text form, as the type's output function writes it (lower case). */
  toString() {
    let s = '';
    for (let half = 0; half < 2; half++) {
      const v = loadBE(this._rep, 5 * half, 5);
      for (let i = 7; i >= 0; i--) s += ALPHABET[Number((v >> BigInt(5 * i)) & 31n)];
    }
    return s;
  }

  /** @returns {bigint} the 4 ms units since 2010-01-01 UTC */
  get #units() {
    return loadBE(this._rep, 0, 5) >> 1n;
  }

  /** The microseconds since 1970-01-01 UTC of the start of its 4 ms unit (`sno_timestamp()`). */
  get unixMicros() {
    return tickToMicros(CLOCK, this.#units);
  }

  /** The metabyte, 0..255 (`sno_meta()`). */
  get meta() {
    return this._rep[5];
  }

  /** The partition, 0..65535 (`sno_partition()`). */
  get partition() {
    return Number(loadBE(this._rep, 6, 2));
  }

  /** The sequence, 0..65535 (`sno_sequence()`). */
  get sequence() {
    return Number(loadBE(this._rep, 8, 2));
  }

  /** The tick-tock bit, 0 or 1 (`sno_tick()`). */
  get tick() {
    return this._rep[4] & 1;
  }

  /**
   * The ID of the fields, as `sno_from_parts()` makes it: time floored to
   * 4 ms; a field out of range is 22003, a time out of range 22008.
   * @param {Date | bigint} time a Date or Unix microseconds
   * @param {number} meta 0..255
   * @param {number} partition 0..65535
   * @param {number} sequence 0..65535
   * @param {number} [tick] 0 or 1
   */
  static fromParts(time, meta, partition, sequence, tick = 0) {
    meta = checkField('sno', 'meta', meta, 0, 255);
    partition = checkField('sno', 'partition', partition, 0, 65535);
    sequence = checkField('sno', 'sequence', sequence, 0, 65535);
    tick = checkField('sno', 'tick', tick, 0, 1);
    return new Sno(INTERNAL, pack(timeToTick(CLOCK, time, false), tick, meta, partition, sequence));
  }

  /**
   * The smallest sno at or after the time, as `sno_boundary()`: `id >=
   * Sno.boundary(a) AND id < Sno.boundary(b)` selects the IDs made in [a, b).
   * @param {Date | bigint | number} time a Date, Unix microseconds, or ±Infinity
   */
  static boundary(time) {
    return new Sno(INTERNAL, pack(timeToTick(CLOCK, time, true), 0, 0, 0, 0));
  }
}
