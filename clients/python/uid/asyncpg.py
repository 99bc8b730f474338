"""asyncpg codecs for uid's types.

``await register(conn)`` sets a codec for each type (``set_type_codec``),
in the binary format by default, so that results come back as the value
classes and parameters of those types take them (or their text).  Use it as
a pool's ``init`` to have it on every connection of the pool.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ._adapt import Reader, readers
from ._types import DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, Epoch

__all__ = ["register"]

_SCHEMA = ("SELECT n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace"
           " WHERE t.oid = to_regtype($1)")


def _encoder(reader: Reader, binary: bool) -> Any:
    def encode(value: Any) -> Any:
        if not isinstance(value, reader.cls):
            value = reader.from_text(value)
        return value.to_bytes() if binary else str(value)
    return encode


async def register(conn: Any, *, types: Optional[Iterable[str]] = None,
                   format: str = "binary",
                   snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                   snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> None:
    """Sets the codecs of types (all five by default) on conn, in format
    "binary" (the default) or "text".  The types are looked up by name on
    the search_path; a type that is not found raises LookupError."""
    if format not in ("binary", "text"):
        raise ValueError('format is "binary" or "text", not %r' % (format,))
    binary = format == "binary"
    for name, reader in readers(types, snowflake_si_epoch, snowflake_si_index_bits).items():
        schema = await conn.fetchval(_SCHEMA, name)
        if schema is None:
            raise LookupError("type %s not found: is the extension uid installed in this "
                              "database (CREATE EXTENSION uid) and its schema on the "
                              "search_path?" % name)
        await conn.set_type_codec(name, schema=schema, format=format,
                                  encoder=_encoder(reader, binary),
                                  decoder=reader.from_binary if binary else reader.from_text)
