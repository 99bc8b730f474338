package pgkuid

import (
	"database/sql/driver"
	"encoding/binary"
	"math/bits"
	"strings"
	"time"
)

const (
	uid60Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	uid60Max      = 1<<60 - 1
	uid60LowMask  = 1<<28 - 1
	uid60Expected = "10 characters of A-Z, a-z, 0-9, - and _"
)

var uid60Clock = clock{"uid60", 1519862400000000, 1000000, 1<<32 - 1}

// Uid60 is a uid60 (abyss-club/uexky): a 60-bit integer, seconds since
// 2018-03-01, worker, sequence and random bits. Ordered as the integer (its
// text, made to look random, is not in that order).
type Uid60 struct{ value uint64 }

// uid60Display is n with its 32-bit timestamp bit-reversed (its own inverse).
func uid60Display(n uint64) uint64 {
	return uint64(bits.Reverse32(uint32(n>>28)))<<28 | n&uid60LowMask
}

// ParseUid60 reads text as uid60's input function does.
func ParseUid60(text string) (Uid60, error) {
	if len(text) != 10 {
		return Uid60{}, textError("uid60", text, badLength, 0, uid60Expected)
	}
	var m uint64
	for i := 0; i < 10; i++ {
		d := strings.IndexByte(uid60Alphabet, text[i])
		if d < 0 {
			return Uid60{}, textError("uid60", text, badChar, i, uid60Expected)
		}
		m = m<<6 | uint64(d)
	}
	return Uid60{uid60Display(m)}, nil
}

// String is the text form, as uid60's output function writes it.
func (x Uid60) String() string {
	m := uid60Display(x.value)
	var out [10]byte
	for i := 9; i >= 0; i-- {
		out[i] = uid60Alphabet[m&63]
		m >>= 6
	}
	return string(out[:])
}

// Uid60FromBytes reads the binary form (a big-endian int64).
func Uid60FromBytes(data []byte) (Uid60, error) {
	if err := binaryInput(data, "uid60", 8); err != nil {
		return Uid60{}, err
	}
	value := int64(binary.BigEndian.Uint64(data))
	if err := checkRange("uid60", value, uid60Max, true); err != nil {
		return Uid60{}, err
	}
	return Uid60{uint64(value)}, nil
}

// Uid60FromInt64 is bigint::uid60: 0 .. 2^60 - 1, else 22003.
func Uid60FromInt64(value int64) (Uid60, error) {
	if err := checkRange("uid60", value, uid60Max, false); err != nil {
		return Uid60{}, err
	}
	return Uid60{uint64(value)}, nil
}

// Bytes is the binary form.
func (x Uid60) Bytes() []byte { return binary.BigEndian.AppendUint64(nil, x.value) }

// Int64 is id::bigint.
func (x Uid60) Int64() int64 { return int64(x.value) }

// UnixMicros is uid60_timestamp() in microseconds since 1970: its second.
func (x Uid60) UnixMicros() int64 { return uid60Clock.unixMicros(int64(x.value >> 28)) }

// Time is uid60_timestamp(), in UTC.
func (x Uid60) Time() time.Time { return time.UnixMicro(x.UnixMicros()).UTC() }

// Worker is uid60_worker(): 0 .. 511.
func (x Uid60) Worker() int { return int(x.value>>19) & 511 }

// Sequence is uid60_sequence(): 0 .. 1023.
func (x Uid60) Sequence() int { return int(x.value>>9) & 1023 }

// Random is uid60_random(): 0 .. 511.
func (x Uid60) Random() int { return int(x.value) & 511 }

// Compare is the server's order (the integer's): -1, 0 or +1.
func (x Uid60) Compare(y Uid60) int { return compare(x.value, y.value) }

// Uid60FromParts is uid60_from_parts(): t floored to the second.
func Uid60FromParts(t time.Time, worker, sequence, random int) (Uid60, error) {
	if err := checkFields("uid60", field{"worker", worker, 511}, field{"sequence", sequence, 1023}, field{"random", random, 511}); err != nil {
		return Uid60{}, err
	}
	ts, err := uid60Clock.tick(t, false)
	if err != nil {
		return Uid60{}, err
	}
	return Uid60{uint64(ts)<<28 | uint64(worker)<<19 | uint64(sequence)<<9 | uint64(random)}, nil
}

// Uid60Boundary is uid60_boundary(): the smallest ID at or after t.
func Uid60Boundary(t time.Time) (Uid60, error) {
	ts, err := uid60Clock.tick(t, true)
	if err != nil {
		return Uid60{}, err
	}
	return Uid60{uint64(ts) << 28}, nil
}

// Scan reads a database/sql value: the value itself or the text of a uid60.
func (x *Uid60) Scan(src interface{}) error {
	if v, ok := src.(Uid60); ok {
		*x = v
		return nil
	}
	text, err := scanText(src, "uid60")
	if err == nil {
		*x, err = ParseUid60(text)
	}
	return err
}

// Value is the text form, for database/sql.
func (x Uid60) Value() (driver.Value, error) { return x.String(), nil }

// MarshalText is the text form (encoding/json writes it as to_json() does).
func (x Uid60) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// UnmarshalText reads the text form.
func (x *Uid60) UnmarshalText(text []byte) (err error) { *x, err = ParseUid60(string(text)); return }
