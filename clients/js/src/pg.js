/**
 * node-postgres (pg) adapter: registerTypes() looks up the OIDs of the
 * uid types in the database and sets type parsers so that query results
 * hold the value classes.  Parameters need nothing: node-postgres
 * serializes a value class through its toPostgres(), the text form.
 *
 * ```js
 * import pg from 'pg';
 * import { registerTypes } from 'pgkuid/pg';
 * const pool = new pg.Pool();
 * await registerTypes(pool);
 * const { rows } = await pool.query('SELECT sno_new() AS id');  // rows[0].id: Sno
 * ```
 *
 * @module pgkuid/pg
 */
import { TYPE_OIDS_SQL, arrayParser, binaryArrayParser, typeOidsOf } from './catalog.js';
import { readers } from './registry.js';

/**
 * Sets the parsers of the five types (and of their arrays) on types, an
 * object with node-postgres's setTypeParser(oid, format, parse): a
 * Client, a TypeOverrides, or pg.types for every client of the process.
 * Text results parse with the classes' parse(), binary results (queries
 * with `binary: true`) with fromBytes(), arrays of either into arrays of
 * the classes (NULL elements null).  (node-postgres's binary results
 * change bytes that are not UTF-8, brianc/node-postgres#3495: the README
 * says to read text.)  snowflake_si values carry
 * options.snowflakeSi ({ epoch, indexBits }: the server's settings).
 * @param {{ setTypeParser(oid: number, format: 'text' | 'binary', parse: (value: any) => unknown): void }} types
 * @param {import('./catalog.js').UidTypeOids} oids from lookupTypeOids()
 * @param {import('./registry.js').UidOptions} [options]
 */
export function setTypeParsers(types, oids, options = {}) {
  for (const [typname, { parse, fromBytes }] of Object.entries(readers(options))) {
    const { oid, arrayOid } = oids[typname];
    types.setTypeParser(oid, 'text', parse);
    types.setTypeParser(oid, 'binary', fromBytes);
    types.setTypeParser(arrayOid, 'text', arrayParser(parse));
    types.setTypeParser(arrayOid, 'binary', binaryArrayParser(fromBytes, typname));
  }
}

/**
 * The OIDs of the five types in the database a client (or a pool) is
 * connected to.
 * @param {{ query(text: string): Promise<{ rows: any[] }> }} queryable
 * @returns {Promise<import('./catalog.js').UidTypeOids>}
 */
export async function lookupTypeOids(queryable) {
  return typeOidsOf((await queryable.query(TYPE_OIDS_SQL)).rows);
}

/**
 * Looks up the types' OIDs and sets their parsers, on target's own types,
 * so that nothing global changes:
 *
 * - a Client: on the client (client.setTypeParser);
 * - a Pool: on the clients it makes from now on (its options.types, over
 *   the types it had), and on the client registerTypes() borrows.  Call it
 *   before the pool's first query: clients made earlier keep their parsers.
 *
 * With options.types (e.g. pg.types, for every client of the process), the
 * parsers go there instead.  options.snowflakeSi ({ epoch, indexBits },
 * the server's uid.snowflake_si_epoch and _index_bits) goes with every
 * snowflake_si value the parsers make.
 * @param {import('pg').Client | import('pg').Pool} target
 * @param {{ types?: { setTypeParser: Function } } & import('./registry.js').UidOptions} [options]
 * @returns {Promise<import('./catalog.js').UidTypeOids>} the OIDs found
 */
export async function registerTypes(target, options = {}) {
  readers(options); // bad options throw before any query
  if (typeof target.setTypeParser === 'function' || options.types) {
    const oids = await lookupTypeOids(target);
    setTypeParsers(options.types ?? target, oids, options);
    return oids;
  }
  if (!target.options || typeof target.connect !== 'function') {
    throw new TypeError('registerTypes() takes a pg Client or Pool');
  }
  const client = await target.connect();
  try {
    const oids = await lookupTypeOids(client);
    setTypeParsers(client, oids, options);
    target.options.types = await poolTypes(target.options.types, oids, options);
    return oids;
  } finally {
    client.release();
  }
}

/**
 * A types object for a pool's new clients: the uid parsers over the types
 * the pool had (pg's own when it had none).
 */
async function poolTypes(previous, oids, options) {
  const base = previous ?? (await import('pg')).default.types;
  const parsers = { text: new Map(), binary: new Map() };
  setTypeParsers({ setTypeParser: (oid, format, parse) => parsers[format].set(oid, parse) }, oids, options);
  return {
    getTypeParser(oid, format = 'text') {
      return parsers[format]?.get(oid) ?? base.getTypeParser(oid, format);
    },
  };
}
