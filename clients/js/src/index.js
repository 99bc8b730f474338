/**
 * pgkuid: the value classes of the uid extension's five ID types, with the
 * server's text and binary forms, fields, order and errors.
 *
 * The driver adapters are separate entry points: pgkuid/pg, pgkuid/postgres,
 * pgkuid/drizzle and pgkuid/kysely.
 *
 * @module pgkuid
 */
export { Sno } from './sno.js';
export { Muid } from './muid.js';
export { SnowflakeSi, DEFAULT_EPOCH_MS, DEFAULT_INDEX_BITS } from './snowflake_si.js';
export { Revts8 } from './revts8.js';
export { Uid60 } from './uid60.js';
export { UidValue, BytesValue, Int64Value } from './base.js';
export {
  UidError,
  InvalidTextRepresentation,
  NumericValueOutOfRange,
  InvalidBinaryRepresentation,
  DatetimeValueOutOfRange,
  InvalidParameterValue,
} from './errors.js';
export { TYPES, typeOf } from './registry.js';
