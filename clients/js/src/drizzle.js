/**
 * Drizzle ORM adapter: a column builder per type, made with customType()
 * of drizzle-orm/pg-core.  Its dataType is the SQL type; values go to the
 * driver as text and come back as the value classes, whether the driver
 * hands over text (node-postgres under Drizzle) or values parsed already
 * (postgres.js with pgkuid/postgres's types).
 *
 * ```js
 * import { pgTable } from 'drizzle-orm/pg-core';
 * import { sql } from 'drizzle-orm';
 * import { sno } from 'pgkuid/drizzle';
 * const things = pgTable('things', {
 *   id: sno('id').primaryKey().default(sql`sno_new()`),
 * });
 * ```
 *
 * uidColumns({ snowflakeSi: { epoch, indexBits } }) makes the builders
 * again with the server's snowflake_si settings, which the values read
 * carry.
 *
 * @module pgkuid/drizzle
 */
import { customType } from 'drizzle-orm/pg-core';

import { readers } from './registry.js';

/**
 * The column builders of the five types, under the options: the
 * snowflake_si values read carry options.snowflakeSi.
 * @param {import('./registry.js').UidOptions} [options]
 */
export function uidColumns(options = {}) {
  const columns = {};
  for (const [typname, { of, toText }] of Object.entries(readers(options))) {
    columns[typname] = customType({
      dataType: () => typname,
      toDriver: toText,
      fromDriver: of,
    });
  }
  return {
    sno: columns.sno,
    muid: columns.muid,
    snowflakeSi: columns.snowflake_si,
    revts8: columns.revts8,
    uid60: columns.uid60,
  };
}

const defaults = uidColumns();

/** An sno column: `sno('id')`. */
export const sno = defaults.sno;
/** A muid column: `muid('id')`. */
export const muid = defaults.muid;
/** A snowflake_si column: `snowflakeSi('id')`; its value's number is `.value`. */
export const snowflakeSi = defaults.snowflakeSi;
/** A revts8 column: `revts8('id')`. */
export const revts8 = defaults.revts8;
/** A uid60 column: `uid60('id')`. */
export const uid60 = defaults.uid60;
