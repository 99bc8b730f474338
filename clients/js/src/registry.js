/**
 * The five types by their SQL names, for the adapters: each type's class.
 * @module pgkuid/registry
 */
import { Muid } from './muid.js';
import { Revts8 } from './revts8.js';
import { Sno } from './sno.js';
import { SnowflakeSi, checkedLayout } from './snowflake_si.js';
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

/**
 * @typedef {object} UidOptions the adapters' options
 * @property {import('./snowflake_si.js').SnowflakeSiOptions} [snowflakeSi] the server's
 *   uid.snowflake_si_epoch and uid.snowflake_si_index_bits, for the snowflake_si values
 *   an adapter makes (a client cannot read them by itself)
 */

/**
 * How the adapters make each type's values under their options: from
 * text (parse), from the binary form (fromBytes), and from what a driver
 * hands over, text or a value of the class (of); and the text of a
 * parameter, a value of the class or text it checks (toText).  A bad
 * snowflakeSi option throws here, once, not at the first value.
 * @param {UidOptions} [options]
 * @returns {Record<string, { parse(text: string): any, fromBytes(bytes: Uint8Array): any, of(value: unknown): any, toText(value: unknown): string }>}
 */
export function readers(options = {}) {
  const given = options.snowflakeSi;
  const sf = checkedLayout(given);
  return Object.fromEntries(Object.entries(TYPES).map(([typname, cls]) => {
    const opts = cls === SnowflakeSi ? sf : undefined;
    // a snowflake_si made elsewhere takes the layout the options name, if any
    const adopt = cls === SnowflakeSi && given !== undefined ? (id) => id.withLayout(sf) : (id) => id;
    return [typname, {
      parse: (text) => cls.parse(text, opts),
      fromBytes: (bytes) => cls.fromBytes(bytes, opts),
      of: (value) => (value instanceof cls ? adopt(value) : cls.parse(String(value), opts)),
      toText: (value) => (value instanceof cls ? value : cls.parse(String(value))).toString(),
    }];
  }));
}
