"""pgkuid: the ID types of the PostgreSQL extension uid, for Python.

Value classes (``Sno``, ``Muid``, ``SnowflakeSi``, ``Revts8``, ``Uid60``)
that parse, format, compare and take apart IDs exactly as the server does,
and adapters for psycopg 3 (``pgkuid.psycopg``), psycopg2 (``pgkuid.psycopg2``),
asyncpg (``pgkuid.asyncpg``), SQLAlchemy (``pgkuid.sqlalchemy``) and Django
(``pgkuid.django``), each importable when its library is installed.
``json.dumps(obj, default=pgkuid.json_default)`` writes the values as text.
"""
from ._core import (DatetimeValueOutOfRange, InvalidBinaryRepresentation,
                    InvalidParameterValue, InvalidTextRepresentation, NumericValueOutOfRange,
                    UidError, UidValue, json_default)
from ._types import (DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, TYPES, Muid,
                     Revts8, Sno, SnowflakeSi, Uid60)

__version__ = "0.1.0"

__all__ = [
    "Sno", "Muid", "SnowflakeSi", "Revts8", "Uid60", "TYPES", "UidValue", "json_default",
    "DEFAULT_SNOWFLAKE_SI_EPOCH", "DEFAULT_SNOWFLAKE_SI_INDEX_BITS",
    "UidError", "InvalidTextRepresentation", "InvalidBinaryRepresentation",
    "NumericValueOutOfRange", "DatetimeValueOutOfRange", "InvalidParameterValue",
]
