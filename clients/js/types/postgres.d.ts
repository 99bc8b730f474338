/** postgres.js adapter: the `types` option for the uid types. */
import type { Options, PostgresType, Sql } from 'postgres';

import type { Muid, Revts8, Sno, SnowflakeSi, Uid60, UidOptions, UidTypeOids } from './index.js';

export type { UidOptions, UidTypeOids } from './index.js';

/** The `types` entries of the five types. */
export interface UidPostgresTypes {
  sno: PostgresType<Sno>;
  muid: PostgresType<Muid>;
  snowflake_si: PostgresType<SnowflakeSi>;
  revts8: PostgresType<Revts8>;
  uid60: PostgresType<Uid60>;
}

/** The `types` option entries for known OIDs. */
export declare function postgresTypes(oids: UidTypeOids, options?: UidOptions): UidPostgresTypes;

/** The OIDs of the five types, through a postgres.js sql. */
export declare function lookupTypeOids(sql: Sql<any>): Promise<UidTypeOids>;

/**
 * options with the uid types added to options.types (connects once to look up
 * the OIDs); options.snowflakeSi is pgkuid's, left out of the result.
 */
export declare function withUidTypes<T extends Record<string, PostgresType>>(
  options?: Options<T> & UidOptions,
  url?: string,
): Promise<Options<T & UidPostgresTypes>>;
