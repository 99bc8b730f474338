"""psycopg 3 adapters for uid's types.

``register(conn)`` looks the types' OIDs up on the connection (through the
extension's membership, whatever the search_path) and registers, on
``conn`` (or a cursor, or globally with ``None``), text and binary loaders
that return the value classes and text and binary dumpers that send them;
arrays of the types too.  A ``%s`` placeholder sends a value in binary,
``%t`` in text, ``%b`` in binary.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Optional

import psycopg
from psycopg.abc import AdaptContext
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format
from psycopg.rows import tuple_row
from psycopg.types import TypeInfo

from ._adapt import TYPES_SQL, CatalogType, Reader, catalog_types, readers
from ._types import DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, Epoch

__all__ = ["register", "register_async", "register_infos"]


def _connection_of(context: Optional[AdaptContext]) -> Optional[psycopg.Connection]:
    if isinstance(context, psycopg.Connection):
        return context
    return getattr(context, "connection", None)


def _infos(found: Dict[str, CatalogType]) -> Dict[str, TypeInfo]:
    return {name: TypeInfo(name, t.oid, t.array_oid) for name, t in found.items()}


def register(context: Optional[AdaptContext] = None, *,
             connection: Optional[psycopg.Connection] = None,
             types: Optional[Iterable[str]] = None,
             snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
             snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS
             ) -> Dict[str, TypeInfo]:
    """Registers the adapters of types (all five by default) on context: a
    connection, a cursor, or None for every connection made afterwards.

    The OIDs are looked up on ``connection``, else on context's connection.
    snowflake_si values are read with the base clock and index width given
    (the server's ``uid.snowflake_si_epoch`` and ``_index_bits``).
    Returns the TypeInfo of each type.
    """
    conn = connection or _connection_of(context)
    if conn is None:
        raise TypeError("register() needs a connection to look up the types' OIDs: "
                        "pass one as context or as connection=")
    names = readers(types)
    # as TypeInfo.fetch does: the connection is left as it was found
    with conn.transaction():
        with conn.cursor(row_factory=tuple_row) as cur:
            rows = cur.execute(TYPES_SQL).fetchall()
    infos = _infos(catalog_types(rows, names))
    register_infos(infos, context, snowflake_si_epoch, snowflake_si_index_bits)
    return infos


async def register_async(context: psycopg.AsyncConnection, *,
                         types: Optional[Iterable[str]] = None,
                         snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                         snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS
                         ) -> Dict[str, TypeInfo]:
    """register() for an AsyncConnection (or its cursor): the same adapters."""
    conn = getattr(context, "connection", context)
    names = readers(types)
    async with conn.transaction():
        async with conn.cursor(row_factory=tuple_row) as cur:
            rows = await (await cur.execute(TYPES_SQL)).fetchall()
    infos = _infos(catalog_types(rows, names))
    register_infos(infos, context, snowflake_si_epoch, snowflake_si_index_bits)
    return infos


def register_infos(infos: Dict[str, TypeInfo], context: Optional[AdaptContext] = None,
                   snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                   snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> None:
    """Registers the adapters of the types whose TypeInfo are given (by type
    name), without a lookup: for contexts with no connection at hand."""
    adapters = context.adapters if context is not None else psycopg.adapters
    for name, reader in readers(infos, snowflake_si_epoch, snowflake_si_index_bits).items():
        info = infos[name]
        info.register(context)
        for loader in _loaders(reader):
            adapters.register_loader(info.oid, loader)
        # the last one registered serves %s: binary, the compact form
        for dumper in _dumpers(reader, info.oid):
            adapters.register_dumper(reader.cls, dumper)


def _loaders(reader: Reader) -> Iterable[type]:
    class TextLoader(Loader):
        format = Format.TEXT

        def load(self, data: Any) -> Any:
            return reader.from_text(bytes(data).decode("utf-8"))

    class BinaryLoader(Loader):
        format = Format.BINARY

        def load(self, data: Any) -> Any:
            return reader.from_binary(data)

    for loader in (TextLoader, BinaryLoader):
        loader.__qualname__ = loader.__name__ = reader.cls.__name__ + loader.__name__
    return TextLoader, BinaryLoader


def _dumpers(reader: Reader, type_oid: int) -> Iterable[type]:
    class TextDumper(Dumper):
        format = Format.TEXT
        oid = type_oid

        def dump(self, obj: Any) -> bytes:
            return str(obj).encode("utf-8")

    class BinaryDumper(Dumper):
        format = Format.BINARY
        oid = type_oid

        def dump(self, obj: Any) -> bytes:
            return obj.to_bytes()

    for dumper in (TextDumper, BinaryDumper):
        dumper.__qualname__ = dumper.__name__ = reader.cls.__name__ + dumper.__name__
    return TextDumper, BinaryDumper
