package pgkuid

import (
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"math/bits"
	"time"
)

const (
	revts8Reserved = 0xFC00
	revts8LowMask  = 1<<22 - 1
	revts8TsMax    = 1<<42 - 1
	revts8Expected = "16 hexadecimal digits with bits 15 to 10 clear"
)

var revts8Clock = clock{"revts8", 0, 1000, revts8TsMax}

// Revts8 is a revts8 (LableOrg/java-uniqueid): 8 bytes, the millisecond
// timestamp bit-reversed, then sequence, generator and cluster. Ordered by
// time (timestamp, sequence, generator, cluster) as the default revts8_ops,
// not by its bytes (CompareBytes gives that order).
type Revts8 struct{ key uint64 } // time-ordered: timestamp << 22 | the low 22 bits

// revts8Of is the ID of the canonical 64 bits, or the error for reserved
// bits set in a value from source ("binary", "bigint").
func revts8Of(canonical uint64, source string) (Revts8, error) {
	if canonical&revts8Reserved != 0 {
		code := NumericValueOutOfRange
		if source == "binary" {
			code = InvalidBinaryRepresentation
		}
		return Revts8{}, &Error{code, fmt.Sprintf("invalid %s value for type revts8: reserved bits are set", source),
			fmt.Sprintf("Bits 15 to 10 of a revts8 must be zero; the value is %016x.", canonical), ""}
	}
	return Revts8{(bits.Reverse64(canonical)&revts8TsMax)<<22 | canonical&revts8LowMask}, nil
}

// ParseRevts8 reads text as revts8's input function does.
func ParseRevts8(text string) (Revts8, error) {
	if len(text) != 16 {
		return Revts8{}, textError("revts8", text, badLength, 0, revts8Expected)
	}
	var canonical uint64
	for i := 0; i < 16; i++ {
		d := hexval(text[i])
		if d < 0 {
			return Revts8{}, textError("revts8", text, badChar, i, revts8Expected)
		}
		canonical = canonical<<4 | uint64(d)
	}
	if canonical&revts8Reserved != 0 {
		return Revts8{}, textError("revts8", text, badReserved, 0, revts8Expected)
	}
	return revts8Of(canonical, "")
}

func (x Revts8) canonical() uint64 { return bits.Reverse64(x.key>>22) | x.key&revts8LowMask }

// String is the text form: the 8 bytes in hex.
func (x Revts8) String() string { return fmt.Sprintf("%016x", x.canonical()) }

// Revts8FromBytes reads the 8-byte binary form.
func Revts8FromBytes(data []byte) (Revts8, error) {
	if err := binaryInput(data, "revts8", 8); err != nil {
		return Revts8{}, err
	}
	return revts8Of(binary.BigEndian.Uint64(data), "binary")
}

// Revts8FromInt64 is bigint::revts8: the bytes as a signed big-endian integer.
func Revts8FromInt64(value int64) (Revts8, error) { return revts8Of(uint64(value), "bigint") }

// Bytes is the binary form.
func (x Revts8) Bytes() []byte { return binary.BigEndian.AppendUint64(nil, x.canonical()) }

// Int64 is id::bigint.
func (x Revts8) Int64() int64 { return int64(x.canonical()) }

// UnixMicros is revts8_timestamp() in microseconds since 1970: its millisecond.
func (x Revts8) UnixMicros() int64 { return revts8Clock.unixMicros(int64(x.key >> 22)) }

// Time is revts8_timestamp(), in UTC.
func (x Revts8) Time() time.Time { return time.UnixMicro(x.UnixMicros()).UTC() }

// Sequence is revts8_sequence(): 0 .. 63.
func (x Revts8) Sequence() int { return int(x.key>>16) & 63 }

// Generator is revts8_generator(): 0 .. 63.
func (x Revts8) Generator() int { return int(x.key>>4) & 63 }

// Cluster is revts8_cluster(): 0 .. 15.
func (x Revts8) Cluster() int { return int(x.key) & 15 }

// Compare is the server's default order (time): -1, 0 or +1.
func (x Revts8) Compare(y Revts8) int { return compare(x.key, y.key) }

// CompareBytes is the order of revts8_bytes_ops: the bytes'.
func (x Revts8) CompareBytes(y Revts8) int { return compare(x.canonical(), y.canonical()) }

// Revts8FromParts is revts8_from_parts(): t floored to the millisecond.
func Revts8FromParts(t time.Time, sequence, generator, cluster int) (Revts8, error) {
	if err := checkFields("revts8", field{"sequence", sequence, 63}, field{"generator", generator, 63}, field{"cluster", cluster, 15}); err != nil {
		return Revts8{}, err
	}
	ts, err := revts8Clock.tick(t, false)
	if err != nil {
		return Revts8{}, err
	}
	return Revts8{uint64(ts)<<22 | uint64(sequence)<<16 | uint64(generator)<<4 | uint64(cluster)}, nil
}

// Revts8Boundary is revts8_boundary(): the smallest ID in time order at or after t.
func Revts8Boundary(t time.Time) (Revts8, error) {
	ts, err := revts8Clock.tick(t, true)
	if err != nil {
		return Revts8{}, err
	}
	return Revts8{uint64(ts) << 22}, nil
}

// Scan reads a database/sql value: the value itself or the text of a revts8.
func (x *Revts8) Scan(src interface{}) error {
	if v, ok := src.(Revts8); ok {
		*x = v
		return nil
	}
	text, err := scanText(src, "revts8")
	if err == nil {
		*x, err = ParseRevts8(text)
	}
	return err
}

// Value is the text form, for database/sql.
func (x Revts8) Value() (driver.Value, error) { return x.String(), nil }

// MarshalText is the text form (encoding/json writes it as to_json() does).
func (x Revts8) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// UnmarshalText reads the text form.
func (x *Revts8) UnmarshalText(text []byte) (err error) { *x, err = ParseRevts8(string(text)); return }
