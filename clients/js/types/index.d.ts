/**
 * pgkuid: value classes of the uid extension's five ID types (sno, muid,
 * snowflake_si, revts8, uid60), with the server's text and binary forms,
 * fields, btree order and errors.
 */

/** A time argument: a Date, or microseconds since 1970-01-01 UTC as a bigint. */
export type TimeInput = Date | bigint;

/** A boundary's time: a TimeInput, or ±Infinity for timestamptz's 'infinity' and '-infinity'. */
export type BoundaryTime = TimeInput | number;

/** What every value class has. Values are immutable; construct them with the static factories. */
export declare abstract class UidValue {
  protected constructor();
  /** The server's btree order: negative, zero or positive. Throws a TypeError for another class. */
  compareTo(other: this): number;
  /** Whether other is a value of the same class and equal. */
  equals(other: unknown): boolean;
  /** The text form, as the type's output function writes it. */
  toString(): string;
  /** The text form (node-postgres serializes parameters through it). */
  toPostgres(): string;
  /** The text form. */
  toJSON(): string;
  /** The binary form (the type's send/recv). */
  toBytes(): Uint8Array;
  /** The Date of the value's time (its millisecond). */
  get timestamp(): Date;
  /** The value's time in microseconds since 1970-01-01 UTC, as `<type>_timestamp()` gives it. */
  get unixMicros(): bigint;
  /** The server's order, for Array.prototype.sort. */
  static compare<T extends UidValue>(a: T, b: T): number;
}

/** A fixed-length byte string (sno, muid), in byte order. */
export declare abstract class BytesValue extends UidValue {}

/** sno: 10 bytes; text 16 characters of 2-9 and a-x; byte order = time order. */
export declare class Sno extends BytesValue {
  static readonly typeName: 'sno';
  /** Reads text as the input function does (upper case accepted). */
  static parse(text: string): Sno;
  /** Reads the 10-byte binary form. */
  static fromBytes(bytes: Uint8Array): Sno;
  /** As `sno_from_parts(time, meta, partition, sequence, tick)`: time floored to 4 ms. */
  static fromParts(time: TimeInput, meta: number, partition: number, sequence: number, tick?: number): Sno;
  /** As `sno_boundary(time)`: the smallest sno at or after the time. */
  static boundary(time: BoundaryTime): Sno;
  get meta(): number;
  get partition(): number;
  get sequence(): number;
  get tick(): number;
}

/** muid: 16 bytes; text `TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO`; byte order. */
export declare class Muid extends BytesValue {
  static readonly typeName: 'muid';
  /** Reads text as the input function does (either case, the two short forms). */
  static parse(text: string): Muid;
  /** Reads the 16-byte binary form. */
  static fromBytes(bytes: Uint8Array): Muid;
  /** As `muid_from_parts(time, medallion, offset)`: time exact to the microsecond. */
  static fromParts(time: TimeInput, medallion: number | bigint, offset?: number): Muid;
  /** As `muid_boundary(time)`. */
  static boundary(time: BoundaryTime): Muid;
  /** The medallion, 0 .. 2^44 - 1. */
  get medallion(): number;
  /** The offset, a signed 32-bit integer. */
  get offset(): number;
  /** The same 16 bytes as uuid text (`muid::uuid`). */
  toUuid(): string;
}

/** An 8-byte type: binary form and `id::bigint` are a 64-bit integer. */
export declare abstract class Int64Value extends UidValue {
  /** The value as `id::bigint` gives it. */
  toBigInt(): bigint;
}

/** snowflake_si's settings, where the server reads them; a value carries them. */
export interface SnowflakeSiOptions {
  /**
   * The base clock (`uid.snowflake_si_epoch`): a Date, Unix milliseconds (a
   * number) or Unix microseconds (a bigint, as every bigint time here; an int
   * epoch in the Python package is milliseconds). Default 2024-01-01T00:00:00Z.
   */
  epoch?: Date | number | bigint;
  /** The index width k, 1..13 (`uid.snowflake_si_index_bits`). Default 8. */
  indexBits?: number;
}

/** The adapters' options. */
export interface UidOptions {
  /** The server's snowflake_si settings, carried by the snowflake_si values an adapter reads. */
  snowflakeSi?: SnowflakeSiOptions;
}

/** The fields of a snowflake_si under given settings. */
export interface SnowflakeSiFields {
  timestamp: Date;
  unixMicros: bigint;
  machine: number;
  index: number;
}

/** The default base clock, 2024-01-01T00:00:00Z, in Unix milliseconds (`new Date(DEFAULT_EPOCH_MS)`). */
export declare const DEFAULT_EPOCH_MS: 1704067200000;
export declare const DEFAULT_INDEX_BITS: 8;

/**
 * snowflake_si: a 53-bit integer, a JavaScript number; text its decimal
 * digits. A value carries the base clock and index width it was made with
 * (options of the factories, default the settings' defaults) for
 * `timestamp`, `unixMicros`, `machine` and `index`; they take no part in
 * equality and order.
 */
export declare class SnowflakeSi extends Int64Value {
  static readonly typeName: 'snowflake_si';
  /** Reads text as the input function does (white space and leading zeros allowed). */
  static parse(text: string, options?: SnowflakeSiOptions): SnowflakeSi;
  /** Reads the 8-byte binary form (0 .. 2^53 - 1). */
  static fromBytes(bytes: Uint8Array, options?: SnowflakeSiOptions): SnowflakeSi;
  /** As `bigint::snowflake_si`. */
  static fromBigInt(value: bigint | number, options?: SnowflakeSiOptions): SnowflakeSi;
  /** As `bigint::snowflake_si`. */
  static fromNumber(value: number | bigint, options?: SnowflakeSiOptions): SnowflakeSi;
  /** As `snowflake_si_from_parts(time, machine, index[, epoch, index_bits])`. */
  static fromParts(time: TimeInput, machine: number, index: number, options?: SnowflakeSiOptions): SnowflakeSi;
  /** As `snowflake_si_boundary(time)` (reads only the base clock; the width goes with the result). */
  static boundary(time: BoundaryTime, options?: SnowflakeSiOptions): SnowflakeSi;
  /** The ID as a number (exact). */
  get value(): number;
  valueOf(): number;
  /** The base clock the value carries (a new Date each time). */
  get epoch(): Date;
  /** The index width the value carries. */
  get indexBits(): number;
  /** The same ID carrying other settings (those not given: its own). */
  withLayout(options: SnowflakeSiOptions): SnowflakeSi;
  /** The fields under its own settings, or under those given. */
  fields(options?: SnowflakeSiOptions): SnowflakeSiFields;
  /** The machine id under its index width. */
  get machine(): number;
  /** The index under its index width. */
  get index(): number;
}

/** revts8: 8 bytes with a bit-reversed time; compareTo is time order, compareBytes byte order. */
export declare class Revts8 extends Int64Value {
  static readonly typeName: 'revts8';
  static parse(text: string): Revts8;
  static fromBytes(bytes: Uint8Array): Revts8;
  /** As `bigint::revts8` (the bytes as a signed big-endian integer). */
  static fromBigInt(value: bigint | number): Revts8;
  /** As `revts8_from_parts(time, sequence, generator, cluster)`. */
  static fromParts(time: TimeInput, sequence: number, generator: number, cluster: number): Revts8;
  /** As `revts8_boundary(time)`: the smallest ID in time order at or after the time. */
  static boundary(time: BoundaryTime): Revts8;
  /** The order of revts8_bytes_ops (`ORDER BY id USING ~<~`). */
  static compareBytes(a: Revts8, b: Revts8): number;
  get sequence(): number;
  get generator(): number;
  get cluster(): number;
}

/** uid60: a 60-bit integer; text ten base64url characters that look random. */
export declare class Uid60 extends Int64Value {
  static readonly typeName: 'uid60';
  static parse(text: string): Uid60;
  static fromBytes(bytes: Uint8Array): Uid60;
  /** As `bigint::uid60`. */
  static fromBigInt(value: bigint | number): Uid60;
  /** As `uid60_from_parts(time, worker, sequence, random)`. */
  static fromParts(time: TimeInput, worker: number, sequence: number, random: number): Uid60;
  /** As `uid60_boundary(time)`. */
  static boundary(time: BoundaryTime): Uid60;
  get worker(): number;
  get sequence(): number;
  get random(): number;
}

/** The SQL names of the types. */
export type UidTypeName = 'sno' | 'muid' | 'snowflake_si' | 'revts8' | 'uid60';

/** The class of each SQL type name. */
export declare const TYPES: Readonly<{
  sno: typeof Sno;
  muid: typeof Muid;
  snowflake_si: typeof SnowflakeSi;
  revts8: typeof Revts8;
  uid60: typeof Uid60;
}>;

/** The class of an SQL type name; a TypeError for another name. */
export declare function typeOf<N extends UidTypeName>(typname: N): (typeof TYPES)[N];

/** The errors: `code` the SQLSTATE, `message`, `detail` and `hint` the server's. */
export declare class UidError extends Error {
  readonly code: string;
  readonly detail?: string;
  readonly hint?: string;
  constructor(message: string, detail?: string, hint?: string);
}
/** 22P02 */
export declare class InvalidTextRepresentation extends UidError { static readonly code: '22P02'; }
/** 22003 */
export declare class NumericValueOutOfRange extends UidError { static readonly code: '22003'; }
/** 22P03 */
export declare class InvalidBinaryRepresentation extends UidError { static readonly code: '22P03'; }
/** 22008 */
export declare class DatetimeValueOutOfRange extends UidError { static readonly code: '22008'; }
/** 22023 */
export declare class InvalidParameterValue extends UidError { static readonly code: '22023'; }

/** The OIDs of a type and of its array type in one database. */
export interface TypeOids {
  oid: number;
  arrayOid: number;
}
/** The OIDs of the five types in one database. */
export type UidTypeOids = Record<UidTypeName, TypeOids>;
