"""What the driver adapters share: which types to register, where they are
in the database, and how to make a value of each from the server's text or
binary form."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, NamedTuple, Optional, Sequence, Type

from ._types import (DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, TYPES,
                     Epoch, SnowflakeSi, UidValue, snowflake_si_epoch_ms)


@dataclass(frozen=True)
class Reader:
    """How a driver turns one type's wire forms into its value class."""

    type_name: str
    cls: Type[UidValue]
    from_text: Callable[[str], UidValue]
    from_binary: Callable[[bytes], UidValue]
    #: ``bigint::type`` for the 8-byte types (snowflake_si, revts8, uid60)
    from_int: Optional[Callable[[int], UidValue]] = None

    def coerce(self, value: Any) -> UidValue:
        """value (a parameter) as the class: a value of it as it is, an int
        as ``bigint::type`` for the 8-byte types, else text, parsed."""
        if isinstance(value, self.cls):
            return value
        if self.from_int is not None and isinstance(value, int) \
                and not isinstance(value, bool):
            return self.from_int(value)
        return self.from_text(value)


@functools.lru_cache(maxsize=None)
def reader(type_name: str, snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
           snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> Reader:
    """The Reader of one type (the same one for the same arguments)."""
    return readers([type_name], snowflake_si_epoch, snowflake_si_index_bits)[type_name]


def readers(types: Optional[Iterable[str]] = None,
            snowflake_si_epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
            snowflake_si_index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> Dict[str, Reader]:
    """A Reader for each type named in types (all five by default).

    snowflake_si values read with them carry the base clock and index width
    given, which should be the server's ``uid.snowflake_si_epoch`` and
    ``uid.snowflake_si_index_bits``.
    """
    names = list(TYPES) if types is None else list(types)
    unknown = [name for name in names if name not in TYPES]
    if unknown:
        raise ValueError("not a type of uid: %s (the types are %s)"
                         % (", ".join(unknown), ", ".join(TYPES)))
    epoch_ms = snowflake_si_epoch_ms(snowflake_si_epoch)
    SnowflakeSi.from_int(0, epoch_ms, snowflake_si_index_bits)   # checks the width
    result = {}
    for name in names:
        cls = TYPES[name]
        if cls is SnowflakeSi:
            result[name] = Reader(
                name, cls,
                lambda text: SnowflakeSi.parse(text, epoch_ms, snowflake_si_index_bits),
                lambda data: SnowflakeSi.from_bytes(data, epoch_ms, snowflake_si_index_bits),
                lambda n: SnowflakeSi.from_int(n, epoch_ms, snowflake_si_index_bits))
        else:
            result[name] = Reader(name, cls, cls.parse, cls.from_bytes,
                                  getattr(cls, "from_int", None))
    return result


#: The types of the extension uid in the current database, found through
#: its membership (pg_depend), not by name on the search_path: a type of the
#: same name elsewhere is never taken, and the extension's schema need not
#: be on the path.  Columns: name, oid, array oid, schema, qualified name.
TYPES_SQL = """
SELECT t.typname::text, t.oid, t.typarray, n.nspname::text,
       pg_catalog.quote_ident(n.nspname) || '.' || pg_catalog.quote_ident(t.typname)
FROM pg_catalog.pg_extension e
JOIN pg_catalog.pg_depend d
  ON d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.refobjid = e.oid
 AND d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.deptype = 'e'
JOIN pg_catalog.pg_type t ON t.oid = d.objid
JOIN pg_catalog.pg_namespace n ON n.oid = t.typnamespace
WHERE e.extname = 'uid'"""


class CatalogType(NamedTuple):
    """One of the extension's types as TYPES_SQL finds it."""

    name: str
    oid: int
    array_oid: int
    schema: str
    qualified_name: str     # "schema.name", quoted where it must be


def catalog_types(rows: Iterable[Sequence[Any]], names: Iterable[str]) -> Dict[str, CatalogType]:
    """The rows of TYPES_SQL for each of names, or LookupError for the
    first that is missing (no extension uid in the database)."""
    found = {row[0]: CatalogType(*row) for row in rows}
    for name in names:
        if name not in found:
            raise LookupError("type %s not found: is the extension uid installed in this "
                              "database (CREATE EXTENSION uid)?" % name)
    return {name: found[name] for name in names}
