"""SQLAlchemy column types for uid's types.

``SnoType``, ``MuidType``, ``SnowflakeSiType``, ``Revts8Type`` and
``Uid60Type`` are TypeDecorators over the PostgreSQL type of the same name:
columns of them hold the value classes, and a comparison such as
``table.c.id >= Sno.boundary(t)`` sends the value as a parameter cast to
the type (``CAST(%(id_1)s AS sno)``), which a btree index on the column
serves; for snowflake_si, revts8 and uid60 an int is taken too, as
``bigint::type`` (``table.c.id == 5``).  They work with SQLAlchemy 1.4 and
2.0, in ``Column(...)`` and in ``mapped_column(...)`` (2.0, with
``Mapped[Sno]`` annotations), with any PostgreSQL driver: values travel as
text, and come back as text or, where a driver adapter of this package is
registered, already as values.

A default made by the server: ``server_default=text("sno_new()")``.
"""
from __future__ import annotations

from typing import Any, Optional, Type

from sqlalchemy import cast
from sqlalchemy.types import TypeDecorator, UserDefinedType

from ._adapt import Reader, reader
from ._types import (DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, Epoch, Muid,
                     Revts8, Sno, SnowflakeSi, Uid60, UidValue)

__all__ = ["SnoType", "MuidType", "SnowflakeSiType", "Revts8Type", "Uid60Type"]


class _SqlType(UserDefinedType):
    """The PostgreSQL type itself, named by the subclass."""

    cache_ok = True
    sql_name = ""

    def get_col_spec(self, **kw: Any) -> str:
        return self.sql_name


class _UidType(TypeDecorator):
    """A column of one of uid's types, holding its value class."""

    cache_ok = True
    impl: Any = _SqlType
    value_class: Type[UidValue] = UidValue

    @property
    def python_type(self) -> Type[UidValue]:
        return self.value_class

    @property
    def _reader(self) -> Reader:
        return reader(self.value_class.type_name)

    def coerce(self, value: Any) -> UidValue:
        """value as the value class: itself, parsed from its text, or for
        snowflake_si, revts8 and uid60 an int as ``bigint::type``."""
        return self._reader.coerce(value)

    def bind_expression(self, bindvalue: Any) -> Any:
        return cast(bindvalue, self.impl)

    def process_bind_param(self, value: Any, dialect: Any) -> Optional[str]:
        return None if value is None else str(self.coerce(value))

    def process_literal_param(self, value: Any, dialect: Any) -> str:
        return "'%s'" % self.coerce(value)

    def process_result_value(self, value: Any, dialect: Any) -> Optional[UidValue]:
        return None if value is None else self.coerce(value)


def _column_type(value_class: Type[UidValue], doc: str) -> Any:
    """The TypeDecorator of value_class, over a UserDefinedType of its name."""
    sql_type = type(value_class.__name__ + "SqlType", (_SqlType,),
                    {"sql_name": value_class.type_name, "cache_ok": True})
    return type(value_class.__name__ + "Type", (_UidType,),
                {"impl": sql_type, "value_class": value_class, "cache_ok": True,
                 "__doc__": doc, "__module__": __name__})


SnoType = _column_type(Sno, "A sno column, holding Sno values.")
MuidType = _column_type(Muid, "A muid column, holding Muid values.")
Revts8Type = _column_type(Revts8, "A revts8 column, holding Revts8 values (time order).")
Uid60Type = _column_type(Uid60, "A uid60 column, holding Uid60 values.")


class SnowflakeSiType(_column_type(SnowflakeSi, "")):  # type: ignore[misc]
    """A snowflake_si column, holding SnowflakeSi values read with the base
    clock and index width given (the server's settings; their defaults by
    default)."""

    cache_ok = True

    def __init__(self, epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                 index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> None:
        super().__init__()
        SnowflakeSi.from_int(0, epoch, index_bits)   # the server's checks
        self.epoch = epoch
        self.index_bits = index_bits

    @property
    def _reader(self) -> Reader:
        return reader("snowflake_si", self.epoch, self.index_bits)

    def coerce(self, value: Any) -> UidValue:
        if isinstance(value, SnowflakeSi):
            return value.with_layout(self.epoch, self.index_bits)
        return super().coerce(value)
