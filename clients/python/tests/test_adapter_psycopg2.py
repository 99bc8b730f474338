"""The psycopg2 adapters' round trip."""
from __future__ import annotations

import pytest

import uid
from conftest import RoundTrip, require_module

psycopg2 = require_module("psycopg2")
import uid.psycopg2  # noqa: E402


@pytest.mark.parametrize("type_name", list(uid.TYPES))
def test_round_trip(server, type_name):
    """Rows made by the DEFAULT come back as the class; a boundary sent as
    a parameter (a typed literal) uses the primary key and selects what the
    server's boundary selects."""
    conn = psycopg2.connect("", options=server.libpq_options)
    conn.autocommit = True
    uid.psycopg2.register(conn)
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
