"""What the driver adapters share: which types to register and how to make
a value of each from the server's text or binary form."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Dict, Iterable, Optional, Type

from ._types import (DEFAULT_SNOWFLAKE_SI_EPOCH, DEFAULT_SNOWFLAKE_SI_INDEX_BITS, TYPES,
                     Epoch, SnowflakeSi, UidValue, snowflake_si_epoch_ms)


@dataclass(frozen=True)
class Reader:
    """How a driver turns one type's wire forms into its value class."""

    type_name: str
    cls: Type[UidValue]
    from_text: Callable[[str], UidValue]
    from_binary: Callable[[bytes], UidValue]


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
                lambda data: SnowflakeSi.from_bytes(data, epoch_ms, snowflake_si_index_bits))
        else:
            result[name] = Reader(name, cls, cls.parse, cls.from_bytes)
    return result
