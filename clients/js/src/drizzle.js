/**
 * Drizzle ORM adapter: a column builder per type, made with customType()
 * of drizzle-orm/pg-core.  Its dataType is the SQL type; values go to the
 * driver as text and come back as the value classes, whether the driver
 * hands over text (node-postgres under Drizzle) or values parsed already
 * (postgres.js with pguid/postgres's types).
 *
 * ```js
 * import { pgTable } from 'drizzle-orm/pg-core';
 * import { sql } from 'drizzle-orm';
 * import { sno } from 'pguid/drizzle';
 * const things = pgTable('things', {
 *   id: sno('id').primaryKey().default(sql`sno_new()`),
 * });
 * ```
 *
 * @module pguid/drizzle
 */
import { customType } from 'drizzle-orm/pg-core';

import { TYPES } from './registry.js';

/**
 * The value of the class that a driver's value is: the value itself, or
 * what its text parses to.
 */
function valueOf(cls, value) {
  return value instanceof cls ? value : cls.parse(String(value));
}

/** The column builder of a type. */
function columnOf(typname) {
  const cls = TYPES[typname];
  return customType({
    dataType: () => typname,
    toDriver: (value) => valueOf(cls, value).toString(),
    fromDriver: (value) => valueOf(cls, value),
  });
}

/** An sno column: `sno('id')`. */
export const sno = columnOf('sno');
/** A muid column: `muid('id')`. */
export const muid = columnOf('muid');
/** A snowflake_si column: `snowflakeSi('id')`; its value's number is `.value`. */
export const snowflakeSi = columnOf('snowflake_si');
/** A revts8 column: `revts8('id')`. */
export const revts8 = columnOf('revts8');
/** A uid60 column: `uid60('id')`. */
export const uid60 = columnOf('uid60');
