"""psycopg2 adapters for uid's types.

``register(conn)`` looks the types' OIDs up on the connection (through the
extension's membership, whatever the search_path) and registers
typecasters (``new_type``, and ``new_array_type`` for their arrays) that
return the value classes, on that connection or cursor (or globally with
``globally=True``), and adapters (``register_adapter``, always global in
psycopg2) that send a value as a typed literal, the type qualified with
the extension's schema: ``'...'::public.sno``.
psycopg2 reads results as text only.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, Optional, Tuple

import psycopg2.extensions as ext

from ._adapt import TYPES_SQL, catalog_types, readers
from ._types import DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, Epoch, UidValue

__all__ = ["register"]


class _Literal:
    """A value as a typed SQL literal: '<text>'::<type>."""

    def __init__(self, value: UidValue, type_sql: str) -> None:
        self._quoted = ext.QuotedString(str(value))
        self._type_sql = type_sql
        self._encoding = "utf-8"

    def prepare(self, conn: Any) -> None:
        self._quoted.prepare(conn)
        self._encoding = ext.encodings.get(conn.encoding, "utf-8")

    def getquoted(self) -> bytes:
        # the type's name is quoted already, and in the connection's encoding
        return self._quoted.getquoted() + b"::" + self._type_sql.encode(self._encoding)


def register(conn_or_curs: Any, *, types: Optional[Iterable[str]] = None,
             globally: bool = False,
             snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
             snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS
             ) -> Dict[str, Tuple[int, int]]:
    """Registers the typecasters of types (all five by default) on
    conn_or_curs (every connection with globally=True) and the adapters of
    their value classes.  Returns each type's (oid, array oid).

    The lookup runs on a plain cursor of its own (not the connection's
    cursor_factory, nor the cursor given, whose results are kept), and a
    connection that was idle is left idle (rolled back) afterwards."""
    conn = getattr(conn_or_curs, "connection", conn_or_curs)
    scope = None if globally else conn_or_curs
    type_readers = readers(types, snowflake_si_epoch, snowflake_si_index_bits)
    idle = conn.get_transaction_status() == ext.TRANSACTION_STATUS_IDLE
    try:
        with conn.cursor(cursor_factory=ext.cursor) as cursor:
            cursor.execute(TYPES_SQL)
            found = catalog_types(cursor.fetchall(), type_readers)
    finally:
        if idle and not conn.closed:
            conn.rollback()     # ends the transaction the lookup opened, if any
    oids = {}
    for name, reader in type_readers.items():
        oid, array_oid = found[name].oid, found[name].array_oid
        type_sql = found[name].qualified_name

        def cast(text: Optional[str], _cursor: Any, _read: Any = reader.from_text) -> Any:
            return None if text is None else _read(text)

        caster = ext.new_type((oid,), name.upper(), cast)
        ext.register_type(caster, scope)
        ext.register_type(ext.new_array_type((array_oid,), name.upper() + "[]", caster), scope)
        ext.register_adapter(reader.cls, lambda value, _t=type_sql: _Literal(value, _t))
        oids[name] = (oid, array_oid)
    return oids
