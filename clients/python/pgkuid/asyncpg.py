"""asyncpg codecs for uid's types.

``await register(conn)`` sets a codec for each type (``set_type_codec``),
in the binary format by default, so that results come back as the value
classes and parameters of those types take them (or their text, or for
snowflake_si, revts8 and uid60 an int, as ``bigint::type``).  Use it as
a pool's ``init`` to have it on every connection of the pool.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

import asyncpg

from ._adapt import TYPES_SQL, Reader, catalog_types, readers
from ._types import DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, Epoch

__all__ = ["register"]


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
    binary = format == "binary"
    type_readers = readers(types, snowflake_si_epoch, snowflake_si_index_bits)
    found = catalog_types(await conn.fetch(TYPES_SQL), type_readers)
    for name, reader in type_readers.items():
        await conn.set_type_codec(name, schema=found[name].schema, format=format,
                                  encoder=_encoder(reader, binary),
                                  decoder=reader.from_binary if binary else reader.from_text)
