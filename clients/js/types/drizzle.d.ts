/** Drizzle ORM adapter: column builders for the uid types. */
import type { customType } from 'drizzle-orm/pg-core';

import type { Muid, Revts8, Sno, SnowflakeSi, Uid60 } from './index.js';

/** A column builder of a type whose values are T (sent to the driver as text). */
export type UidColumnBuilder<T> = ReturnType<typeof customType<{ data: T; driverData: string }>>;

export declare const sno: UidColumnBuilder<Sno>;
export declare const muid: UidColumnBuilder<Muid>;
export declare const snowflakeSi: UidColumnBuilder<SnowflakeSi>;
export declare const revts8: UidColumnBuilder<Revts8>;
export declare const uid60: UidColumnBuilder<Uid60>;
