/**
 * The five types by their SQL names, for the adapters: each type's class.
 * @module pguid/registry
 */
import { Muid } from './muid.js';
import { Revts8 } from './revts8.js';
import { Sno } from './sno.js';
import { SnowflakeSi } from './snowflake_si.js';
import { Uid60 } from './uid60.js';

/** The value class of each SQL type name, in the order of doc/types.md. */
export const TYPES = Object.freeze({
  sno: Sno,
  muid: Muid,
  snowflake_si: SnowflakeSi,
  revts8: Revts8,
  uid60: Uid60,
});

/**
 * The class of an SQL type name, or a TypeError.
 * @param {string} typname
 */
export function typeOf(typname) {
  const cls = Object.hasOwn(TYPES, typname) ? TYPES[typname] : undefined;
  if (!cls) throw new TypeError(`not a uid type: ${typname}`);
  return cls;
}
