/**
 * postgres.js (postgres) adapter.  postgres.js takes custom types as its
 * `types` option, by OID, when the connection is made; the OIDs of the
 * uid types differ from database to database, so they are looked up
 * first.  withUidTypes() does both:
 *
 * ```js
 * import postgres from 'postgres';
 * import { withUidTypes } from 'pgkuid/postgres';
 * const sql = postgres(await withUidTypes({ host: '/run/postgresql' }));
 * const [row] = await sql`SELECT sno_new() AS id`;          // row.id: Sno
 * await sql`SELECT * FROM t WHERE id >= ${Sno.boundary(since)}`;
 * ```
 *
 * Results parse into the value classes (arrays too: postgres.js makes
 * their parsers from the element's); parameters of the types serialize
 * with toString(), and sql.types.sno(x) (likewise each type) types a
 * parameter explicitly.
 *
 * @module pgkuid/postgres
 */
import { TYPE_OIDS_SQL, typeOidsOf } from './catalog.js';
import { readers } from './registry.js';

/**
 * The `types` option of postgres() for the five types under their OIDs:
 * `{ sno: { to, from, serialize, parse }, ... }`.  serialize takes a value
 * of the class or its text; the snowflake_si values parse makes carry
 * options.snowflakeSi ({ epoch, indexBits }: the server's settings).
 * @param {import('./catalog.js').UidTypeOids} oids from lookupTypeOids()
 * @param {import('./registry.js').UidOptions} [options]
 */
export function postgresTypes(oids, options = {}) {
  return Object.fromEntries(Object.entries(readers(options)).map(([typname, { parse, toText }]) => [typname, {
    to: oids[typname].oid,
    from: [oids[typname].oid],
    serialize: toText,
    parse,
  }]));
}

/**
 * The OIDs of the five types, looked up through a postgres.js sql.
 * @param {import('postgres').Sql} sql
 * @returns {Promise<import('./catalog.js').UidTypeOids>}
 */
export async function lookupTypeOids(sql) {
  return typeOidsOf(await sql.unsafe(TYPE_OIDS_SQL));
}

/**
 * postgres.js options with the uid types added to options.types: connects
 * once (with these options, or url and these options) to look up their
 * OIDs, then closes that connection.  options.snowflakeSi ({ epoch,
 * indexBits }, the server's settings) is pgkuid's, not postgres.js's: it
 * goes with the snowflake_si values read, and not into the options
 * returned.
 * @param {import('postgres').Options<any> & import('./registry.js').UidOptions} [options]
 * @param {string} [url] a connection URL, if postgres() is given one
 * @returns {Promise<import('postgres').Options<any>>}
 */
export async function withUidTypes(options = {}, url = undefined) {
  const { snowflakeSi, ...rest } = options;
  readers({ snowflakeSi }); // bad options throw before connecting
  const postgres = (await import('postgres')).default;
  const lookup = { ...rest, max: 1, onnotice: () => {} };
  const sql = url === undefined ? postgres(lookup) : postgres(url, lookup);
  try {
    const oids = await lookupTypeOids(sql);
    return { ...rest, types: { ...rest.types, ...postgresTypes(oids, { snowflakeSi }) } };
  } finally {
    await sql.end();
  }
}
