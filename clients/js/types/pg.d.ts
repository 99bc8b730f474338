/** node-postgres adapter: type parsers for the uid types. */
import type { UidOptions, UidTypeOids } from './index.js';

export type { UidOptions, UidTypeOids } from './index.js';

/** An object with node-postgres's setTypeParser: a Client, a TypeOverrides, pg.types. */
export interface TypeParserTarget {
  setTypeParser(oid: number, format: 'text' | 'binary', parse: (value: any) => unknown): void;
}

/** Something with node-postgres's query(). */
export interface Queryable {
  query(text: string): Promise<{ rows: any[] }>;
}

/** Sets the text, binary and array parsers of the five types on types. */
export declare function setTypeParsers(types: TypeParserTarget, oids: UidTypeOids, options?: UidOptions): void;

/** The OIDs of the five types in the connected database. */
export declare function lookupTypeOids(queryable: Queryable): Promise<UidTypeOids>;

/**
 * Looks up the OIDs and sets the parsers on a Client, or on the clients a
 * Pool makes (call before the pool's first query), or on options.types.
 */
export declare function registerTypes(
  target: import('pg').Client | import('pg').Pool | import('pg').PoolClient | (Queryable & Partial<TypeParserTarget>),
  options?: { types?: TypeParserTarget } & UidOptions,
): Promise<UidTypeOids>;
