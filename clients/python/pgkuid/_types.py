"""The five value classes: sno, muid, snowflake_si, revts8 and uid60.

Each reads and writes the server's text and binary forms with the server's
checks and messages, exposes the fields under the names of the SQL
accessors, and orders as the type's default btree operator class does.
The bit layouts are in doc/formats.md; the functions in doc/types.md.
"""
from __future__ import annotations

import uuid as _uuid
from datetime import datetime, timezone
from typing import Any, Optional, Type, TypeVar, Union

from ._core import (BAD_CHAR, BAD_LENGTH, BAD_RESERVED, BAD_SHAPE, OUT_OF_RANGE, Clock,
                    Int64Value, InvalidBinaryRepresentation, InvalidParameterValue,
                    NumericValueOutOfRange, UidValue, binary_input, bitrev, check_field,
                    check_int, check_range, from_unix_us, pg_timestamp_text, text_bytes,
                    text_error, unix_us)

BytesLike = Union[bytes, bytearray, memoryview]
S = TypeVar("S", bound="SnowflakeSi")


def _hexval(c: int) -> int:
    """The value of an ASCII hex digit of either case, or -1 (uid_hexval)."""
    if 48 <= c <= 57:
        return c - 48
    c |= 0x20
    return c - 87 if 97 <= c <= 102 else -1


# ---------------------------------------------------------------------------
# sno

_SNO_ALPHABET = "23456789abcdefghijklmnopqrstuvwx"
_SNO_DIGITS = {ord(ch): i for i, ch in enumerate(_SNO_ALPHABET)}
_SNO_DIGITS.update({ord(ch.upper()): i for i, ch in enumerate(_SNO_ALPHABET) if ch.isalpha()})


class Sno(UidValue):
    """A sno (muyo/sno): 10 bytes; time in 4 ms units since 2010, the
    tick-tock bit, meta, partition and sequence.  Ordered by its bytes."""

    __slots__ = ()
    type_name = "sno"
    EXPECTED = "16 characters of 2-9 and a-x"
    clock = Clock("sno", 1262304000000000, 4000, (1 << 39) - 1)

    @classmethod
    def parse(cls, text: str) -> "Sno":
        data = text_bytes(text)
        if len(data) != 16:
            raise text_error(cls.type_name, text, BAD_LENGTH, 0, cls.EXPECTED)
        n = 0
        for i, c in enumerate(data):
            d = _SNO_DIGITS.get(c)
            if d is None:
                raise text_error(cls.type_name, text, BAD_CHAR, i, cls.EXPECTED)
            n = n << 5 | d
        return cls._of_key(n)

    def __str__(self) -> str:
        return "".join(_SNO_ALPHABET[(self._key >> (75 - 5 * i)) & 31] for i in range(16))

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "Sno":
        return cls._of_key(int.from_bytes(binary_input(data, cls.type_name, 10), "big"))

    def to_bytes(self) -> bytes:
        return self._key.to_bytes(10, "big")

    @property
    def timestamp(self) -> datetime:
        """``sno_timestamp()``: the start of its 4 ms unit."""
        return self.clock.time(self._key >> 41)

    @property
    def tick(self) -> int:
        """``sno_tick()``: the tick-tock bit."""
        return (self._key >> 40) & 1

    @property
    def meta(self) -> int:
        """``sno_meta()``: the metabyte."""
        return (self._key >> 32) & 0xFF

    @property
    def partition(self) -> int:
        """``sno_partition()``."""
        return (self._key >> 16) & 0xFFFF

    @property
    def sequence(self) -> int:
        """``sno_sequence()``."""
        return self._key & 0xFFFF

    @classmethod
    def from_parts(cls, time: datetime, meta: int, partition: int, sequence: int,
                   tick: int = 0) -> "Sno":
        """``sno_from_parts()``: time floored to 4 ms; same checks and errors."""
        meta = check_field("sno", "meta", meta, 0, 255)
        partition = check_field("sno", "partition", partition, 0, 0xFFFF)
        sequence = check_field("sno", "sequence", sequence, 0, 0xFFFF)
        tick = check_field("sno", "tick", tick, 0, 1)
        units = cls.clock.tick(time, False)
        return cls._of_key((units << 1 | tick) << 40 | meta << 32 | partition << 16 | sequence)

    @classmethod
    def boundary(cls, time: datetime) -> "Sno":
        """``sno_boundary()``: the smallest sno at or after time."""
        return cls._of_key(cls.clock.tick(time, True) << 41)


# ---------------------------------------------------------------------------
# muid

_MUID_GROUPS = (13, 11, 8)
_MUID_MEDALLION_MAX = (1 << 44) - 1


class Muid(UidValue):
    """A muid (Gink): 16 bytes; microseconds since 1970, medallion and the
    offset within its transaction.  Ordered by its bytes."""

    __slots__ = ()
    type_name = "muid"
    EXPECTED = ("hex digits in groups of 13, 11 and 8 joined by dashes"
                " (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups")
    # the all-ones timestamp is Gink's sentinel, not a time from_parts takes
    clock = Clock("muid", 0, 1, (1 << 52) - 2)

    @classmethod
    def parse(cls, text: str) -> "Muid":
        data = text_bytes(text)
        lengths = {34: 3, 25: 2, 13: 1}
        if len(data) not in lengths:
            raise text_error(cls.type_name, text, BAD_LENGTH, 0, cls.EXPECTED)
        groups = [0, 0, 0]
        pos = 0
        for g in range(lengths[len(data)]):
            if g > 0:
                if data[pos] != 0x2D:
                    status = BAD_SHAPE if _hexval(data[pos]) >= 0 else BAD_CHAR
                    raise text_error(cls.type_name, text, status, pos, cls.EXPECTED)
                pos += 1
            for _ in range(_MUID_GROUPS[g]):
                d = _hexval(data[pos])
                if d < 0:
                    status = BAD_SHAPE if data[pos] == 0x2D else BAD_CHAR
                    raise text_error(cls.type_name, text, status, pos, cls.EXPECTED)
                groups[g] = groups[g] << 4 | d
                pos += 1
        return cls._of_key(groups[0] << 76 | groups[1] << 32 | groups[2])

    def __str__(self) -> str:
        return "%013X-%011X-%08X" % (self._key >> 76, (self._key >> 32) & _MUID_MEDALLION_MAX,
                                     self._key & 0xFFFFFFFF)

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "Muid":
        return cls._of_key(int.from_bytes(binary_input(data, cls.type_name, 16), "big"))

    def to_bytes(self) -> bytes:
        return self._key.to_bytes(16, "big")

    @classmethod
    def from_uuid(cls, value: _uuid.UUID) -> "Muid":
        """``uuid::muid``: the same 16 bytes."""
        return cls._of_key(value.int)

    @property
    def uuid(self) -> _uuid.UUID:
        """``muid::uuid``: the same 16 bytes."""
        return _uuid.UUID(int=self._key)

    @property
    def timestamp(self) -> datetime:
        """``muid_timestamp()``, exact to the microsecond."""
        return self.clock.time(self._key >> 76)

    @property
    def medallion(self) -> int:
        """``muid_medallion()``: 0 .. 2^44 - 1."""
        return (self._key >> 32) & _MUID_MEDALLION_MAX

    @property
    def offset(self) -> int:
        """``muid_offset()``: signed, -1 is FFFFFFFF."""
        offset = self._key & 0xFFFFFFFF
        return offset - (1 << 32) if offset >> 31 else offset

    @classmethod
    def from_parts(cls, time: datetime, medallion: int, offset: int = 0) -> "Muid":
        """``muid_from_parts()``: time exact to the microsecond."""
        medallion = check_field("muid", "medallion", medallion, 0, _MUID_MEDALLION_MAX, 64)
        offset = check_int(offset)
        ts = cls.clock.tick(time, False)
        return cls._of_key(ts << 76 | medallion << 32 | (offset & 0xFFFFFFFF))

    @classmethod
    def boundary(cls, time: datetime) -> "Muid":
        """``muid_boundary()``: the smallest muid at or after time."""
        return cls._of_key(cls.clock.tick(time, True) << 76)


# ---------------------------------------------------------------------------
# snowflake_si

_SF_MAX = (1 << 53) - 1
_SF_MAB_MAX = (1 << 40) - 1
_SF_EPOCH_MIN_MS = 1047972019225
# the last base clock whose clock, to its 40-bit end, has its microseconds in
# a signed 64-bit integer: 294212-03-08 08:07:07+00 (the server's too)
_SF_EPOCH_MAX_MS = (2**63 - 1) // 1000 - _SF_MAB_MAX
DEFAULT_SNOWFLAKE_SI_EPOCH = datetime(2024, 1, 1, tzinfo=timezone.utc)
DEFAULT_SNOWFLAKE_SI_INDEX_BITS = 8
Epoch = Union[datetime, int]


def snowflake_si_epoch_ms(epoch: Epoch) -> int:
    """A base clock (an aware datetime, or milliseconds since 1970) in
    milliseconds, or the server's 22023 for one it refuses."""
    us = check_int(epoch, 64) * 1000 if isinstance(epoch, int) else unix_us(epoch)
    if us % 1000 or not _SF_EPOCH_MIN_MS <= us // 1000 <= _SF_EPOCH_MAX_MS:
        raise InvalidParameterValue(
            'invalid snowflake_si base clock: "%s"' % pg_timestamp_text(us),
            "The base clock must be a whole number of milliseconds"
            " from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.")
    return us // 1000


def _check_index_bits(index_bits: int) -> int:
    return check_field("snowflake_si", "index_bits", index_bits, 1, 13)


class SnowflakeSi(Int64Value):
    """A snowflake_si (Snowflake-SI): a 53-bit integer, milliseconds after
    a base clock, machine id and index.  Ordered as the integer.

    The base clock and the index width are the server's settings
    ``uid.snowflake_si_epoch`` and ``uid.snowflake_si_index_bits``; a value
    carries the ones it was made with (by default the settings' defaults,
    2024-01-01T00:00:00Z and 8) for its ``timestamp``, ``machine`` and
    ``index``.  They take no part in equality and order.
    """

    __slots__ = ("_epoch_ms", "_index_bits")
    type_name = "snowflake_si"
    EXPECTED = "a decimal integer from 0 to 9007199254740991"
    _epoch_ms: int
    _index_bits: int

    def __init__(self, text: str, epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                 index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> None:
        value = self.parse(text, epoch, index_bits)
        for name in self.__slots__ + UidValue.__slots__:
            object.__setattr__(self, name, getattr(value, name))

    @classmethod
    def _make(cls: Type[S], value: int, epoch: Epoch, index_bits: int) -> S:
        epoch_ms = snowflake_si_epoch_ms(epoch)
        index_bits = _check_index_bits(index_bits)
        result = cls._of_key(value)
        object.__setattr__(result, "_epoch_ms", epoch_ms)
        object.__setattr__(result, "_index_bits", index_bits)
        return result

    @classmethod
    def parse(cls: Type[S], text: str, epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
              index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> S:
        """The ID of decimal text (white space around it and leading zeros
        allowed, as for bigint)."""
        data = text_bytes(text)
        spaces = b" \t\n\r\v\f"
        start, end = 0, len(data)
        while start < end and data[start] in spaces:
            start += 1
        while end > start and data[end - 1] in spaces:
            end -= 1
        if start == end:
            raise text_error(cls.type_name, text, BAD_CHAR, len(data), cls.EXPECTED)
        for i in range(start, end):
            if not 48 <= data[i] <= 57:
                raise text_error(cls.type_name, text, BAD_CHAR, i, cls.EXPECTED)
        value = int(data[start:end])
        if value > _SF_MAX:
            raise text_error(cls.type_name, text, OUT_OF_RANGE, 0, cls.EXPECTED)
        return cls._make(value, epoch, index_bits)

    def __str__(self) -> str:
        return str(self._key)

    @classmethod
    def from_bytes(cls: Type[S], data: BytesLike, epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                   index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> S:
        value = check_range(cls.type_name, cls._binary_int(data, cls.type_name), _SF_MAX, True)
        return cls._make(value, epoch, index_bits)

    @classmethod
    def from_int(cls: Type[S], value: int, epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                 index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> S:
        """``bigint::snowflake_si``: 0 .. 2^53 - 1, else 22003."""
        value = check_range(cls.type_name, check_int(value, 64), _SF_MAX, False)
        return cls._make(value, epoch, index_bits)

    def to_int(self) -> int:
        return self._key

    def __reduce__(self) -> Any:
        return (type(self).from_int, (self._key, self._epoch_ms, self._index_bits))

    def __repr__(self) -> str:
        layout = ""
        if self.epoch != DEFAULT_SNOWFLAKE_SI_EPOCH:
            layout += ", epoch=%r" % self.epoch
        if self._index_bits != DEFAULT_SNOWFLAKE_SI_INDEX_BITS:
            layout += ", index_bits=%d" % self._index_bits
        return "%s(%r%s)" % (type(self).__name__, str(self), layout)

    def with_layout(self: S, epoch: Optional[Epoch] = None,
                    index_bits: Optional[int] = None) -> S:
        """The same ID read under another base clock or index width."""
        return self._make(self._key, self._epoch_ms if epoch is None else epoch,
                          self._index_bits if index_bits is None else index_bits)

    @property
    def epoch(self) -> datetime:
        """The base clock this value's timestamp counts from."""
        return from_unix_us(self._epoch_ms * 1000)

    @property
    def index_bits(self) -> int:
        """The index width this value's machine and index assume."""
        return self._index_bits

    @property
    def timestamp(self) -> datetime:
        """``snowflake_si_timestamp(id, epoch)``: the start of its millisecond."""
        return from_unix_us((self._epoch_ms + (self._key >> 13)) * 1000)

    @property
    def machine(self) -> int:
        """``snowflake_si_machine(id, index_bits)``."""
        return (self._key >> self._index_bits) & ((1 << (13 - self._index_bits)) - 1)

    @property
    def index(self) -> int:
        """``snowflake_si_index(id, index_bits)``."""
        return self._key & ((1 << self._index_bits) - 1)

    @staticmethod
    def clock(epoch_ms: int) -> Clock:
        """The format's clock for a base clock: 2^40 milliseconds after it."""
        return Clock("snowflake_si", epoch_ms * 1000, 1000, _SF_MAB_MAX)

    @classmethod
    def from_parts(cls: Type[S], time: datetime, machine: int, index: int,
                   epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                   index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> S:
        """``snowflake_si_from_parts(time, machine, index, epoch, index_bits)``:
        time floored to the millisecond."""
        epoch_ms = snowflake_si_epoch_ms(epoch)
        k = _check_index_bits(index_bits)
        machine = check_field("snowflake_si", "machine", machine, 0, (1 << (13 - k)) - 1)
        index = check_field("snowflake_si", "index", index, 0, (1 << k) - 1)
        mab = cls.clock(epoch_ms).tick(time, False)
        return cls._make(mab << 13 | machine << k | index, epoch_ms, k)

    @classmethod
    def boundary(cls: Type[S], time: datetime, epoch: Epoch = DEFAULT_SNOWFLAKE_SI_EPOCH,
                 index_bits: int = DEFAULT_SNOWFLAKE_SI_INDEX_BITS) -> S:
        """``snowflake_si_boundary()`` on a server whose base clock is epoch
        (index_bits only goes with the result)."""
        epoch_ms = snowflake_si_epoch_ms(epoch)
        return cls._make(cls.clock(epoch_ms).tick(time, True) << 13, epoch_ms, index_bits)


# ---------------------------------------------------------------------------
# revts8

_REVTS8_RESERVED = 0xFC00
_REVTS8_LOW_MASK = (1 << 22) - 1
_REVTS8_TS_MAX = (1 << 42) - 1


def _revts8_key(canonical: int) -> int:
    """The time-ordered key of the canonical (bit-reversed) value."""
    return (bitrev(canonical, 64) & _REVTS8_TS_MAX) << 22 | canonical & _REVTS8_LOW_MASK


class Revts8(Int64Value):
    """A revts8 (LableOrg/java-uniqueid): 8 bytes, the millisecond
    timestamp bit-reversed, then sequence, generator and cluster.  Ordered
    by time (timestamp, sequence, generator, cluster) as the default
    ``revts8_ops``, not by its bytes (``byte_key`` gives that order)."""

    __slots__ = ()
    type_name = "revts8"
    EXPECTED = "16 hexadecimal digits with bits 15 to 10 clear"
    clock = Clock("revts8", 0, 1000, _REVTS8_TS_MAX)

    @classmethod
    def _of_canonical(cls, canonical: int, source: Optional[str]) -> "Revts8":
        """The ID of the canonical 64 bits, or the error for reserved bits
        set in a value from source ("binary", "bigint")."""
        if canonical & _REVTS8_RESERVED:
            error = InvalidBinaryRepresentation if source == "binary" else NumericValueOutOfRange
            raise error("invalid %s value for type revts8: reserved bits are set" % source,
                        "Bits 15 to 10 of a revts8 must be zero; the value is %016x." % canonical)
        return cls._of_key(_revts8_key(canonical))

    @classmethod
    def parse(cls, text: str) -> "Revts8":
        data = text_bytes(text)
        if len(data) != 16:
            raise text_error(cls.type_name, text, BAD_LENGTH, 0, cls.EXPECTED)
        canonical = 0
        for i, c in enumerate(data):
            d = _hexval(c)
            if d < 0:
                raise text_error(cls.type_name, text, BAD_CHAR, i, cls.EXPECTED)
            canonical = canonical << 4 | d
        if canonical & _REVTS8_RESERVED:
            raise text_error(cls.type_name, text, BAD_RESERVED, 0, cls.EXPECTED)
        return cls._of_canonical(canonical, None)

    @property
    def byte_key(self) -> int:
        """The 8 bytes as an unsigned integer: the order of ``revts8_bytes_ops``."""
        return bitrev(self._key >> 22, 64) | self._key & _REVTS8_LOW_MASK

    def __str__(self) -> str:
        return "%016x" % self.byte_key

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "Revts8":
        return cls._of_canonical(cls._binary_int(data, cls.type_name) & (2**64 - 1), "binary")

    @classmethod
    def from_int(cls, value: int) -> "Revts8":
        """``bigint::revts8``: the bytes as a signed big-endian integer."""
        return cls._of_canonical(check_int(value, 64) & (2**64 - 1), "bigint")

    def to_int(self) -> int:
        canonical = self.byte_key
        return canonical - (1 << 64) if canonical >> 63 else canonical

    @property
    def timestamp(self) -> datetime:
        """``revts8_timestamp()``: its millisecond."""
        return self.clock.time(self._key >> 22)

    @property
    def sequence(self) -> int:
        """``revts8_sequence()``: 0 .. 63."""
        return (self._key >> 16) & 63

    @property
    def generator(self) -> int:
        """``revts8_generator()``: 0 .. 63."""
        return (self._key >> 4) & 63

    @property
    def cluster(self) -> int:
        """``revts8_cluster()``: 0 .. 15."""
        return self._key & 15

    @classmethod
    def from_parts(cls, time: datetime, sequence: int, generator: int,
                   cluster: int) -> "Revts8":
        """``revts8_from_parts()``: time floored to the millisecond."""
        sequence = check_field("revts8", "sequence", sequence, 0, 63)
        generator = check_field("revts8", "generator", generator, 0, 63)
        cluster = check_field("revts8", "cluster", cluster, 0, 15)
        ts = cls.clock.tick(time, False)
        return cls._of_key(ts << 22 | sequence << 16 | generator << 4 | cluster)

    @classmethod
    def boundary(cls, time: datetime) -> "Revts8":
        """``revts8_boundary()``: the smallest ID in time order at or after time."""
        return cls._of_key(cls.clock.tick(time, True) << 22)


# ---------------------------------------------------------------------------
# uid60

_UID60_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
_UID60_DIGITS = {ord(ch): i for i, ch in enumerate(_UID60_ALPHABET)}
_UID60_MAX = (1 << 60) - 1
_UID60_LOW_MASK = (1 << 28) - 1


def _uid60_display(n: int) -> int:
    """n with its 32-bit timestamp bit-reversed (its own inverse)."""
    return bitrev(n >> 28, 32) << 28 | n & _UID60_LOW_MASK


class Uid60(Int64Value):
    """A uid60 (abyss-club/uexky): a 60-bit integer, seconds since
    2018-03-01, worker, sequence and random bits.  Ordered as the integer
    (its text, made to look random, is not in that order)."""

    __slots__ = ()
    type_name = "uid60"
    EXPECTED = "10 characters of A-Z, a-z, 0-9, - and _"
    clock = Clock("uid60", 1519862400000000, 1000000, (1 << 32) - 1)

    @classmethod
    def parse(cls, text: str) -> "Uid60":
        data = text_bytes(text)
        if len(data) != 10:
            raise text_error(cls.type_name, text, BAD_LENGTH, 0, cls.EXPECTED)
        m = 0
        for i, c in enumerate(data):
            d = _UID60_DIGITS.get(c)
            if d is None:
                raise text_error(cls.type_name, text, BAD_CHAR, i, cls.EXPECTED)
            m = m << 6 | d
        return cls._of_key(_uid60_display(m))

    def __str__(self) -> str:
        m = _uid60_display(self._key)
        return "".join(_UID60_ALPHABET[(m >> (54 - 6 * i)) & 63] for i in range(10))

    @classmethod
    def from_bytes(cls, data: BytesLike) -> "Uid60":
        return cls._of_key(check_range(cls.type_name, cls._binary_int(data, cls.type_name),
                                       _UID60_MAX, True))

    @classmethod
    def from_int(cls, value: int) -> "Uid60":
        """``bigint::uid60``: 0 .. 2^60 - 1, else 22003."""
        return cls._of_key(check_range(cls.type_name, check_int(value, 64), _UID60_MAX, False))

    def to_int(self) -> int:
        return self._key

    @property
    def timestamp(self) -> datetime:
        """``uid60_timestamp()``: its second."""
        return self.clock.time(self._key >> 28)

    @property
    def worker(self) -> int:
        """``uid60_worker()``: 0 .. 511."""
        return (self._key >> 19) & 511

    @property
    def sequence(self) -> int:
        """``uid60_sequence()``: 0 .. 1023."""
        return (self._key >> 9) & 1023

    @property
    def random(self) -> int:
        """``uid60_random()``: 0 .. 511."""
        return self._key & 511

    @classmethod
    def from_parts(cls, time: datetime, worker: int, sequence: int, random: int) -> "Uid60":
        """``uid60_from_parts()``: time floored to the second."""
        worker = check_field("uid60", "worker", worker, 0, 511)
        sequence = check_field("uid60", "sequence", sequence, 0, 1023)
        random = check_field("uid60", "random", random, 0, 511)
        ts = cls.clock.tick(time, False)
        return cls._of_key(ts << 28 | worker << 19 | sequence << 9 | random)

    @classmethod
    def boundary(cls, time: datetime) -> "Uid60":
        """``uid60_boundary()``: the smallest ID at or after time."""
        return cls._of_key(cls.clock.tick(time, True) << 28)


#: The value class of each SQL type name.
TYPES = {cls.type_name: cls for cls in (Sno, Muid, SnowflakeSi, Revts8, Uid60)}
