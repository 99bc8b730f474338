"""The psycopg 3 adapters' round trip, over the text and the binary protocol."""
from __future__ import annotations

import asyncio

import pytest

import pgkuid
from conftest import RoundTrip, require_module

psycopg = require_module("psycopg")
import pgkuid.psycopg  # noqa: E402


@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
@pytest.mark.parametrize("type_name", list(pgkuid.TYPES))
def test_round_trip(server, type_name, binary):
    """Rows made by the DEFAULT come back as the class (text or binary
    results); a boundary sent as a %t or %b parameter uses the primary key
    and selects what the server's boundary selects."""
    conn = psycopg.connect(autocommit=True, options=server.libpq_options)
    pgkuid.psycopg.register(conn)
    conn.execute("SET enable_seqscan = off")
    table = server.table("psycopg_%s_%s" % ("binary" if binary else "text", type_name), type_name)
    placeholder = "%b" if binary else "%t"
    select = "SELECT id FROM %s WHERE id >= %s" % (table, placeholder)

    def ids(sql, params=()):
        return [r[0] for r in conn.cursor(binary=binary).execute(sql, params)]

    RoundTrip(
        server, table, type_name,
        insert=lambda n: conn.cursor(binary=binary).executemany(
            "INSERT INTO %s (n) VALUES (%%s)" % table, [(i,) for i in range(n)]),
        read_all=lambda: ids("SELECT id FROM %s" % table),
        select_from=lambda b: ids(select, [b]),
        explain=lambda b: "\n".join(ids("EXPLAIN " + select, [b])),
    ).check()
    # %s (binary by default) and arrays too
    values = ids("SELECT id FROM %s ORDER BY id" % table)
    assert conn.execute("SELECT %s::text[]", [values]).fetchone()[0] == [str(v) for v in values]
    assert conn.execute("SELECT array_agg(id ORDER BY id) FROM %s" % table).fetchone()[0] == values
    conn.close()


def test_register_needs_the_extension(bare_database):
    """A database without the extension is a clear error."""
    conn = psycopg.connect(autocommit=True, dbname=bare_database)
    with pytest.raises(LookupError, match="CREATE EXTENSION uid"):
        pgkuid.psycopg.register(conn)
    conn.close()


def test_register_finds_the_extension_s_types(elsewhere_database):
    """The types are the extension's, found in its schema off the
    search_path, not the decoy public.sno on it; a connection that is not
    autocommit is left idle."""
    conn = psycopg.connect(dbname=elsewhere_database)
    try:
        infos = pgkuid.psycopg.register(conn)
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        assert infos["sno"].oid == conn.execute("SELECT 'ids.sno'::regtype::oid").fetchone()[0]
        assert infos["sno"].array_oid == \
            conn.execute("SELECT 'ids.sno[]'::regtype::oid").fetchone()[0]
        value = conn.execute("SELECT ids.sno_new()").fetchone()[0]
        assert type(value) is pgkuid.Sno
        assert conn.execute("SELECT pg_typeof(%s)::text, %t::text", [value, value]).fetchone() \
            == ("ids.sno", str(value))
        assert conn.execute("SELECT ARRAY[ids.uid60_new()]").fetchone()[0][0].__class__ \
            is pgkuid.Uid60
        conn.rollback()
    finally:
        conn.close()

    async def register_async():
        aconn = await psycopg.AsyncConnection.connect(dbname=elsewhere_database)
        try:
            await pgkuid.psycopg.register_async(aconn)
            assert aconn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
            cur = await aconn.execute("SELECT ids.muid_new()")
            return (await cur.fetchone())[0]
        finally:
            await aconn.close()

    assert type(asyncio.run(register_async())) is pgkuid.Muid


def test_register_on_a_cursor_and_globally(server, monkeypatch):
    """register() on a cursor adapts that cursor only; register(None,
    connection=...) every connection made afterwards."""
    conn = psycopg.connect(autocommit=True, options=server.libpq_options)
    cur = conn.cursor()
    pgkuid.psycopg.register(cur)
    assert type(cur.execute("SELECT sno_new()").fetchone()[0]) is pgkuid.Sno
    assert type(conn.execute("SELECT sno_new()").fetchone()[0]) is str
    # a global map of this test's own: new connections copy psycopg.postgres.adapters
    adapters = psycopg.adapt.AdaptersMap(psycopg.adapters)
    monkeypatch.setattr(psycopg, "adapters", adapters)
    monkeypatch.setattr(psycopg.postgres, "adapters", adapters)
    pgkuid.psycopg.register(None, connection=conn)
    other = psycopg.connect(autocommit=True, options=server.libpq_options)
    assert type(other.execute("SELECT uid60_new()").fetchone()[0]) is pgkuid.Uid60
    other.close()
    with pytest.raises(TypeError, match="needs a connection"):
        pgkuid.psycopg.register(None)
    conn.close()
