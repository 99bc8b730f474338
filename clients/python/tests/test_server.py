"""The value classes against a server with uid: the same texts, fields,
times, order, binary forms, results and refusals (message, DETAIL, HINT)."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, List, Tuple

import pytest

import pgkuid
from conftest import FIELDS, IDS, REFUSED, require_module, value_of, vector_id

psycopg = require_module("psycopg")
from psycopg.adapt import Dumper  # noqa: E402
from psycopg.pq import Format  # noqa: E402

import pgkuid.psycopg  # noqa: E402

UTC = timezone.utc
Outcome = Tuple[Any, ...]


@pytest.fixture(scope="module")
def conn(server):
    """A connection of its own with the psycopg adapters registered."""
    c = psycopg.connect(autocommit=True, options=server.libpq_options)
    pgkuid.psycopg.register(c)
    yield c
    c.close()


def server_outcome(conn, sql: str, params: List[Any]) -> Outcome:
    """The text of sql's one value, or its error's SQLSTATE, message, DETAIL, HINT."""
    try:
        return ("ok", conn.execute(sql, params).fetchone()[0])
    except psycopg.Error as error:
        d = error.diag
        return (error.sqlstate, d.message_primary, d.message_detail, d.message_hint)


def client_outcome(make: Callable[[], Any]) -> Outcome:
    try:
        return ("ok", str(make()))
    except pgkuid.UidError as error:
        return (error.sqlstate, str(error), error.detail, error.hint)


@pytest.mark.parametrize("v", REFUSED, ids=vector_id)
def test_refused_as_on_server(conn, v):
    """The server refuses the input with the class's SQLSTATE, message, DETAIL and HINT."""
    cls = pgkuid.TYPES[v["type"]]
    expected = server_outcome(conn, "SELECT %%s::%s::text" % v["type"], [v["input"]])
    assert expected[0] != "ok"
    assert client_outcome(lambda: cls.parse(v["input"])) == expected


@pytest.mark.parametrize("v", IDS, ids=vector_id)
def test_vector_as_on_server(conn, v):
    """The server reads the input to the class's text, and its accessors
    (with the vector's base clock and index width) give the class's fields
    and timestamp; the binary forms agree both ways."""
    x = value_of(v)
    t = v["type"]
    text = v["text"] if v["input"].startswith("0x") else v["input"]
    columns: List[str] = []
    params: List[Any] = []
    for f in FIELDS[t] + ["timestamp"]:
        if t == "snowflake_si" and f != "timestamp":
            columns.append("snowflake_si_%s(id, %%s::int)" % f)
            params.append(x.index_bits)
        elif t == "snowflake_si":
            columns.append("snowflake_si_timestamp(id, %s)")
            params.append(x.epoch)
        else:
            columns.append("%s_%s(id)" % (t, f))
    row = conn.execute("SELECT id::text, %s FROM (SELECT %%s::%s AS id) s"
                       % (", ".join(columns), t), params + [text]).fetchone()
    assert list(row) == [str(x)] + [getattr(x, f) for f in FIELDS[t]] + [x.timestamp]

    loaded = conn.cursor(binary=True).execute("SELECT %%t::%s" % t, [text]).fetchone()[0]
    assert loaded == x and bytes(loaded) == bytes(x)
    assert conn.execute("SELECT %b::text", [x]).fetchone()[0] == v["text"]
    if "bigint" in v:
        assert conn.execute("SELECT %%s::%s::bigint" % t, [text]).fetchone()[0] == int(x)
    if "uuid" in v:
        assert conn.execute("SELECT %s::muid::uuid", [text]).fetchone()[0] == x.uuid
    # to_json(): what json.dumps writes with json_default
    assert conn.execute("SELECT to_json(%%s::%s)::text" % t, [text]).fetchone()[0] \
        == json.dumps(x, default=pgkuid.json_default)


@pytest.mark.parametrize("type_name", list(pgkuid.TYPES))
def test_order_as_on_server(conn, type_name):
    """ORDER BY on the server sorts the vectors as sorting the class does."""
    values = [value_of(v) for v in IDS if v["type"] == type_name]
    texts = [r[0] for r in conn.execute(
        "SELECT t FROM unnest(%%s::text[]) t ORDER BY t::%s, t" % type_name,
        [[str(x) for x in values]])]
    assert texts == [str(x) for x in sorted(values, key=lambda x: (x, str(x)))]


class _Raw:
    """Bytes to send as the binary form of a type, unchecked."""

    def __init__(self, data: bytes) -> None:
        self.data = data


@pytest.mark.parametrize("type_name,data", [
    ("sno", bytes(9)), ("muid", bytes(17)), ("snowflake_si", bytes(4)),
    ("snowflake_si", (1 << 53).to_bytes(8, "big")), ("uid60", b"\xff" * 8),
    ("uid60", (1 << 60).to_bytes(8, "big")), ("revts8", bytes.fromhex("000000000000fc00")),
])
def test_binary_refused_as_on_server(server, type_name, data):
    """The server's receive function refuses what from_bytes refuses, in its words."""
    c = psycopg.connect(autocommit=True, options=server.libpq_options)

    class RawDumper(Dumper):
        format = Format.BINARY
        oid = psycopg.types.TypeInfo.fetch(c, type_name).oid

        def dump(self, obj: _Raw) -> bytes:
            return obj.data

    c.adapters.register_dumper(_Raw, RawDumper)
    expected = server_outcome(c, "SELECT %b::text", [_Raw(data)])
    c.close()
    assert expected[0] != "ok"
    assert client_outcome(lambda: pgkuid.TYPES[type_name].from_bytes(data)) == expected


T = datetime(2031, 5, 8, 23, 3, 34, 976543, tzinfo=UTC)
EPOCH_2004 = datetime(2004, 1, 1, tzinfo=UTC)
LONG_AGO = datetime(1960, 1, 1, tzinfo=UTC)
FAR_AHEAD = datetime(2200, 1, 1, tzinfo=UTC)

#: (SQL, its parameters, the same by the classes)
CALLS: List[Tuple[str, List[Any], Callable[[], Any]]] = [
    ("sno_from_parts(%s, %s::int, %s::int, %s::int, %s::int)", [T, 255, 39434, 4147, 1],
     lambda: pgkuid.Sno.from_parts(T, 255, 39434, 4147, 1)),
    ("sno_from_parts(%s, %s::int, %s::int, %s::int)", [T, 256, 0, 0],
     lambda: pgkuid.Sno.from_parts(T, 256, 0, 0)),
    ("sno_from_parts(%s, %s::int, %s::int, %s::int, %s::int)", [T, 0, 0, 0, 2],
     lambda: pgkuid.Sno.from_parts(T, 0, 0, 0, 2)),
    ("sno_from_parts(%s, 0, 0, 0)", [LONG_AGO], lambda: pgkuid.Sno.from_parts(LONG_AGO, 0, 0, 0)),
    ("sno_boundary(%s)", [T], lambda: pgkuid.Sno.boundary(T)),
    ("sno_boundary(%s)", [LONG_AGO], lambda: pgkuid.Sno.boundary(LONG_AGO)),
    ("sno_boundary(%s)", [FAR_AHEAD], lambda: pgkuid.Sno.boundary(FAR_AHEAD)),
    ("muid_from_parts(%s, %s::bigint, %s::int)", [T, 2**44 - 1, -1],
     lambda: pgkuid.Muid.from_parts(T, 2**44 - 1, -1)),
    ("muid_from_parts(%s, %s::bigint)", [T, 2**44], lambda: pgkuid.Muid.from_parts(T, 2**44)),
    ("muid_from_parts(%s, 0)", [FAR_AHEAD], lambda: pgkuid.Muid.from_parts(FAR_AHEAD, 0)),
    ("muid_boundary(%s)", [T], lambda: pgkuid.Muid.boundary(T)),
    ("muid_boundary(%s)", [FAR_AHEAD], lambda: pgkuid.Muid.boundary(FAR_AHEAD)),
    ("snowflake_si_from_parts(%s, %s::int, %s::int)", [T, 31, 255],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 31, 255)),
    ("snowflake_si_from_parts(%s, %s::int, %s::int)", [T, 32, 0],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 32, 0)),
    ("snowflake_si_from_parts(%s, 1, 2, %s, %s::int)", [T, EPOCH_2004, 4],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 1, 2, EPOCH_2004, 4)),
    ("snowflake_si_from_parts(%s, 1, 2, %s, %s::int)", [T, EPOCH_2004, 14],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 1, 2, EPOCH_2004, 14)),
    ("snowflake_si_from_parts(%s, 1, 2, %s, 8)", [T, LONG_AGO],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 1, 2, LONG_AGO)),
    ("snowflake_si_from_parts(%s, 1, 2, %s, 8)", [T, T],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 1, 2, T)),
    # the last base clock, and past it (as text: past a datetime's range)
    ("snowflake_si_from_parts(%s, 1, 2, %s::timestamptz, 8)", [T, "294212-03-08 08:07:07+00"],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 1, 2, 9222272525227000)),
    ("snowflake_si_from_parts(%s, 1, 2, %s::timestamptz, 8)", [T, "294212-03-08 08:07:07.001+00"],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 1, 2, 9222272525227001)),
    ("snowflake_si_from_parts(%s, 1, 2, %s::timestamptz, 8)", [T, "294276-12-31 23:59:59.999+00"],
     lambda: pgkuid.SnowflakeSi.from_parts(T, 1, 2, 9224318015999999)),
    ("snowflake_si_from_parts(%s, 1, 2)", [EPOCH_2004],
     lambda: pgkuid.SnowflakeSi.from_parts(EPOCH_2004, 1, 2)),
    ("snowflake_si_boundary(%s)", [T], lambda: pgkuid.SnowflakeSi.boundary(T)),
    ("snowflake_si_boundary(%s)", [FAR_AHEAD], lambda: pgkuid.SnowflakeSi.boundary(FAR_AHEAD)),
    ("revts8_from_parts(%s, %s::int, %s::int, %s::int)", [T, 63, 63, 15],
     lambda: pgkuid.Revts8.from_parts(T, 63, 63, 15)),
    ("revts8_from_parts(%s, %s::int, %s::int, %s::int)", [T, 0, 0, 16],
     lambda: pgkuid.Revts8.from_parts(T, 0, 0, 16)),
    ("revts8_from_parts(%s, 0, 0, 0)", [LONG_AGO], lambda: pgkuid.Revts8.from_parts(LONG_AGO, 0, 0, 0)),
    ("revts8_boundary(%s)", [T], lambda: pgkuid.Revts8.boundary(T)),
    ("uid60_from_parts(%s, %s::int, %s::int, %s::int)", [T, 511, 1023, 511],
     lambda: pgkuid.Uid60.from_parts(T, 511, 1023, 511)),
    ("uid60_from_parts(%s, %s::int, %s::int, %s::int)", [T, 0, 1024, 0],
     lambda: pgkuid.Uid60.from_parts(T, 0, 1024, 0)),
    ("uid60_from_parts(%s, 0, 0, 0)", [FAR_AHEAD], lambda: pgkuid.Uid60.from_parts(FAR_AHEAD, 0, 0, 0)),
    ("uid60_boundary(%s)", [T + timedelta(microseconds=1)],
     lambda: pgkuid.Uid60.boundary(T + timedelta(microseconds=1))),
    ("uid60_boundary(%s)", [LONG_AGO], lambda: pgkuid.Uid60.boundary(LONG_AGO)),
    ("uid60_boundary(%s)", [FAR_AHEAD], lambda: pgkuid.Uid60.boundary(FAR_AHEAD)),
]


@pytest.mark.parametrize("sql,params,make", CALLS, ids=[c[0] + repr(c[1][1:]) for c in CALLS])
def test_functions_as_on_server(conn, sql, params, make):
    """from_parts() and boundary() give the server's result or its error."""
    assert client_outcome(make) == server_outcome(conn, "SELECT (%s)::text" % sql, params)


def test_snowflake_si_settings_defaults(conn):
    """The classes' defaults are the settings' defaults (this server's)."""
    epoch, bits = conn.execute("SELECT current_setting('uid.snowflake_si_epoch')::timestamptz,"
                               " current_setting('uid.snowflake_si_index_bits')::int").fetchone()
    assert (epoch, bits) == (pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH, pgkuid.DEFAULT_SNOWFLAKE_SI_INDEX_BITS)

