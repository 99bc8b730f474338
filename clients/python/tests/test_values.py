"""Offline tests of the value classes over the shared vectors
(clients/vectors/vectors.json, made by the server's C codecs)."""
from __future__ import annotations

import datetime as datetime_module
import json
import pickle
import uuid
from datetime import datetime, timedelta, timezone

import pytest

import pgkuid
from conftest import FIELDS, IDS, REFUSED, layout, value_of, vector_id, vector_time

UTC = timezone.utc


@pytest.mark.parametrize("v", IDS, ids=vector_id)
def test_vector(v):
    """Every ID reads from its input and has the vector's text, bytes,
    fields, timestamp, bigint and uuid."""
    cls = pgkuid.TYPES[v["type"]]
    x = value_of(v)
    assert type(x) is cls
    assert str(x) == v["text"]
    assert bytes(x).hex() == v["bytes"] == x.to_bytes().hex()
    for field in FIELDS[v["type"]]:
        assert getattr(x, field) == v[field], field
    assert x.timestamp == vector_time(v)
    assert x.timestamp.tzinfo is not None and x.timestamp.utcoffset() == timedelta(0)
    if "bigint" in v:
        assert int(x) == v["bigint"]
        assert cls.from_int(v["bigint"], **layout(v)) == x
    if "uuid" in v:
        assert x.uuid == uuid.UUID(v["uuid"])
        assert pgkuid.Muid.from_uuid(x.uuid) == x


@pytest.mark.parametrize("v", IDS, ids=vector_id)
def test_json(v):
    """json.dumps(default=json_default) writes the text, and reading it
    back gives the ID."""
    x = value_of(v)
    assert json.dumps({"id": x, "n": [x]}, default=pgkuid.json_default) \
        == json.dumps({"id": v["text"], "n": [v["text"]]})
    assert type(x).parse(json.loads(json.dumps(x, default=pgkuid.json_default))) == x


def test_json_default_refuses_others():
    """Other objects are json's TypeError, as without the helper."""
    with pytest.raises(TypeError, match="Object of type object is not JSON serializable"):
        json.dumps(object(), default=pgkuid.json_default)


@pytest.mark.parametrize("v", IDS, ids=vector_id)
def test_round_trips(v):
    """Text and bytes read back to the same value; pickling, repr, hashing."""
    cls = pgkuid.TYPES[v["type"]]
    x = value_of(v)
    assert cls.parse(str(x), **layout(v)) == x
    assert cls(str(x)) == x
    assert cls.from_bytes(bytes.fromhex(v["bytes"]), **layout(v)) == x
    assert cls.from_bytes(memoryview(bytes(x))) == x
    assert pickle.loads(pickle.dumps(x)) == x
    assert pickle.loads(pickle.dumps(x)).timestamp == x.timestamp
    assert eval(repr(x), {cls.__name__: cls, "datetime": datetime_module}) == x
    assert hash(x) == hash(cls.parse(v["text"], **layout(v)))
    with pytest.raises(AttributeError):
        x._key = 0


@pytest.mark.parametrize("v", [v for v in IDS if v["type"] != "muid" or
                               not v["text"].startswith("FFFFFFFFFFFFF")], ids=vector_id)
def test_from_parts_inverts_the_fields(v):
    """from_parts(timestamp, fields...) gives the ID back."""
    cls = pgkuid.TYPES[v["type"]]
    x = value_of(v)
    fields = [getattr(x, f) for f in FIELDS[v["type"]]]
    assert cls.from_parts(x.timestamp, *fields, **layout(v)) == x


@pytest.mark.parametrize("v", REFUSED, ids=vector_id)
def test_refused(v):
    """Every refused input raises a ValueError with the server's SQLSTATE,
    message and hint."""
    cls = pgkuid.TYPES[v["type"]]
    with pytest.raises(ValueError) as info:
        cls.parse(v["input"])
    error = info.value
    assert isinstance(error, pgkuid.UidError)
    assert error.sqlstate in ("22P02", "22003")
    assert str(error).startswith(("invalid input syntax for type %s: " % v["type"],
                                  'value "%s" is out of range' % v["input"]))
    assert error.hint.startswith("Expected ")


def test_refusal_messages():
    """The messages of expected/*_io.out."""
    with pytest.raises(pgkuid.InvalidTextRepresentation) as info:
        pgkuid.Sno.parse("brpk4q72xwf2m63")
    assert str(info.value) == 'invalid input syntax for type sno: "brpk4q72xwf2m63"'
    assert info.value.detail == "The input is 15 characters long."
    assert info.value.hint == "Expected 16 characters of 2-9 and a-x."
    with pytest.raises(pgkuid.InvalidTextRepresentation) as info:
        pgkuid.Muid.parse("5D5EAC793E61F1-BFC71B112D-0000000B")
    assert info.value.detail == ("Character 14 is out of place: a group has the wrong"
                                 " number of digits.")
    with pytest.raises(pgkuid.NumericValueOutOfRange) as info:
        pgkuid.SnowflakeSi.parse("9007199254740992")
    assert str(info.value) == 'value "9007199254740992" is out of range for type snowflake_si'
    assert info.value.detail is None


@pytest.mark.parametrize("cls,data,error,message,detail", [
    (pgkuid.Sno, bytes(9), pgkuid.InvalidBinaryRepresentation,
     "invalid binary length for type sno: 9 bytes", "A sno is 10 bytes."),
    (pgkuid.Muid, bytes(17), pgkuid.InvalidBinaryRepresentation,
     "invalid binary length for type muid: 17 bytes", "A muid is 16 bytes."),
    (pgkuid.SnowflakeSi, bytes(4), pgkuid.InvalidBinaryRepresentation,
     "invalid binary length for type snowflake_si: 4 bytes", "A snowflake_si is 8 bytes."),
    (pgkuid.SnowflakeSi, (1 << 53).to_bytes(8, "big"), pgkuid.InvalidBinaryRepresentation,
     "binary value 9007199254740992 is out of range for type snowflake_si",
     "A snowflake_si is between 0 and 9007199254740991."),
    (pgkuid.Uid60, b"\xff" * 8, pgkuid.InvalidBinaryRepresentation,
     "binary value -1 is out of range for type uid60",
     "A uid60 is between 0 and 1152921504606846975."),
    (pgkuid.Revts8, bytes.fromhex("0000000000000400"), pgkuid.InvalidBinaryRepresentation,
     "invalid binary value for type revts8: reserved bits are set",
     "Bits 15 to 10 of a revts8 must be zero; the value is 0000000000000400."),
])
def test_binary_refused(cls, data, error, message, detail):
    with pytest.raises(error) as info:
        cls.from_bytes(data)
    assert (str(info.value), info.value.detail) == (message, detail)


def test_order_is_the_servers():
    """revts8 sorts by time, not bytes; uid60 by value, not text; sno and
    muid by bytes (= text)."""
    t = datetime(2024, 5, 6, 7, 8, 9, 1000, tzinfo=UTC)     # an odd millisecond
    early = pgkuid.Revts8.from_parts(t, 5, 0, 0)
    late = pgkuid.Revts8.from_parts(t + timedelta(milliseconds=1), 0, 0, 0)
    assert early < late and early.byte_key > late.byte_key
    a, b = pgkuid.Uid60.from_parts(t, 0, 0, 0), pgkuid.Uid60.from_parts(t + timedelta(seconds=1), 0, 0, 0)
    assert a < b and str(a) > str(b)
    for cls in (pgkuid.Sno, pgkuid.Muid):
        values = sorted(value_of(v) for v in IDS if v["type"] == cls.type_name)
        assert [bytes(x) for x in values] == sorted(bytes(x) for x in values)
    assert pgkuid.Sno.boundary(t) != pgkuid.Muid.boundary(t)
    with pytest.raises(TypeError):
        pgkuid.Sno.boundary(t) < pgkuid.Muid.boundary(t)


def test_boundary():
    """boundary(t) is the smallest ID at or after t: every ID of an earlier
    tick is below it, every ID of its tick or later at or above."""
    t = datetime(2030, 1, 2, 3, 4, 5, 6001, tzinfo=UTC)
    cases = [
        (pgkuid.Sno, lambda tm: pgkuid.Sno.from_parts(tm, 255, 65535, 65535, 1), timedelta(microseconds=4000)),
        (pgkuid.Muid, lambda tm: pgkuid.Muid.from_parts(tm, 2**44 - 1, -1), timedelta(microseconds=1)),
        (pgkuid.SnowflakeSi, lambda tm: pgkuid.SnowflakeSi.from_parts(tm, 31, 255), timedelta(milliseconds=1)),
        (pgkuid.Revts8, lambda tm: pgkuid.Revts8.from_parts(tm, 63, 63, 15), timedelta(milliseconds=1)),
        (pgkuid.Uid60, lambda tm: pgkuid.Uid60.from_parts(tm, 511, 1023, 511), timedelta(seconds=1)),
    ]
    for cls, largest, tick in cases:
        b = cls.boundary(t)
        assert b.timestamp >= t > b.timestamp - tick
        assert largest(b.timestamp - tick) < b <= largest(b.timestamp)
        assert cls.boundary(b.timestamp) == b
        assert cls.boundary(datetime(1900, 1, 1, tzinfo=UTC)) == cls.from_bytes(bytes(len(bytes(b))))


EPOCH_RULE = ("The base clock must be a whole number of milliseconds"
              " from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.")
LAST_EPOCH_MS = 9222272525227000  # 294212-03-08 08:07:07+00


@pytest.mark.parametrize("epoch,text", [
    (1047972019224, "2003-03-18 07:20:19.224+00"),
    (datetime(2003, 3, 18, 7, 20, 19, 224000, tzinfo=UTC), "2003-03-18 07:20:19.224+00"),
    (datetime(2024, 1, 1, 0, 0, 0, 500, tzinfo=UTC), "2024-01-01 00:00:00.0005+00"),
    (LAST_EPOCH_MS + 1, "294212-03-08 08:07:07.001+00"),
    (9224318015999999, "294276-12-31 23:59:59.999+00"),
    (-62135596800001, "0001-12-31 23:59:59.999+00 BC"),
])
def test_base_clock_refused(epoch, text):
    """A base clock outside the server's range, in its words."""
    with pytest.raises(pgkuid.InvalidParameterValue) as info:
        pgkuid.SnowflakeSi.from_int(0, epoch)
    assert (str(info.value), info.value.detail) == (
        'invalid snowflake_si base clock: "%s"' % text, EPOCH_RULE)


def test_last_base_clock():
    """The last base clock's clock ends at the last millisecond of 64-bit
    microseconds (past a datetime's range: the boundary of its first ID
    and the range in a refusal)."""
    assert pgkuid.SnowflakeSi.from_int(2**53 - 1, LAST_EPOCH_MS).index == 255
    assert str(pgkuid.SnowflakeSi.boundary(datetime(2026, 1, 1, tzinfo=UTC), LAST_EPOCH_MS)) == "0"
    with pytest.raises(pgkuid.DatetimeValueOutOfRange) as info:
        pgkuid.SnowflakeSi.from_parts(datetime(2026, 1, 1, tzinfo=UTC), 0, 0, LAST_EPOCH_MS)
    assert info.value.detail == ("The range is 294212-03-08 08:07:07+00 to"
                                 " 294247-01-10 04:00:54.775+00.")


def test_from_parts_refusals():
    """The server's errors for fields and times out of range."""
    t = datetime(2024, 1, 1, tzinfo=UTC)
    with pytest.raises(pgkuid.NumericValueOutOfRange) as info:
        pgkuid.Sno.from_parts(t, 256, 0, 0)
    assert str(info.value) == 'value 256 is out of range for argument "meta"'
    assert info.value.detail == 'Type sno takes "meta" from 0 to 255.'
    with pytest.raises(pgkuid.DatetimeValueOutOfRange) as info:
        pgkuid.Sno.from_parts(datetime(2009, 12, 31, 23, 59, 59, 999000, tzinfo=UTC), 0, 0, 0)
    assert str(info.value) == 'timestamp out of range for type sno: "2009-12-31 23:59:59.999+00"'
    assert info.value.detail == ("The range is 2010-01-01 00:00:00+00 to"
                                 " 2079-09-07 15:47:35.548+00.")
    with pytest.raises(pgkuid.DatetimeValueOutOfRange) as info:
        pgkuid.Muid.boundary(datetime(2200, 1, 1, tzinfo=UTC))
    assert info.value.detail == ("The range is 1970-01-01 00:00:00+00 to"
                                 " 2112-09-17 23:53:47.370494+00.")
    with pytest.raises(pgkuid.InvalidParameterValue) as info:
        pgkuid.SnowflakeSi.from_parts(t, 0, 0, epoch=datetime(2000, 1, 1, tzinfo=UTC))
    assert str(info.value) == 'invalid snowflake_si base clock: "2000-01-01 00:00:00+00"'
    with pytest.raises(pgkuid.NumericValueOutOfRange) as info:
        pgkuid.SnowflakeSi.from_parts(t, 32, 0)
    assert info.value.detail == 'Type snowflake_si takes "machine" from 0 to 31.'
    with pytest.raises(pgkuid.NumericValueOutOfRange):
        pgkuid.SnowflakeSi.from_parts(t, 0, 0, index_bits=14)
    with pytest.raises(TypeError):
        pgkuid.Uid60.boundary(datetime(2024, 1, 1))
