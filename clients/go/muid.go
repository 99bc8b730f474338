package pgkuid

import (
	"bytes"
	"database/sql/driver"
	"fmt"
	"time"
)

// the all-ones timestamp is Gink's sentinel, not a time from_parts takes
var muidClock = clock{"muid", 0, 1, 1<<52 - 2}

const (
	muidMedallionMax = 1<<44 - 1
	muidExpected     = "hex digits in groups of 13, 11 and 8 joined by dashes" +
		" (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups"
)

// Muid is a muid (Gink): 16 bytes; microseconds since 1970, medallion and
// the offset within its transaction. Ordered by its bytes.
type Muid struct{ b [16]byte }

func muidOf(ts, medallion uint64, offset uint32) Muid {
	var x Muid
	hi := ts<<12 | medallion>>32
	lo := (medallion&0xFFFFFFFF)<<32 | uint64(offset)
	for i := 0; i < 8; i++ {
		x.b[i] = byte(hi >> (56 - 8*i))
		x.b[8+i] = byte(lo >> (56 - 8*i))
	}
	return x
}

func (x Muid) halves() (hi, lo uint64) {
	for i := 0; i < 8; i++ {
		hi = hi<<8 | uint64(x.b[i])
		lo = lo<<8 | uint64(x.b[8+i])
	}
	return
}

// ParseMuid reads text as muid's input function does (either case, and the
// two short forms).
func ParseMuid(text string) (Muid, error) {
	groups := map[int]int{34: 3, 25: 2, 13: 1}[len(text)]
	if groups == 0 {
		return Muid{}, textError("muid", text, badLength, 0, muidExpected)
	}
	var values [3]uint64
	pos := 0
	for g, width := range []int{13, 11, 8}[:groups] {
		if g > 0 {
			if text[pos] != '-' {
				status := badChar
				if hexval(text[pos]) >= 0 {
					status = badShape
				}
				return Muid{}, textError("muid", text, status, pos, muidExpected)
			}
			pos++
		}
		for i := 0; i < width; i++ {
			d := hexval(text[pos])
			if d < 0 {
				status := badChar
				if text[pos] == '-' {
					status = badShape
				}
				return Muid{}, textError("muid", text, status, pos, muidExpected)
			}
			values[g] = values[g]<<4 | uint64(d)
			pos++
		}
	}
	return muidOf(values[0], values[1], uint32(values[2])), nil
}

// String is the text form, as muid's output function writes it.
func (x Muid) String() string {
	return fmt.Sprintf("%013X-%011X-%08X", x.ts(), x.Medallion(), uint32(x.Offset()))
}

// MuidFromBytes reads the 16-byte binary form.
func MuidFromBytes(data []byte) (Muid, error) {
	var x Muid
	if err := binaryInput(data, "muid", 16); err != nil {
		return x, err
	}
	copy(x.b[:], data)
	return x, nil
}

// Bytes is the binary form (also muid::uuid's 16 bytes).
func (x Muid) Bytes() []byte { return append([]byte(nil), x.b[:]...) }

// MuidFromUUID is uuid::muid: the same 16 bytes.
func MuidFromUUID(u [16]byte) Muid { return Muid{u} }

// UUID is muid::uuid: the same 16 bytes.
func (x Muid) UUID() [16]byte { return x.b }

func (x Muid) ts() uint64 { hi, _ := x.halves(); return hi >> 12 }

// UnixMicros is muid_timestamp() in microseconds since 1970.
func (x Muid) UnixMicros() int64 { return muidClock.unixMicros(int64(x.ts())) }

// Time is muid_timestamp(), in UTC.
func (x Muid) Time() time.Time { return time.UnixMicro(x.UnixMicros()).UTC() }

// Medallion is muid_medallion(): 0 .. 2^44 - 1.
func (x Muid) Medallion() int64 {
	hi, lo := x.halves()
	return int64((hi&0xFFF)<<32 | lo>>32)
}

// Offset is muid_offset(): signed, -1 is FFFFFFFF.
func (x Muid) Offset() int32 { _, lo := x.halves(); return int32(uint32(lo)) }

// Compare is the server's order: -1, 0 or +1.
func (x Muid) Compare(y Muid) int { return bytes.Compare(x.b[:], y.b[:]) }

// MuidFromParts is muid_from_parts(): t exact to the microsecond.
func MuidFromParts(t time.Time, medallion int64, offset int32) (Muid, error) {
	if err := checkField("muid", "medallion", medallion, 0, muidMedallionMax, 64); err != nil {
		return Muid{}, err
	}
	ts, err := muidClock.tick(t, false)
	if err != nil {
		return Muid{}, err
	}
	return muidOf(uint64(ts), uint64(medallion), uint32(offset)), nil
}

// MuidBoundary is muid_boundary(): the smallest muid at or after t.
func MuidBoundary(t time.Time) (Muid, error) {
	ts, err := muidClock.tick(t, true)
	if err != nil {
		return Muid{}, err
	}
	return muidOf(uint64(ts), 0, 0), nil
}

// Scan reads a database/sql value: the value itself or the text of a muid.
func (x *Muid) Scan(src interface{}) error {
	if v, ok := src.(Muid); ok {
		*x = v
		return nil
	}
	text, err := scanText(src, "muid")
	if err == nil {
		*x, err = ParseMuid(text)
	}
	return err
}

// Value is the text form, for database/sql.
func (x Muid) Value() (driver.Value, error) { return x.String(), nil }

// MarshalText is the text form (encoding/json writes it as to_json() does).
func (x Muid) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// UnmarshalText reads the text form.
func (x *Muid) UnmarshalText(text []byte) (err error) { *x, err = ParseMuid(string(text)); return }
