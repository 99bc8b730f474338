"""The asyncpg codecs' round trip (binary format)."""
from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

import pgkuid
from conftest import INT_TYPES, RoundTrip, require_module

asyncpg = require_module("asyncpg")
import pgkuid.asyncpg  # noqa: E402


@pytest.mark.parametrize("type_name", list(pgkuid.TYPES))
def test_round_trip(server, type_name):
    """Rows made by the DEFAULT come back as the class; a boundary sent as
    a $1 parameter (binary) uses the primary key and selects what the
    server's boundary selects."""
    loop = asyncio.new_event_loop()
    run = loop.run_until_complete
    conn = run(asyncpg.connect(server_settings={"search_path": server.search_path,
                                                "TimeZone": "UTC"}))
    try:
        run(pgkuid.asyncpg.register(conn))
        run(conn.execute("SET enable_seqscan = off"))
        table = server.table("asyncpg_%s" % type_name, type_name)
        select = "SELECT id FROM %s WHERE id >= $1" % table

        def ids(sql, *args):
            return [r[0] for r in run(conn.fetch(sql, *args))]

        RoundTrip(
            server, table, type_name,
            insert=lambda n: run(conn.executemany("INSERT INTO %s (n) VALUES ($1)" % table,
                                                  [(i,) for i in range(n)])),
            read_all=lambda: ids("SELECT id FROM %s" % table),
            select_from=lambda b: ids(select, b),
            explain=lambda b: "\n".join(ids("EXPLAIN " + select, b)),
        ).check()
        values = ids("SELECT id FROM %s ORDER BY id" % table)
        assert run(conn.fetchval("SELECT array_agg(id ORDER BY id) FROM %s" % table)) == values
        assert run(conn.fetchval("SELECT $1::%s[]::text[]" % type_name, values)) == \
            [str(v) for v in values]
        if type_name in INT_TYPES:     # an int is bigint::type
            assert run(conn.fetchval("SELECT id FROM %s WHERE id = $1" % table,
                                     int(values[0]))) == values[0]
    finally:
        run(conn.close())
        loop.close()


def test_register_finds_the_extension_s_types(elsewhere_database, bare_database):
    """The types are the extension's, found in its schema off the
    search_path, not the decoy public.sno on it; a database without the
    extension is a clear error."""
    async def check():
        conn = await asyncpg.connect(database=elsewhere_database)
        try:
            await pgkuid.asyncpg.register(conn)
            value = await conn.fetchval("SELECT ids.sno_new()")
            assert type(value) is pgkuid.Sno
            assert await conn.fetchval("SELECT $1::ids.sno", value) == value
            assert await conn.fetchval("SELECT $1::ids.sno::text", str(value)) == str(value)
        finally:
            await conn.close()
        conn = await asyncpg.connect(database=bare_database)
        try:
            with pytest.raises(LookupError, match="CREATE EXTENSION uid"):
                await pgkuid.asyncpg.register(conn)
        finally:
            await conn.close()

    asyncio.run(check())


def test_int_parameters(server):
    """An int parameter of the 8-byte types is bigint::type, in both
    formats, with the server's range check; not of sno."""
    async def check(format):
        conn = await asyncpg.connect(server_settings={"search_path": server.search_path})
        try:
            await pgkuid.asyncpg.register(conn, format=format)
            assert await conn.fetchval("SELECT $1::snowflake_si::text", 5) == "5"
            r = pgkuid.Revts8.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH)
            assert await conn.fetchval("SELECT $1::revts8", int(r)) == r
            u = pgkuid.Uid60.from_int(1 << 40)
            assert await conn.fetchval("SELECT $1::uid60", int(u)) == u
            # the encoder's errors, as asyncpg reports them
            with pytest.raises(asyncpg.DataError, match="out of range for type uid60"):
                await conn.fetchval("SELECT $1::uid60", 1 << 60)
            with pytest.raises(asyncpg.DataError, match="must be a str, not int"):
                await conn.fetchval("SELECT $1::sno", 5)
        finally:
            await conn.close()

    asyncio.run(check("binary"))
    asyncio.run(check("text"))


@pytest.mark.parametrize("format", ["binary", "text"])
def test_copy_records_to_table(server, format):
    """copy_records_to_table() writes every type's values (the class, its
    text, an int for the 8-byte types) in both formats; with text codecs
    they are set again after the COPY, whose asyncpg method alone still
    refuses them; through a pool's connection too."""
    async def check():
        pool = await asyncpg.create_pool(
            min_size=1, max_size=1, server_settings={"search_path": server.search_path},
            init=lambda conn: pgkuid.asyncpg.register(conn, format=format))
        try:
            async with pool.acquire() as conn:
                for type_name, cls in pgkuid.TYPES.items():
                    table = server.table("asyncpg_copy_%s" % type_name, type_name)
                    made = await conn.fetchval("SELECT %s_new()" % type_name)
                    at = [cls.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH + timedelta(days=d))
                          for d in range(3)]
                    records = [(made, 0), (at[0], 1), (str(at[1]), 2)]
                    if type_name in INT_TYPES:
                        records.append((int(at[2]), 3))
                    result = await pgkuid.asyncpg.copy_records_to_table(
                        conn, table, records=records, columns=["id", "n"])
                    assert result == "COPY %d" % len(records)
                    rows = await conn.fetch("SELECT id, id::text AS text FROM %s ORDER BY n"
                                            % table)
                    assert [r["id"] for r in rows] == ([made] + at)[:len(records)]
                    assert [r["text"] for r in rows] == [str(r["id"]) for r in rows]
                    if format == "text":     # the text codecs are back
                        with pytest.raises(asyncpg.InternalClientError, match="binary format"):
                            await conn.copy_records_to_table(table, records=records[:1],
                                                             columns=["id", "n"])
                    # a refused value: the encoder's error (not wrapped by asyncpg's
                    # COPY), and the codecs set back
                    with pytest.raises(pgkuid.InvalidTextRepresentation):
                        await pgkuid.asyncpg.copy_records_to_table(
                            conn, table, records=[("nope", 9)], columns=["id", "n"])
                    assert await conn.fetchval("SELECT $1::%s" % type_name, made) == made
                # a COPY the server refuses in a transaction: its error, not the
                # aborted transaction's of setting the text codecs back
                with pytest.raises(asyncpg.UniqueViolationError):
                    async with conn.transaction():
                        await pgkuid.asyncpg.copy_records_to_table(
                            conn, table, records=[(made, 0)], columns=["id", "n"])
                assert await conn.fetchval("SELECT $1::%s" % type_name, made) == made
        finally:
            await pool.close()

    asyncio.run(check())
