/** Kysely adapter: a PostgresDialect whose pool parses the uid types, and column types. */
import type { ColumnType, PostgresDialect, PostgresDialectConfig } from 'kysely';
import type { Pool } from 'pg';

import type { Muid, Revts8, Sno, SnowflakeSi, Uid60, UidOptions, UidValue } from './index.js';

/** A Kysely PostgresDialect over pool, with pgkuid/pg's parsers registered on it (under options). */
export declare function uidPostgresDialect(
  pool: Pool,
  config?: Omit<PostgresDialectConfig, 'pool'>,
  options?: UidOptions,
): Promise<PostgresDialect>;

/**
 * A column of a uid type: selected as the class; inserted and updated as
 * the class or its text; optional on insert (a DEFAULT <type>_new()).
 */
export type UidColumn<T extends UidValue> = ColumnType<T, T | string | undefined, T | string>;

export type SnoColumn = UidColumn<Sno>;
export type MuidColumn = UidColumn<Muid>;
export type SnowflakeSiColumn = UidColumn<SnowflakeSi>;
export type Revts8Column = UidColumn<Revts8>;
export type Uid60Column = UidColumn<Uid60>;
