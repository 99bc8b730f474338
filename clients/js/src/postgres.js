/**
 * postgres.js (postgres) adapter.  postgres.js takes custom types as its
 * `types` option, by OID, when the connection is made; the OIDs of the
 * uid types differ from database to database, so they are looked up
 * first.  withUidTypes() does both:
 *
 * ```js
 * import postgres from 'postgres';
 * import { withUidTypes } from 'pguid/postgres';
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
 * @module pguid/postgres
 */
import { TYPE_OIDS_SQL, typeOidsOf } from './catalog.js';
import { TYPES } from './registry.js';

/**
 * The `types` option of postgres() for the five types under their OIDs:
 * `{ sno: { to, from, serialize, parse }, ... }`.  serialize takes a value
 * of the class or its text.
 * @param {import('./catalog.js').UidTypeOids} oids from lookupTypeOids()
 */
export function postgresTypes(oids) {
  return Object.fromEntries(Object.entries(TYPES).map(([typname, cls]) => [typname, {
    to: oids[typname].oid,
    from: [oids[typname].oid],
    serialize: (value) => (value instanceof cls ? value : cls.parse(String(value))).toString(),
    parse: (text) => cls.parse(text),
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
 * OIDs, then closes that connection.
 * @param {import('postgres').Options<any>} [options]
 * @param {string} [url] a connection URL, if postgres() is given one
 * @returns {Promise<import('postgres').Options<any>>}
 */
export async function withUidTypes(options = {}, url = undefined) {
  const postgres = (await import('postgres')).default;
  const lookup = { ...options, max: 1, onnotice: () => {} };
  const sql = url === undefined ? postgres(lookup) : postgres(url, lookup);
  try {
    const oids = await lookupTypeOids(sql);
    return { ...options, types: { ...options.types, ...postgresTypes(oids) } };
  } finally {
    await sql.end();
  }
}
