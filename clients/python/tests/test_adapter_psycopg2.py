"""The psycopg2 adapters' round trip."""
from __future__ import annotations

import pytest

import pgkuid
from conftest import RoundTrip, require_module

psycopg2 = require_module("psycopg2")
import pgkuid.psycopg2  # noqa: E402


@pytest.mark.parametrize("type_name", list(pgkuid.TYPES))
def test_round_trip(server, type_name):
    """Rows made by the DEFAULT come back as the class; a boundary sent as
    a parameter (a typed literal) uses the primary key and selects what the
    server's boundary selects."""
    conn = psycopg2.connect("", options=server.libpq_options)
    conn.autocommit = True
    pgkuid.psycopg2.register(conn)
    cur = conn.cursor()
    cur.execute("SET enable_seqscan = off")
    table = server.table("psycopg2_%s" % type_name, type_name)
    select = "SELECT id FROM %s WHERE id >= %%s" % table

    def ids(sql, params=()):
        cur.execute(sql, params)
        return [r[0] for r in cur.fetchall()]

    RoundTrip(
        server, table, type_name,
        insert=lambda n: cur.executemany("INSERT INTO %s (n) VALUES (%%s)" % table,
                                         [(i,) for i in range(n)]),
        read_all=lambda: ids("SELECT id FROM %s" % table),
        select_from=lambda b: ids(select, [b]),
        explain=lambda b: "\n".join(ids("EXPLAIN " + select, [b])),
    ).check()
    cur.execute("SELECT array_agg(id ORDER BY id) FROM %s" % table)
    assert cur.fetchone()[0] == sorted(ids("SELECT id FROM %s" % table))
    conn.close()


def test_register_with_a_cursor_factory(server):
    """A connection whose cursors make dicts (RealDictCursor) registers
    all the same: the lookup uses a plain cursor of its own."""
    import psycopg2.extras
    conn = psycopg2.connect("", options=server.libpq_options,
                            cursor_factory=psycopg2.extras.RealDictCursor)
    conn.autocommit = True
    try:
        assert set(pgkuid.psycopg2.register(conn)) == set(pgkuid.TYPES)
        cur = conn.cursor()
        cur.execute("SELECT sno_new() AS id")
        assert type(cur.fetchone()["id"]) is pgkuid.Sno
    finally:
        conn.close()


def test_register_leaves_an_idle_connection_idle(server):
    """On a connection that is not autocommit, register() ends the
    transaction its lookup opened: the connection is idle after it."""
    conn = psycopg2.connect("", options=server.libpq_options)
    try:
        assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_IDLE
        pgkuid.psycopg2.register(conn)
        assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_IDLE
        # in a transaction, it stays in it (and its work stays)
        cur = conn.cursor()
        cur.execute("CREATE TEMP TABLE kept (n int)")
        pgkuid.psycopg2.register(conn)
        assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_INTRANS
        cur.execute("SELECT count(*) FROM kept")
        assert cur.fetchone() == (0,)
        conn.rollback()
    finally:
        conn.close()


def test_register_on_a_cursor_keeps_its_results(server):
    """register(cursor) adapts that cursor, and does not run the lookup on
    it: what it had fetched is still there."""
    conn = psycopg2.connect("", options=server.libpq_options)
    conn.autocommit = True
    try:
        cur = conn.cursor()
        cur.execute("SELECT n FROM generate_series(1, 3) n")
        assert cur.fetchone() == (1,)
        pgkuid.psycopg2.register(cur)
        assert cur.fetchall() == [(2,), (3,)]
        cur.execute("SELECT uid60_new()")
        assert type(cur.fetchone()[0]) is pgkuid.Uid60
        other = conn.cursor()
        other.execute("SELECT uid60_new()")
        assert type(other.fetchone()[0]) is str
    finally:
        conn.close()


def test_register_finds_the_extension_s_types(elsewhere_database, bare_database):
    """The types are the extension's, found in its schema off the
    search_path, not the decoy public.sno on it, and a value is sent as a
    literal of the qualified type; a database without the extension is a
    clear error."""
    saved = dict(psycopg2.extensions.adapters)     # register_adapter is global
    conn = psycopg2.connect("", dbname=elsewhere_database)
    try:
        oids = pgkuid.psycopg2.register(conn)
        cur = conn.cursor()
        cur.execute("SELECT 'ids.sno'::regtype::oid, 'ids.sno[]'::regtype::oid")
        assert oids["sno"] == cur.fetchone()
        cur.execute("SELECT ids.sno_new()")
        value = cur.fetchone()[0]
        assert type(value) is pgkuid.Sno
        cur.execute("SELECT pg_typeof(%s)::text, %s", [value, value])
        assert cur.fetchone() == ("ids.sno", value)
    finally:
        conn.close()
        psycopg2.extensions.adapters.clear()
        psycopg2.extensions.adapters.update(saved)
    conn = psycopg2.connect("", dbname=bare_database)
    try:
        with pytest.raises(LookupError, match="CREATE EXTENSION uid"):
            pgkuid.psycopg2.register(conn)
        assert conn.get_transaction_status() == psycopg2.extensions.TRANSACTION_STATUS_IDLE
    finally:
        conn.close()
