"""The psycopg 3 adapters' round trip, over the text and the binary protocol."""
from __future__ import annotations

import pytest

import uid
from conftest import RoundTrip, require_module

psycopg = require_module("psycopg")
import uid.psycopg  # noqa: E402


@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
@pytest.mark.parametrize("type_name", list(uid.TYPES))
def test_round_trip(server, type_name, binary):
    """Rows made by the DEFAULT come back as the class (text or binary
    results); a boundary sent as a %t or %b parameter uses the primary key
    and selects what the server's boundary selects."""
    conn = psycopg.connect(autocommit=True, options=server.libpq_options)
    uid.psycopg.register(conn)
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


def test_register_needs_the_extension(server):
    """A type that is not there is a clear error."""
    conn = psycopg.connect(autocommit=True, options="-c search_path=pg_catalog")
    with pytest.raises(LookupError, match="CREATE EXTENSION uid"):
        uid.psycopg.register(conn)
    conn.close()


def test_register_on_a_cursor_and_globally(server, monkeypatch):
    """register() on a cursor adapts that cursor only; register(None,
    connection=...) every connection made afterwards."""
    conn = psycopg.connect(autocommit=True, options=server.libpq_options)
    cur = conn.cursor()
    uid.psycopg.register(cur)
    assert type(cur.execute("SELECT sno_new()").fetchone()[0]) is uid.Sno
    assert type(conn.execute("SELECT sno_new()").fetchone()[0]) is str
    # a global map of this test's own: new connections copy psycopg.postgres.adapters
    adapters = psycopg.adapt.AdaptersMap(psycopg.adapters)
    monkeypatch.setattr(psycopg, "adapters", adapters)
    monkeypatch.setattr(psycopg.postgres, "adapters", adapters)
    uid.psycopg.register(None, connection=conn)
    other = psycopg.connect(autocommit=True, options=server.libpq_options)
    assert type(other.execute("SELECT uid60_new()").fetchone()[0]) is uid.Uid60
    other.close()
    with pytest.raises(TypeError, match="needs a connection"):
        uid.psycopg.register(None)
    conn.close()
