package pgkuid

import (
	"bytes"
	"database/sql/driver"
	"time"
)

const snoAlphabet = "23456789abcdefghijklmnopqrstuvwx"

var snoDigits = func() (d [256]int8) {
	for i := range d {
		d[i] = -1
	}
	for i := 0; i < len(snoAlphabet); i++ {
		d[snoAlphabet[i]] = int8(i)
		if c := snoAlphabet[i]; c >= 'a' {
			d[c-'a'+'A'] = int8(i)
		}
	}
	return
}()

var snoClock = clock{"sno", 1262304000000000, 4000, 1<<39 - 1}

// Sno is a sno (muyo/sno): 10 bytes; time in 4 ms units since 2010, the
// tick-tock bit, meta, partition and sequence. Ordered by its bytes. The
// zero value is the sno 2222222222222222.
type Sno struct{ b [10]byte }

const snoExpected = "16 characters of 2-9 and a-x"

// ParseSno reads text as sno's input function does (upper case accepted).
func ParseSno(text string) (Sno, error) {
	var x Sno
	if len(text) != 16 {
		return x, textError("sno", text, badLength, 0, snoExpected)
	}
	var hi, lo uint64 // 80 bits: hi holds the top 16
	for i := 0; i < 16; i++ {
		d := snoDigits[text[i]]
		if d < 0 {
			return x, textError("sno", text, badChar, i, snoExpected)
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(d)
	}
	x.b[0], x.b[1] = byte(hi>>8), byte(hi)
	for i := 0; i < 8; i++ {
		x.b[2+i] = byte(lo >> (56 - 8*i))
	}
	return x, nil
}

func (x Sno) halves() (hi, lo uint64) {
	hi = uint64(x.b[0])<<8 | uint64(x.b[1])
	for i := 0; i < 8; i++ {
		lo = lo<<8 | uint64(x.b[2+i])
	}
	return
}

// String is the text form, as sno's output function writes it.
func (x Sno) String() string {
	hi, lo := x.halves()
	var out [16]byte
	for i := 15; i >= 0; i-- {
		out[i] = snoAlphabet[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// SnoFromBytes reads the 10-byte binary form (send/recv).
func SnoFromBytes(data []byte) (Sno, error) {
	var x Sno
	if err := binaryInput(data, "sno", 10); err != nil {
		return x, err
	}
	copy(x.b[:], data)
	return x, nil
}

// Bytes is the binary form.
func (x Sno) Bytes() []byte { return append([]byte(nil), x.b[:]...) }

func (x Sno) units() int64 { hi, lo := x.halves(); return int64(hi<<23 | lo>>41) }

// UnixMicros is sno_timestamp() in microseconds since 1970: the start of its 4 ms unit.
func (x Sno) UnixMicros() int64 { return snoClock.unixMicros(x.units()) }

// Time is sno_timestamp(), in UTC.
func (x Sno) Time() time.Time { return time.UnixMicro(x.UnixMicros()).UTC() }

// Tick is sno_tick(): the tick-tock bit.
func (x Sno) Tick() int { return int(x.b[4] & 1) }

// Meta is sno_meta(): the metabyte.
func (x Sno) Meta() int { return int(x.b[5]) }

// Partition is sno_partition().
func (x Sno) Partition() int { return int(x.b[6])<<8 | int(x.b[7]) }

// Sequence is sno_sequence().
func (x Sno) Sequence() int { return int(x.b[8])<<8 | int(x.b[9]) }

// Compare is the server's order: -1, 0 or +1.
func (x Sno) Compare(y Sno) int { return bytes.Compare(x.b[:], y.b[:]) }

func snoOf(units int64, tick, meta, partition, sequence int) Sno {
	lo := uint64(units)<<41 | uint64(tick)<<40 | uint64(meta)<<32 | uint64(partition)<<16 | uint64(sequence)
	hi := uint64(units) >> 23
	var x Sno
	x.b[0], x.b[1] = byte(hi>>8), byte(hi)
	for i := 0; i < 8; i++ {
		x.b[2+i] = byte(lo >> (56 - 8*i))
	}
	return x
}

// SnoFromParts is sno_from_parts(): t floored to 4 ms; the same checks and errors.
func SnoFromParts(t time.Time, meta, partition, sequence, tick int) (Sno, error) {
	if err := checkFields("sno", field{"meta", meta, 255}, field{"partition", partition, 0xFFFF}, field{"sequence", sequence, 0xFFFF}, field{"tick", tick, 1}); err != nil {
		return Sno{}, err
	}
	units, err := snoClock.tick(t, false)
	if err != nil {
		return Sno{}, err
	}
	return snoOf(units, tick, meta, partition, sequence), nil
}

// SnoBoundary is sno_boundary(): the smallest sno at or after t.
func SnoBoundary(t time.Time) (Sno, error) {
	units, err := snoClock.tick(t, true)
	if err != nil {
		return Sno{}, err
	}
	return snoOf(units, 0, 0, 0, 0), nil
}

// Scan reads a database/sql value: the value itself or the text of a sno.
func (x *Sno) Scan(src interface{}) error {
	if v, ok := src.(Sno); ok {
		*x = v
		return nil
	}
	text, err := scanText(src, "sno")
	if err == nil {
		*x, err = ParseSno(text)
	}
	return err
}

// Value is the text form, for database/sql.
func (x Sno) Value() (driver.Value, error) { return x.String(), nil }

// MarshalText is the text form (encoding/json writes it as to_json() does).
func (x Sno) MarshalText() ([]byte, error) { return []byte(x.String()), nil }

// UnmarshalText reads the text form.
func (x *Sno) UnmarshalText(text []byte) (err error) { *x, err = ParseSno(string(text)); return }
