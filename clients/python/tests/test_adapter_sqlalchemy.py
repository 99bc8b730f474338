"""The SQLAlchemy column types' round trip (over psycopg2, SQLAlchemy 1.4's
PostgreSQL driver here; the types use nothing of 2.0's or 1.4's alone)."""
from __future__ import annotations

from typing import Any, List

import pytest

import pgkuid
from conftest import INT_TYPES, RoundTrip, require_module

sa = require_module("sqlalchemy")
require_module("psycopg2")
import pgkuid.sqlalchemy  # noqa: E402

COLUMN_TYPES = {cls.type_name: getattr(pgkuid.sqlalchemy, cls.__name__ + "Type")
                for cls in pgkuid.TYPES.values()}


@pytest.mark.parametrize("type_name", list(pgkuid.TYPES))
def test_round_trip(server, type_name):
    """A Table with Column(<Type>Type(), primary_key=True,
    server_default=text("<type>_new()")): rows made by the DEFAULT come back
    as the class; ``table.c.id >= boundary`` uses the primary key (EXPLAIN
    of the very statement and parameters sent) and selects what the
    server's boundary selects."""
    engine = sa.create_engine("postgresql+psycopg2://", future=True,
                              connect_args={"options": server.libpq_options},
                              isolation_level="AUTOCOMMIT")
    plans: List[str] = []

    @sa.event.listens_for(engine, "before_cursor_execute", retval=True)
    def explain_too(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any,
                    executemany: bool) -> Any:
        if context.execution_options.get("explain"):
            cursor.execute("EXPLAIN " + statement, parameters)
            plans.append("\n".join(r[0] for r in cursor.fetchall()))
        return statement, parameters

    table = sa.Table("sqlalchemy_%s" % type_name, sa.MetaData(),
                     sa.Column("id", COLUMN_TYPES[type_name](), primary_key=True,
                               server_default=sa.text("%s_new()" % type_name)),
                     sa.Column("n", sa.Integer))
    with engine.connect() as conn:
        table.drop(conn, checkfirst=True)
        table.create(conn)
        conn.exec_driver_sql("SET enable_seqscan = off")

        def explain(boundary: Any) -> str:
            conn.execution_options(explain=True).execute(
                sa.select(table.c.id).where(table.c.id >= boundary)).all()
            return plans.pop()

        RoundTrip(
            server, table.name, type_name,
            insert=lambda n: conn.execute(table.insert(), [{"n": i} for i in range(n)]),
            read_all=lambda: conn.execute(sa.select(table.c.id)).scalars().all(),
            select_from=lambda b: conn.execute(
                sa.select(table.c.id).where(table.c.id >= b)).scalars().all(),
            explain=explain,
        ).check()
        # the type's order and a value from text in a comparison
        ordered = conn.execute(sa.select(table.c.id).order_by(table.c.id)).scalars().all()
        assert ordered == sorted(ordered)
        first = str(ordered[0])
        assert conn.execute(sa.select(table.c.id).where(table.c.id == first)).scalar_one() \
            == ordered[0]
        if type_name in INT_TYPES:     # an int is bigint::type
            assert conn.execute(sa.select(table.c.id).where(
                table.c.id == int(ordered[0]))).scalar_one() == ordered[0]
    engine.dispose()


def test_column_type():
    """DDL names the type; the Python type is the class; literals render."""
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateTable

    table = sa.Table("t", sa.MetaData(), sa.Column("id", pgkuid.sqlalchemy.SnoType()),
                     sa.Column("s", pgkuid.sqlalchemy.SnowflakeSiType(index_bits=4)))
    ddl = str(CreateTable(table).compile(dialect=postgresql.dialect()))
    assert "id sno" in ddl and "s snowflake_si" in ddl
    assert pgkuid.sqlalchemy.SnoType().python_type is pgkuid.Sno
    b = pgkuid.Sno.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH)
    sql = str(sa.select(table.c.id).where(table.c.id >= b).compile(
        dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}))
    assert "CAST('%s' AS sno)" % b in sql
    value = table.c.s.type.process_result_value("4097", None)
    assert (value.index_bits, value.machine, value.index) == (4, 256, 1)


def test_int_parameters():
    """An int is a value of the 8-byte types (bigint::type), in
    comparisons and literals; not of sno and muid."""
    from sqlalchemy.dialects import postgresql

    table = sa.Table("t", sa.MetaData(), sa.Column("s", pgkuid.sqlalchemy.SnowflakeSiType()),
                     sa.Column("r", pgkuid.sqlalchemy.Revts8Type()),
                     sa.Column("u", pgkuid.sqlalchemy.Uid60Type()),
                     sa.Column("id", pgkuid.sqlalchemy.SnoType()))
    u = pgkuid.Uid60.from_int(1 << 40)
    r = pgkuid.Revts8.boundary(pgkuid.DEFAULT_SNOWFLAKE_SI_EPOCH)
    sql = str(sa.select(table.c.s).where(table.c.s == 5, table.c.u == int(u),
                                          table.c.r == int(r)).compile(
        dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}))
    assert "CAST('5' AS snowflake_si)" in sql
    assert "CAST('%s' AS uid60)" % u in sql
    assert "CAST('%s' AS revts8)" % r in sql
    value = pgkuid.sqlalchemy.SnowflakeSiType(index_bits=4).coerce(4097)
    assert (value, value.index_bits, value.machine) == (pgkuid.SnowflakeSi.from_int(4097), 4, 256)
    assert pgkuid.sqlalchemy.SnowflakeSiType().process_bind_param(5, None) == "5"
    with pytest.raises(pgkuid.NumericValueOutOfRange):
        pgkuid.sqlalchemy.SnowflakeSiType().coerce(-1)
    with pytest.raises(TypeError):
        pgkuid.sqlalchemy.SnoType().coerce(5)
    with pytest.raises(TypeError):
        pgkuid.sqlalchemy.Uid60Type().coerce(True)
