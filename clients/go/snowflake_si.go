package pgkuid

import (
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"
)

const (
	snowflakeSiMax      = 1<<53 - 1
	snowflakeSiMabMax   = 1<<40 - 1
	snowflakeSiEpochMin = 1047972019225 // ms: 2003-03-18 07:20:19.225+00
	// the last base clock whose clock, to its 40-bit end, has its
	// microseconds in an int64: 294212-03-08 08:07:07+00 (the server's too)
	snowflakeSiEpochMax = math.MaxInt64/1000 - snowflakeSiMabMax
	snowflakeSiExpected = "a decimal integer from 0 to 9007199254740991"
	defaultIndexBits    = 8
	defaultEpochUnixMs  = 1704067200000 // 2024-01-01T00:00:00Z
)

// Layout is what the server reads from uid.snowflake_si_epoch and
// uid.snowflake_si_index_bits to take a snowflake_si apart: the base clock
// in milliseconds since 1970 and the index width. A client cannot read
// them by itself; the zero Layout is the settings' defaults (2024-01-01 and 8).
type Layout struct {
	EpochUnixMs int64
	IndexBits   int
}

// DefaultLayout is the settings' defaults.
var DefaultLayout = Layout{defaultEpochUnixMs, defaultIndexBits}

// the server's DETAIL for a base clock it refuses
const snowflakeSiEpochRule = "The base clock must be a whole number of milliseconds" +
	" from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00."

// check is the layout with its zero fields defaulted, or the server's
// error for a base clock (22023) or width (22003) it refuses.
func (l Layout) check() (Layout, error) {
	l = l.Or()
	if l.EpochUnixMs < snowflakeSiEpochMin || l.EpochUnixMs > snowflakeSiEpochMax {
		return l, &Error{InvalidParameterValue,
			fmt.Sprintf("invalid snowflake_si base clock: \"%s\"", timeText(time.UnixMilli(l.EpochUnixMs))),
			snowflakeSiEpochRule, ""}
	}
	if err := checkField("snowflake_si", "index_bits", int64(l.IndexBits), 1, 13, 32); err != nil {
		return l, err
	}
	return l, nil
}

// LayoutOf is the layout of a base clock given as a time, which must be a
// whole number of milliseconds, and an index width.
func LayoutOf(epoch time.Time, indexBits int) (Layout, error) {
	// (in milliseconds: the microseconds of a late one are past an int64)
	if epoch.Nanosecond()%1000000 != 0 {
		return Layout{}, &Error{InvalidParameterValue,
			fmt.Sprintf("invalid snowflake_si base clock: \"%s\"", timeText(epoch.Truncate(time.Microsecond))),
			snowflakeSiEpochRule, ""}
	}
	return Layout{epoch.UnixMilli(), indexBits}.check()
}

// SnowflakeSi is a snowflake_si (Snowflake-SI): a 53-bit integer,
// milliseconds after a base clock, machine id and index. Ordered as the
// integer. A value carries the Layout it was read with for its time, machine
// and index, outside equality (use Equal or ==, which compare the layout
// too, accordingly) and Compare.
type SnowflakeSi struct {
	value  int64
	layout Layout
}

func (l Layout) make(value int64) (SnowflakeSi, error) {
	l, err := l.check()
	return SnowflakeSi{value, l}, err
}

// ParseSnowflakeSi reads decimal text (white space around it and leading
// zeros allowed, as for bigint) with the default layout.
func ParseSnowflakeSi(text string) (SnowflakeSi, error) { return DefaultLayout.Parse(text) }

// Parse reads decimal text under this layout.
func (l Layout) Parse(text string) (SnowflakeSi, error) {
	start, end := 0, len(text)
	isSpace := func(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
	for start < end && isSpace(text[start]) {
		start++
	}
	for end > start && isSpace(text[end-1]) {
		end--
	}
	if start == end {
		return SnowflakeSi{}, textError("snowflake_si", text, badChar, len(text), snowflakeSiExpected)
	}
	for i := start; i < end; i++ {
		if text[i] < '0' || text[i] > '9' {
			return SnowflakeSi{}, textError("snowflake_si", text, badChar, i, snowflakeSiExpected)
		}
	}
	value, err := strconv.ParseUint(text[start:end], 10, 64)
	if err != nil || value > snowflakeSiMax {
		return SnowflakeSi{}, textError("snowflake_si", text, outOfRange, 0, snowflakeSiExpected)
	}
	return l.make(int64(value))
}

// String is the text form: the decimal integer.
func (x SnowflakeSi) String() string { return strconv.FormatInt(x.value, 10) }

// SnowflakeSiFromBytes reads the binary form (a big-endian int64) with the default layout.
func SnowflakeSiFromBytes(data []byte) (SnowflakeSi, error) { return DefaultLayout.FromBytes(data) }

// FromBytes reads the binary form under this layout.
func (l Layout) FromBytes(data []byte) (SnowflakeSi, error) {
	if err := binaryInput(data, "snowflake_si", 8); err != nil {
		return SnowflakeSi{}, err
	}
	value := int64(binary.BigEndian.Uint64(data))
	if err := checkRange("snowflake_si", value, snowflakeSiMax, true); err != nil {
		return SnowflakeSi{}, err
	}
	return l.make(value)
}

// SnowflakeSiFromInt64 is bigint::snowflake_si: 0 .. 2^53 - 1, else 22003.
func SnowflakeSiFromInt64(value int64) (SnowflakeSi, error) { return DefaultLayout.FromInt64(value) }

// FromInt64 is bigint::snowflake_si under this layout.
func (l Layout) FromInt64(value int64) (SnowflakeSi, error) {
	if err := checkRange("snowflake_si", value, snowflakeSiMax, false); err != nil {
		return SnowflakeSi{}, err
	}
	return l.make(value)
}

// Bytes is the binary form.
func (x SnowflakeSi) Bytes() []byte { return binary.BigEndian.AppendUint64(nil, uint64(x.value)) }

// Int64 is id::bigint.
func (x SnowflakeSi) Int64() int64 { return x.value }

// Layout is the layout the value was read with.
func (x SnowflakeSi) Layout() Layout {
	if x.layout == (Layout{}) {
		return DefaultLayout
	}
	return x.layout
}

// WithLayout is the same ID under another layout.
func (x SnowflakeSi) WithLayout(l Layout) (SnowflakeSi, error) { return l.make(x.value) }

// UnixMicros is snowflake_si_timestamp(id, epoch) in microseconds since 1970.
func (x SnowflakeSi) UnixMicros() int64 { return (x.Layout().EpochUnixMs + x.value>>13) * 1000 }

// Time is snowflake_si_timestamp(id, epoch), in UTC: the start of its millisecond.
func (x SnowflakeSi) Time() time.Time { return time.UnixMicro(x.UnixMicros()).UTC() }

// Machine is snowflake_si_machine(id, index_bits).
func (x SnowflakeSi) Machine() int {
	k := x.Layout().IndexBits
	return int(x.value>>k) & (1<<(13-k) - 1)
}

// Index is snowflake_si_index(id, index_bits).
func (x SnowflakeSi) Index() int { return int(x.value) & (1<<x.Layout().IndexBits - 1) }

// Compare is the server's order (the integer's): -1, 0 or +1.
func (x SnowflakeSi) Compare(y SnowflakeSi) int { return compare(x.value, y.value) }

func snowflakeSiClock(epochMs int64) clock {
	return clock{"snowflake_si", epochMs * 1000, 1000, snowflakeSiMabMax}
}

// SnowflakeSiFromParts is snowflake_si_from_parts() with the default layout.
func SnowflakeSiFromParts(t time.Time, machine, index int) (SnowflakeSi, error) {
	return DefaultLayout.FromParts(t, machine, index)
}

// FromParts is snowflake_si_from_parts(t, machine, index, epoch,
// index_bits): t floored to the millisecond.
func (l Layout) FromParts(t time.Time, machine, index int) (SnowflakeSi, error) {
	l, err := l.check()
	if err != nil {
		return SnowflakeSi{}, err
	}
	k := l.IndexBits
	if err := checkField("snowflake_si", "machine", int64(machine), 0, 1<<(13-k)-1, 32); err != nil {
		return SnowflakeSi{}, err
	}
	if err := checkField("snowflake_si", "index", int64(index), 0, 1<<k-1, 32); err != nil {
		return SnowflakeSi{}, err
	}
	mab, err := snowflakeSiClock(l.EpochUnixMs).tick(t, false)
	if err != nil {
		return SnowflakeSi{}, err
	}
	return SnowflakeSi{mab<<13 | int64(machine)<<k | int64(index), l}, nil
}

// SnowflakeSiBoundary is snowflake_si_boundary() on a server with the default layout.
func SnowflakeSiBoundary(t time.Time) (SnowflakeSi, error) { return DefaultLayout.Boundary(t) }

// Boundary is snowflake_si_boundary() on a server whose base clock is this
// layout's (the width only goes with the result).
func (l Layout) Boundary(t time.Time) (SnowflakeSi, error) {
	l, err := l.check()
	if err != nil {
		return SnowflakeSi{}, err
	}
	mab, err := snowflakeSiClock(l.EpochUnixMs).tick(t, true)
	if err != nil {
		return SnowflakeSi{}, err
	}
	return SnowflakeSi{mab << 13, l}, nil
}

// Scan reads a database/sql value: the value itself (as package pgxuid
// gives it, with the layout registered), or the text of a snowflake_si or
// an int64, read under the layout x has (the default for a zero value).
func (x *SnowflakeSi) Scan(src interface{}) error {
	if v, ok := src.(SnowflakeSi); ok {
		*x = v
		return nil
	}
	l := x.layout
	if n, ok := src.(int64); ok {
		v, err := l.FromInt64(n)
		if err == nil {
			*x = v
		}
		return err
	}
	text, err := scanText(src, "snowflake_si")
	if err == nil {
		var v SnowflakeSi
		if v, err = l.Parse(text); err == nil {
			*x = v
		}
	}
	return err
}

// Value is the text form, for database/sql.
func (x SnowflakeSi) Value() (driver.Value, error) { return x.String(), nil }

// MarshalText is the text form (encoding/json writes it as to_json() does: a string).
func (x SnowflakeSi) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// UnmarshalText reads the text form, keeping the value's layout.
func (x *SnowflakeSi) UnmarshalText(text []byte) error { return x.Scan(string(text)) }

// Or is the layout with its zero fields the defaults'.
func (l Layout) Or() Layout {
	if l.EpochUnixMs == 0 {
		l.EpochUnixMs = defaultEpochUnixMs
	}
	if l.IndexBits == 0 {
		l.IndexBits = defaultIndexBits
	}
	return l
}
