/**
 * Kysely adapter.  Kysely's PostgresDialect runs on a node-postgres pool,
 * so the value classes flow through it as they do through node-postgres:
 * the pool's parsers (pgkuid/pg's registerTypes()) turn results into the
 * classes, and node-postgres serializes parameters of the classes with
 * their toPostgres().  uidPostgresDialect() registers the parsers on a
 * pool and returns the dialect; the column types of the declarations
 * (SnoColumn, ...) type a database interface.
 *
 * ```js
 * import pg from 'pg';
 * import { Kysely } from 'kysely';
 * import { uidPostgresDialect } from 'pgkuid/kysely';
 * const db = new Kysely({ dialect: await uidPostgresDialect(new pg.Pool()) });
 * const rows = await db.selectFrom('things').selectAll()
 *   .where('id', '>=', Sno.boundary(since)).execute();       // rows[i].id: Sno
 * ```
 *
 * @module pgkuid/kysely
 */
import { PostgresDialect } from 'kysely';

import { registerTypes } from './pg.js';

/**
 * A Kysely PostgresDialect over a node-postgres pool on whose clients the
 * uid types' parsers are registered (see pgkuid/pg's registerTypes(): call
 * it before the pool's first query).
 * @param {import('pg').Pool} pool
 * @param {Omit<import('kysely').PostgresDialectConfig, 'pool'>} [config] the dialect's other settings
 * @param {import('./registry.js').UidOptions} [options] pgkuid's: snowflakeSi ({ epoch,
 *   indexBits }, the server's settings) for the snowflake_si values read
 * @returns {Promise<PostgresDialect>}
 */
export async function uidPostgresDialect(pool, config = {}, options = {}) {
  await registerTypes(pool, { snowflakeSi: options.snowflakeSi });
  return new PostgresDialect({ ...config, pool });
}
