"""What the five value classes share: the errors the server raises, the
formats' clocks, argument checks and the base class.

Every error here carries the server's SQLSTATE, message (``str(err)``),
DETAIL and HINT, so a client refuses what the server refuses, in its words.
Positions and lengths in the messages count bytes of the UTF-8 text, as the
server's input functions do.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, ClassVar, Optional, Tuple, Type, TypeVar, Union

UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_ONE_US = timedelta(microseconds=1)


class UidError(ValueError):
    """A value the server refuses: ``str(err)`` is its message.

    ``sqlstate``, ``detail`` and ``hint`` are the error's SQLSTATE, DETAIL
    and HINT as the server reports them (``None`` where it has none).
    """

    sqlstate: ClassVar[str] = ""

    def __init__(self, message: str, detail: Optional[str] = None,
                 hint: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail
        self.hint = hint


class InvalidTextRepresentation(UidError):
    """22P02: text that is not an ID of the type."""

    sqlstate = "22P02"


class InvalidBinaryRepresentation(UidError):
    """22P03: a binary form of the wrong length or with bad contents."""

    sqlstate = "22P03"


class NumericValueOutOfRange(UidError):
    """22003: a number (a field, a text's value, a bigint) out of range."""

    sqlstate = "22003"


class DatetimeValueOutOfRange(UidError):
    """22008: a time outside the format's range."""

    sqlstate = "22008"


class InvalidParameterValue(UidError):
    """22023: an argument that is not allowed (snowflake_si's base clock)."""

    sqlstate = "22023"


# What the input functions found wrong (the codecs' uid_status).
BAD_LENGTH, BAD_CHAR, BAD_SHAPE, BAD_RESERVED, OUT_OF_RANGE = range(5)


def text_error(type_name: str, text: str, status: int, bad_pos: int,
               expected: str) -> UidError:
    """The error the server's T_in raises for text it refuses."""
    hint = "Expected %s." % expected
    if status == OUT_OF_RANGE:
        return NumericValueOutOfRange(
            'value "%s" is out of range for type %s' % (text, type_name), None, hint)
    if status == BAD_CHAR:
        detail = "Character %d is not allowed here." % (bad_pos + 1)
    elif status == BAD_LENGTH:
        detail = "The input is %d characters long." % len(text_bytes(text))
    elif status == BAD_SHAPE:
        detail = ("Character %d is out of place: a group has the wrong number"
                  " of digits." % (bad_pos + 1))
    else:
        detail = "Reserved bits are set."
    return InvalidTextRepresentation(
        'invalid input syntax for type %s: "%s"' % (type_name, text), detail, hint)


def text_bytes(text: str) -> bytes:
    """The bytes the server's input function sees for text (UTF-8)."""
    if not isinstance(text, str):
        raise TypeError("an ID's text must be a str, not %s" % type(text).__name__)
    return text.encode("utf-8", "surrogatepass")


def binary_input(data: Any, type_name: str, length: int) -> bytes:
    """data as bytes, or the server's error for a binary value of another length."""
    data = bytes(data)
    if len(data) != length:
        raise InvalidBinaryRepresentation(
            "invalid binary length for type %s: %d bytes" % (type_name, len(data)),
            "A %s is %d bytes." % (type_name, length))
    return data


def check_int(value: Any, bits: int = 32) -> int:
    """value as an SQL integer (bits 32) or bigint (64), as the server takes it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("expected an int, not %s" % type(value).__name__)
    if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
        raise NumericValueOutOfRange("integer out of range" if bits == 32
                                     else "bigint out of range")
    return value


def check_field(type_name: str, arg: str, value: Any, lo: int, hi: int,
                bits: int = 32) -> int:
    """value, or the server's 22003 for an argument outside lo .. hi."""
    value = check_int(value, bits)
    if not lo <= value <= hi:
        raise NumericValueOutOfRange(
            'value %d is out of range for argument "%s"' % (value, arg),
            'Type %s takes "%s" from %d to %d.' % (type_name, arg, lo, hi))
    return value


def check_range(type_name: str, value: int, hi: int, binary: bool) -> int:
    """value of a type whose values are 0 .. hi, or the server's error:
    22P03 for binary input, 22003 for a bigint."""
    if not 0 <= value <= hi:
        cls: Type[UidError] = InvalidBinaryRepresentation if binary else NumericValueOutOfRange
        raise cls(("binary value %d is out of range for type %s" if binary
                   else "value %d is out of range for type %s") % (value, type_name),
                  "A %s is between 0 and %d." % (type_name, hi))
    return value


def unix_us(t: datetime) -> int:
    """Microseconds since 1970-01-01 UTC of an aware datetime."""
    if not isinstance(t, datetime):
        raise TypeError("expected a datetime, not %s" % type(t).__name__)
    if t.tzinfo is None or t.utcoffset() is None:
        raise TypeError("a naive datetime has no time zone; give an aware one "
                        "(e.g. tzinfo=timezone.utc), as timestamptz is")
    return (t - UNIX_EPOCH) // _ONE_US


def from_unix_us(us: int) -> datetime:
    """The aware UTC datetime of microseconds since 1970-01-01 UTC."""
    return UNIX_EPOCH + timedelta(microseconds=us)


def pg_timestamp_text(us: int) -> str:
    """A time as the server writes a timestamptz in messages (ISO, UTC),
    in integers: a datetime ends in 9999, a timestamptz in 294276."""
    days, rest = divmod(us, 86_400_000_000)
    year, month, day = _civil_from_days(days)
    secs, frac = divmod(rest, 1_000_000)
    bc = year <= 0
    text = "%04d-%02d-%02d %02d:%02d:%02d" % (1 - year if bc else year, month, day,
                                              secs // 3600, secs // 60 % 60, secs % 60)
    if frac:
        text += (".%06d" % frac).rstrip("0")
    return text + "+00" + (" BC" if bc else "")


def _civil_from_days(days: int) -> Tuple[int, int, int]:
    """The proleptic Gregorian (year, month, day) of a day counted from
    1970-01-01 (year 0 is 1 BC)."""
    era, doe = divmod(days + 719_468, 146_097)  # from 0000-03-01
    yoe = (doe - doe // 1460 + doe // 36_524 - doe // 146_096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    month = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (month <= 2), month, doy - (153 * mp + 2) // 5 + 1


@dataclass(frozen=True)
class Clock:
    """A format's clock: ticks of tick_us microseconds from epoch_us (Unix),
    0 .. tick_max (the server's UidClockSpec)."""

    type_name: str
    epoch_us: int
    tick_us: int
    tick_max: int

    def tick(self, t: datetime, round_up: bool) -> int:
        """The tick that holds t (round_up False: from_parts), or the first
        at or after it (True: boundary; earlier times give 0); 22008 outside
        the range, as uid_time_to_tick."""
        us = unix_us(t) - self.epoch_us
        if us < 0:
            if round_up:
                return 0
            raise self.out_of_range(unix_us(t))
        tick, rest = divmod(us, self.tick_us)
        if round_up and rest:
            tick += 1
        if tick > self.tick_max:
            raise self.out_of_range(unix_us(t))
        return tick

    def time(self, tick: int) -> datetime:
        """The start of a tick."""
        return from_unix_us(self.epoch_us + tick * self.tick_us)

    def out_of_range(self, us: int) -> DatetimeValueOutOfRange:
        """The server's 22008 for a time outside the clock."""
        first = self.epoch_us
        last = self.epoch_us + self.tick_max * self.tick_us
        return DatetimeValueOutOfRange(
            'timestamp out of range for type %s: "%s"' % (self.type_name, pg_timestamp_text(us)),
            "The range is %s to %s." % (pg_timestamp_text(first), pg_timestamp_text(last)))


def bitrev(value: int, bits: int) -> int:
    """value's low bits in reverse order (bit i to bit bits-1-i)."""
    return int(format(value, "0%db" % bits)[::-1], 2)


V = TypeVar("V", bound="UidValue")


class UidValue:
    """An ID of one of uid's types: immutable, hashable, ordered as the
    server's default btree operator class orders the type.

    ``_key`` is an integer whose order is the server's order; equality and
    hashing use it too.  ``Type(text)`` is ``Type.parse(text)``.
    """

    __slots__ = ("_key",)
    type_name: ClassVar[str] = ""
    _key: int

    def __init__(self, text: str) -> None:
        object.__setattr__(self, "_key", self.parse(text)._key)

    @classmethod
    def _of_key(cls: Type[V], key: int) -> V:
        value = object.__new__(cls)
        object.__setattr__(value, "_key", key)
        return value

    @classmethod
    def parse(cls: Type[V], text: str) -> V:
        """The ID of text, as the server's input function reads it."""
        raise NotImplementedError

    @classmethod
    def from_bytes(cls: Type[V], data: Union[bytes, bytearray, memoryview]) -> V:
        """The ID of its binary form (the server's send/recv form)."""
        raise NotImplementedError

    def to_bytes(self) -> bytes:
        """The binary form, as the server's send function writes it."""
        raise NotImplementedError

    def __bytes__(self) -> bytes:
        return self.to_bytes()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("%s values are immutable" % type(self).__name__)

    def __delattr__(self, name: str) -> None:
        raise AttributeError("%s values are immutable" % type(self).__name__)

    def __repr__(self) -> str:
        return "%s(%r)" % (type(self).__name__, str(self))

    def __reduce__(self) -> Tuple[Any, Tuple[bytes]]:
        return (type(self).from_bytes, (self.to_bytes(),))

    def _same(self, other: Any) -> bool:
        return isinstance(other, UidValue) and other.type_name == self.type_name

    def __eq__(self, other: Any) -> bool:
        if not self._same(other):
            return NotImplemented
        return self._key == other._key

    def __ne__(self, other: Any) -> bool:
        if not self._same(other):
            return NotImplemented
        return self._key != other._key

    def __lt__(self, other: Any) -> bool:
        if not self._same(other):
            return NotImplemented
        return self._key < other._key

    def __le__(self, other: Any) -> bool:
        if not self._same(other):
            return NotImplemented
        return self._key <= other._key

    def __gt__(self, other: Any) -> bool:
        if not self._same(other):
            return NotImplemented
        return self._key > other._key

    def __ge__(self, other: Any) -> bool:
        if not self._same(other):
            return NotImplemented
        return self._key >= other._key

    def __hash__(self) -> int:
        return hash((self.type_name, self._key))


def json_default(value: Any) -> str:
    """``json.dumps(obj, default=json_default)``: a value of uid's types is
    its text, as the server's ``to_json()`` writes it; anything else
    json cannot write is its TypeError, as without the helper."""
    if isinstance(value, UidValue):
        return str(value)
    raise TypeError("Object of type %s is not JSON serializable" % type(value).__name__)


class Int64Value(UidValue):
    """A type stored as 8 bytes whose binary form is a big-endian int64,
    like bigint's; ``int(x)`` is the value of ``x::bigint``."""

    __slots__ = ()

    def to_int(self) -> int:
        """The value of ``id::bigint``."""
        raise NotImplementedError

    def __int__(self) -> int:
        return self.to_int()

    def to_bytes(self) -> bytes:
        return self.to_int().to_bytes(8, "big", signed=True)

    @staticmethod
    def _binary_int(data: Any, type_name: str) -> int:
        """The int64 of an 8-byte binary form, or the server's length error."""
        return int.from_bytes(binary_input(data, type_name, 8), "big", signed=True)
