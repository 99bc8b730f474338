"""asyncpg codecs for uid's types.

``await register(conn)`` sets a codec for each type (``set_type_codec``),
in the binary format by default, so that results come back as the value
classes and parameters of those types take them (or their text, or for
snowflake_si, revts8 and uid60 an int, as ``bigint::type``).  Use it as
a pool's ``init`` to have it on every connection of the pool.

asyncpg's ``copy_records_to_table()`` sends binary COPY and takes no text
codec: on a connection registered with ``format="text"``, use this module's
``copy_records_to_table(conn, ...)``, which gives the types their binary
codecs for the COPY and the text ones back after it.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Dict, Iterable, Optional

import asyncpg
import asyncpg.pool

from ._adapt import TYPES_SQL, CatalogType, Reader, catalog_types, readers
from ._types import DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, Epoch

__all__ = ["register", "copy_records_to_table"]


@dataclass
class _Registration:
    """What register() set on a connection, to set again in another format."""

    readers: Dict[str, Reader]
    found: Dict[str, CatalogType]
    format: str


#: register()'s codecs, by connection
_registrations: "weakref.WeakKeyDictionary[Any, _Registration]" = weakref.WeakKeyDictionary()


def _connection(conn: Any) -> Any:
    """The asyncpg Connection behind conn (a pool's proxy holds one)."""
    if isinstance(conn, asyncpg.pool.PoolConnectionProxy):
        return conn._con
    return conn


def _encoder(reader: Reader, binary: bool) -> Any:
    def encode(value: Any) -> Any:
        value = reader.coerce(value)
        return value.to_bytes() if binary else str(value)
    return encode


async def register(conn: asyncpg.Connection, *, types: Optional[Iterable[str]] = None,
                   format: str = "binary",
                   snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                   snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> None:
    """Sets the codecs of types (all five by default) on conn, in format
    "binary" (the default) or "text".  The types are those of the
    extension uid, in whatever schema it is (on the search_path or not); a
    type that is not found raises LookupError."""
    if format not in ("binary", "text"):
        raise ValueError('format is "binary" or "text", not %r' % (format,))
    type_readers = readers(types, snowflake_si_epoch, snowflake_si_index_bits)
    found = catalog_types(await conn.fetch(TYPES_SQL), type_readers)
    registration = _Registration(type_readers, found, format)
    await _set_codecs(conn, registration, format)
    _registrations[_connection(conn)] = registration


async def _set_codecs(conn: Any, registration: _Registration, format: str) -> None:
    binary = format == "binary"
    for name, reader in registration.readers.items():
        await conn.set_type_codec(name, schema=registration.found[name].schema, format=format,
                                  encoder=_encoder(reader, binary),
                                  decoder=reader.from_binary if binary else reader.from_text)


async def copy_records_to_table(conn: Any, table_name: str, **kwargs: Any) -> str:
    """``conn.copy_records_to_table(table_name, **kwargs)``, also where
    register() set text codecs: asyncpg's COPY is binary and has no use for
    a text codec ("no binary format encoder for type sno"), so the types
    registered get their binary codecs for the COPY (the same values) and
    their text ones back after it.  Where a failed COPY has aborted a
    transaction the binary ones stay (setting a codec runs a query); the
    values read are the same classes."""
    registration = _registrations.get(_connection(conn))
    if registration is None or registration.format == "binary":
        return await conn.copy_records_to_table(table_name, **kwargs)
    await _set_codecs(conn, registration, "binary")
    try:
        result = await conn.copy_records_to_table(table_name, **kwargs)
    except BaseException:
        try:
            await _set_codecs(conn, registration, "text")
        except asyncpg.PostgresError:
            pass            # the COPY's error is the one to see
        raise
    await _set_codecs(conn, registration, "text")
    return result
