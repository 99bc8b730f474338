"""Fixtures and helpers of the tests: the shared vectors, and a server.

The vectors are clients/vectors/vectors.json (or the file named by
UID_VECTORS).  The server is the one the libpq environment (PGHOST, PGPORT,
PGUSER, PGDATABASE, ...) reaches; the tests that need it are skipped, with
the reason, when there is none or it lacks uid, and fail instead when
UID_TEST_REQUIRE_SERVER=1; so do those of a driver that is not installed
(require_module()).  They run in a schema of their own, dropped at
the end, with TimeZone UTC (the server writes times in messages in it).
"""
from __future__ import annotations

import importlib
import json
import os
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import pytest

import pgkuid
from pgkuid._core import from_unix_us

VECTORS = Path(os.environ.get("UID_VECTORS") or
               Path(__file__).resolve().parents[2] / "vectors" / "vectors.json")

#: The fields of each type, named as its SQL accessors (<type>_<field>(id)).
FIELDS: Dict[str, List[str]] = {
    "sno": ["meta", "partition", "sequence", "tick"],
    "muid": ["medallion", "offset"],
    "snowflake_si": ["machine", "index"],
    "revts8": ["sequence", "generator", "cluster"],
    "uid60": ["worker", "sequence", "random"],
}

#: The 8-byte types, whose parameters may be ints (bigint::type).
INT_TYPES = ["snowflake_si", "revts8", "uid60"]

#: How long apart two IDs of a type must be made to differ in time.
TICK = {"sno": 0.004, "muid": 0.000001, "snowflake_si": 0.001, "revts8": 0.001, "uid60": 1.0}


def load_vectors() -> Dict[str, Any]:
    with open(VECTORS, encoding="utf-8") as f:
        return json.load(f)


def vector_id(v: Dict[str, Any]) -> str:
    options = "".join(" --%s %s" % item for item in sorted(v["options"].items()))
    return "%s%s %s" % (v["type"], options, v["input"] or "(empty)")


def layout(v: Dict[str, Any]) -> Dict[str, Any]:
    """A vector's snowflake_si options as arguments of the class."""
    kw: Dict[str, Any] = {}
    epoch = v["options"].get("epoch")
    if epoch is not None:
        kw["epoch"] = int(epoch) if epoch.isdigit() else \
            datetime.fromisoformat(epoch.replace("Z", "+00:00"))
    if "index_bits" in v["options"]:
        kw["index_bits"] = int(v["options"]["index_bits"])
    return kw


def value_of(v: Dict[str, Any]) -> pgkuid.UidValue:
    """A vector's ID, read from its input as the class reads it."""
    cls = pgkuid.TYPES[v["type"]]
    if v["input"].startswith("0x"):
        return cls.from_bytes(bytes.fromhex(v["input"][2:]), **layout(v))
    return cls.parse(v["input"], **layout(v))


def vector_time(v: Dict[str, Any]) -> datetime:
    return from_unix_us(v["unix_us"])


_DATA = load_vectors()
IDS = _DATA["ids"]
REFUSED = _DATA["refused"]


# ---------------------------------------------------------------------------
# the server

@dataclass
class Server:
    """A connection (psycopg 3, autocommit) to a server with uid, and the
    schema the tests work in."""

    conn: Any
    schema: str
    search_path: str
    libpq_options: str      # "-c search_path=... -c TimeZone=UTC" for other drivers

    def execute(self, sql: str, params: Sequence[Any] = ()) -> List[Any]:
        cur = self.conn.execute(sql, params)
        return cur.fetchall() if cur.description else []

    def table(self, name: str, type_name: str) -> str:
        """A new table ``id <type> PRIMARY KEY DEFAULT <type>_new()``."""
        self.execute("DROP TABLE IF EXISTS %s" % name)
        self.execute("CREATE TABLE %s (id %s PRIMARY KEY DEFAULT %s_new(), n int)"
                     % (name, type_name, type_name))
        return name


def _no_server(reason: str) -> None:
    """Skips the test (or, called while a module is imported, the module),
    or fails it when UID_TEST_REQUIRE_SERVER=1."""
    if os.environ.get("UID_TEST_REQUIRE_SERVER") == "1":
        pytest.fail("UID_TEST_REQUIRE_SERVER=1 and " + reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_module(name: str) -> Any:
    """The module name (a driver), imported; when it cannot be, the tests
    of the module calling this at import are skipped, or fail (an error
    collecting them) under UID_TEST_REQUIRE_SERVER=1, unlike
    pytest.importorskip, which always skips."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        _no_server("these tests need %s, which is not importable: %s" % (name, error))


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    try:
        import psycopg
        import psycopg.sql
    except ImportError:
        _no_server("the server tests need psycopg 3 (python3-psycopg)")
    try:
        conn = psycopg.connect(autocommit=True)
    except psycopg.Error as error:
        _no_server("no server reached through the libpq environment (PGHOST=%s PGPORT=%s): %s"
                   % (os.environ.get("PGHOST"), os.environ.get("PGPORT"),
                      str(error).strip()))
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS uid")
    except psycopg.Error as error:
        conn.close()
        _no_server("the server has no extension uid: %s" % str(error).strip())
    ext_schema = conn.execute("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n"
                              " ON n.oid = e.extnamespace WHERE e.extname = 'uid'").fetchone()[0]
    schema = "uid_python_tests_%d" % os.getpid()
    conn.execute("DROP SCHEMA IF EXISTS %s CASCADE" % schema)
    conn.execute("CREATE SCHEMA %s" % schema)
    search_path = "%s, %s" % (schema, psycopg.sql.Identifier(ext_schema).as_string(conn))
    conn.execute("SET search_path = " + search_path)
    conn.execute("SET TimeZone = 'UTC'")
    options = "-c search_path=%s -c TimeZone=UTC" % search_path.replace(" ", "")
    try:
        yield Server(conn, schema, search_path, options)
    finally:
        conn.execute("DROP SCHEMA %s CASCADE" % schema)
        conn.close()


def _database(server: Server, suffix: str, *setup: str) -> Iterator[str]:
    """A database of its own (its name), made from template0 with setup
    run in it, and dropped at the end."""
    import psycopg
    name = "uid_python_tests_%d_%s" % (os.getpid(), suffix)
    force = " WITH (FORCE)" if server.conn.info.server_version >= 130000 else ""
    server.execute("DROP DATABASE IF EXISTS %s%s" % (name, force))
    server.execute("CREATE DATABASE %s TEMPLATE template0" % name)
    try:
        with psycopg.connect(autocommit=True, dbname=name) as conn:
            for sql in setup:
                conn.execute(sql)
        yield name
    finally:
        server.execute("DROP DATABASE IF EXISTS %s%s" % (name, force))


@pytest.fixture(scope="session")
def bare_database(server: Server) -> Iterator[str]:
    """A database without the extension uid."""
    yield from _database(server, "bare")


@pytest.fixture(scope="session")
def elsewhere_database(server: Server) -> Iterator[str]:
    """A database with the extension in the schema ids, which is not on the
    search_path, and a decoy domain public.sno, which is."""
    yield from _database(server, "elsewhere",
                         "CREATE SCHEMA ids", "CREATE EXTENSION uid SCHEMA ids",
                         "CREATE DOMAIN public.sno AS text")


# ---------------------------------------------------------------------------
# the round trip every adapter makes

@dataclass
class RoundTrip:
    """One adapter's round trip over one type's table.

    The adapter inserts rows with the table's DEFAULT (insert(n)), reads
    them back (read_all()), selects those at or after a boundary it sends
    as a parameter (select_from(b)) and explains that query with
    enable_seqscan off (explain(b), the plan's text).  check() compares all
    of it with what the server says through its own functions.
    """

    server: Server
    table: str
    type_name: str
    insert: Callable[[int], None]
    read_all: Callable[[], List[Any]]
    select_from: Callable[[Any], List[Any]]
    explain: Callable[[Any], str]
    boundary_of: Optional[Callable[[datetime], Any]] = None

    def check(self) -> None:
        cls = pgkuid.TYPES[self.type_name]
        pause = max(TICK[self.type_name], 0.01) * 1.2
        self.insert(3)
        time.sleep(pause)
        split = datetime.now(timezone.utc)
        time.sleep(pause)
        self.insert(3)

        values = self.read_all()
        assert len(values) == 6
        assert all(type(v) is cls for v in values), [type(v) for v in values]
        self.compare_with_server(values)

        boundary = (self.boundary_of or cls.boundary)(split)
        plan = self.explain(boundary)
        assert "%s_pkey" % self.table in plan and "Seq Scan" not in plan, plan
        selected = self.select_from(boundary)
        expected = [r[0] for r in self.server.execute(
            "SELECT id::text FROM %s WHERE id >= %s_boundary(%%s)"
            % (self.table, self.type_name), (split,))]
        assert sorted(str(v) for v in selected) == sorted(expected)
        assert len(expected) == 3, "the boundary splits the two batches"

    def compare_with_server(self, values: List[Any]) -> None:
        """Each value's text, fields and timestamp equal the server's, and
        sorting the values gives the server's ORDER BY."""
        fields = FIELDS[self.type_name]
        columns = ", ".join("%s_%s(id)" % (self.type_name, f) for f in fields + ["timestamp"])
        # ORDER BY id alone would name the output column id::text
        rows = self.server.execute("SELECT id::text, %s FROM %s t ORDER BY t.id"
                                   % (columns, self.table))
        by_text = {str(v): v for v in values}
        assert sorted(by_text) == sorted(r[0] for r in rows)
        for text, *expected in rows:
            v = by_text[text]
            assert [getattr(v, f) for f in fields] + [v.timestamp] == expected
        assert [str(v) for v in sorted(values)] == [r[0] for r in rows]
