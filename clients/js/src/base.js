/**
 * The two kinds of value class: BytesValue for the fixed-length byte
 * strings (sno, muid: byte order) and Int64Value for the 8-byte integer
 * types (snowflake_si, revts8, uid60: the order of a 64-bit key).  Values
 * are immutable; a class's comparison is the server's default btree order.
 *
 * Internal: the classes are exported from the package's entry point.
 */
import {
  binaryOf, dateOfMicros, int64Arg, loadBE, storeBE,
} from './support.js';

/** Lets the factories call the constructors; users call parse() and the others. */
export const INTERNAL = Symbol('pgkuid.internal');

const inspect = Symbol.for('nodejs.util.inspect.custom');

/** What every value class has. */
export class UidValue {
  /** @type {unknown} the representation: a Uint8Array or a bigint key */
  #rep;

  /** @param {symbol} token @param {unknown} rep */
  constructor(token, rep) {
    if (token !== INTERNAL) {
      throw new TypeError(`use ${new.target.name}.parse(), .fromBytes() or .fromParts()`);
    }
    this.#rep = rep;
    Object.freeze(this);
  }

  /** @protected the representation, for the subclasses */
  get _rep() {
    return this.#rep;
  }

  /**
   * The server's btree order: negative, zero or positive as this sorts
   * before, with or after other (a value of the same class).
   */
  compareTo(other) {
    if (!(other instanceof this.constructor) || other.constructor !== this.constructor) {
      throw new TypeError(`${this.constructor.name} compares only with another ${this.constructor.name}`);
    }
    return this._cmp(other);
  }

  /** Whether other is a value of the same class and equal to this one. */
  equals(other) {
    return other instanceof UidValue && other.constructor === this.constructor &&
      this._cmp(other) === 0;
  }

  /** The server's order, for Array.prototype.sort: `ids.sort(Sno.compare)`. */
  static compare(a, b) {
    return a.compareTo(b);
  }

  /** The Date of the value's time (its millisecond; muid's microseconds are in unixMicros). */
  get timestamp() {
    return dateOfMicros(this.unixMicros);
  }

  /** node-postgres and others serialize a parameter through this: the text form. */
  toPostgres() {
    return this.toString();
  }

  /** The text form, as the server's to_json() writes a value of the type. */
  toJSON() {
    return this.toString();
  }

  [inspect]() {
    return `${this.constructor.name}(${this.toString()})`;
  }
}

/** A fixed-length byte string, ordered as unsigned bytes (memcmp). */
export class BytesValue extends UidValue {
  /** The binary form (the type's send/recv): a copy of the bytes. */
  toBytes() {
    return Uint8Array.from(this._rep);
  }

  _cmp(other) {
    const a = this._rep;
    const b = other._rep;
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
    }
    return 0;
  }

  /**
   * A value from its binary form, checked as the server's receive function
   * checks it (the length: 22P03).
   * @param {Uint8Array} bytes
   */
  static fromBytes(bytes) {
    return new this(INTERNAL, binaryOf(bytes, this.LENGTH, this.typeName));
  }
}

/**
 * An 8-byte type: the representation is a 64-bit key (a bigint in the
 * type's btree order); the wire value (the binary form as a big-endian
 * integer, and the type's cast to bigint) is wireOf(key).  A subclass
 * defines keyOf(wire, binary), which checks a wire value from outside.
 */
export class Int64Value extends UidValue {
  _cmp(other) {
    const a = this._rep;
    const b = other._rep;
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** The wire value: by default the key itself. */
  static wireOf(key) {
    return key;
  }

  /** The binary form (the type's send/recv): 8 bytes, big-endian, as bigint's. */
  toBytes() {
    const out = new Uint8Array(8);
    storeBE(out, 0, 8, this.constructor.wireOf(this._rep));
    return out;
  }

  /** The value as `id::bigint` gives it. */
  toBigInt() {
    return BigInt.asIntN(64, this.constructor.wireOf(this._rep));
  }

  /**
   * A value from its binary form, checked as the server's receive function
   * checks it (22P03).
   * @param {Uint8Array} bytes
   */
  static fromBytes(bytes, ...rest) {
    const wire = BigInt.asIntN(64, loadBE(binaryOf(bytes, 8, this.typeName), 0, 8));
    return this._of(this.keyOf(wire, true), ...rest);
  }

  /**
   * A value from a bigint, as `bigint::<type>` casts it (22003 out of range).
   * @param {bigint | number} value
   */
  static fromBigInt(value, ...rest) {
    return this._of(this.keyOf(int64Arg(value, 'value'), false), ...rest);
  }

  /**
   * The value of a checked key; a subclass whose values carry more (the
   * rest of fromBytes' and fromBigInt's arguments) makes it here.
   * @protected
   */
  static _of(key) {
    return new this(INTERNAL, key);
  }
}
