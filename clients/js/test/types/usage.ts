// Compiled (not run) by `npm run typecheck`: the declarations of every entry
// point, used as the README shows, type-check under strict settings.
import { Kysely } from 'kysely';
import pg from 'pg';
import postgres from 'postgres';
import { drizzle } from 'drizzle-orm/node-postgres';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { gte, sql } from 'drizzle-orm';

import {
  InvalidTextRepresentation, Muid, Revts8, Sno, SnowflakeSi, Uid60, UidError, typeOf,
} from 'pgkuid';
import { registerTypes } from 'pgkuid/pg';
import { withUidTypes } from 'pgkuid/postgres';
import { sno, snowflakeSi, uidColumns } from 'pgkuid/drizzle';
import { type SnoColumn, type SnowflakeSiColumn, uidPostgresDialect } from 'pgkuid/kysely';

const a: Sno = Sno.parse('brpk4q72xwf2m63l');
const b = Sno.fromParts(new Date(), 1, 2, 3);
const sorted: Sno[] = [a, b].sort(Sno.compare);
const n: number = SnowflakeSi.parse('42').value;
const micros: bigint = Muid.boundary(1700000000000000n).unixMicros;
const f = SnowflakeSi.parse('8192').fields({ epoch: new Date('2004-01-01Z'), indexBits: 4 });
const machine: number = f.machine;
const carried = SnowflakeSi.parse('8192', { epoch: 1072915200000, indexBits: 4 });
const epoch: Date = carried.withLayout({ indexBits: 5 }).epoch;
const width: number = SnowflakeSi.fromBytes(carried.toBytes(), { epoch: 1072915200000000n }).indexBits;
const big: bigint = Uid60.parse('AAAAAQAAAA').toBigInt();
const order: number = Revts8.compareBytes(Revts8.parse('0000000000000000'), Revts8.boundary(new Date()));
const cls: typeof Muid = typeOf('muid');
try {
  Sno.parse('x');
} catch (e) {
  if (e instanceof UidError) console.log(e.code, e.detail, e instanceof InvalidTextRepresentation);
}

async function drivers(): Promise<void> {
  const pool = new pg.Pool();
  await registerTypes(pool);
  const client = new pg.Client();
  const oids = await registerTypes(client, { snowflakeSi: { epoch: new Date('2004-01-01Z'), indexBits: 4 } });
  console.log(oids.sno.oid);

  const psql = postgres(await withUidTypes({ max: 1, snowflakeSi: { indexBits: 4 } }));
  const rows = await psql`SELECT id FROM t WHERE id >= ${psql.types.sno(Sno.boundary(new Date()))}`;
  console.log(rows.length);

  const things = pgTable('things', {
    id: sno('id').primaryKey().default(sql`sno_new()`),
    other: snowflakeSi('other'),
    layered: uidColumns({ snowflakeSi: { indexBits: 4 } }).snowflakeSi('layered'),
    note: text('note'),
  });
  const db = drizzle(pool);
  const found: { id: Sno; other: SnowflakeSi | null; layered: SnowflakeSi | null; note: string | null }[] =
    await db.select().from(things).where(gte(things.id, Sno.boundary(new Date())));
  console.log(found);

  interface Database {
    things: { id: SnoColumn; other: SnowflakeSiColumn; note: string | null };
  }
  const k = new Kysely<Database>({
    dialect: await uidPostgresDialect(new pg.Pool(), {}, { snowflakeSi: { indexBits: 4 } }),
  });
  await k.insertInto('things').values({ other: SnowflakeSi.parse('1'), note: 'x' }).execute();
  const ids: Sno[] = (await k.selectFrom('things').select('id')
    .where('id', '>=', Sno.boundary(new Date())).execute()).map((r) => r.id);
  console.log(ids);
}

console.log(sorted, n, micros, machine, epoch, width, big, order, cls, drivers);
