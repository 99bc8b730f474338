/** Drizzle ORM adapter: column builders for the uid types. */
import type { customType } from 'drizzle-orm/pg-core';

import type { Muid, Revts8, Sno, SnowflakeSi, Uid60, UidOptions } from './index.js';

/** A column builder of a type whose values are T (sent to the driver as text). */
export type UidColumnBuilder<T> = ReturnType<typeof customType<{ data: T; driverData: string }>>;

export declare const sno: UidColumnBuilder<Sno>;
export declare const muid: UidColumnBuilder<Muid>;
export declare const snowflakeSi: UidColumnBuilder<SnowflakeSi>;
export declare const revts8: UidColumnBuilder<Revts8>;
export declare const uid60: UidColumnBuilder<Uid60>;

/** The five builders again, under the options (snowflake_si values carry options.snowflakeSi). */
export declare function uidColumns(options?: UidOptions): {
  sno: UidColumnBuilder<Sno>;
  muid: UidColumnBuilder<Muid>;
  snowflakeSi: UidColumnBuilder<SnowflakeSi>;
  revts8: UidColumnBuilder<Revts8>;
  uid60: UidColumnBuilder<Uid60>;
};
