// Package pgkuid holds value types for the five ID types of the PostgreSQL
// extension uid (sno, muid, snowflake_si, revts8 and uid60): they parse,
// format, take apart, order and make boundaries exactly as the server does,
// refuse what it refuses in its words, and are database/sql Scanners and
// Valuers (the text form). Package pgkuid/pgxuid registers them with pgx.
package pgkuid

import (
	"fmt"
	"math"
	"time"
)

// The SQLSTATEs of the errors the server raises for values it refuses.
const (
	InvalidTextRepresentation   = "22P02"
	InvalidBinaryRepresentation = "22P03"
	NumericValueOutOfRange      = "22003"
	DatetimeValueOutOfRange     = "22008"
	InvalidParameterValue       = "22023"
)

// Error is a value the server refuses: its SQLSTATE, message, DETAIL and
// HINT as the server reports them ("" where it has none).
type Error struct {
	SQLState, Message, Detail, Hint string
}

func (e *Error) Error() string { return e.Message }

// What the input functions found wrong (the codecs' uid_status).
const (
	badLength = iota
	badChar
	badShape
	badReserved
	outOfRange
)

// textError is the error the server's T_in raises for text it refuses;
// positions and lengths count bytes, as the server's do.
func textError(typeName, text string, status, badPos int, expected string) *Error {
	hint := "Expected " + expected + "."
	if status == outOfRange {
		return &Error{NumericValueOutOfRange,
			fmt.Sprintf("value \"%s\" is out of range for type %s", text, typeName), "", hint}
	}
	var detail string
	switch status {
	case badChar:
		detail = fmt.Sprintf("Character %d is not allowed here.", badPos+1)
	case badLength:
		detail = fmt.Sprintf("The input is %d characters long.", len(text))
	case badShape:
		detail = fmt.Sprintf("Character %d is out of place: a group has the wrong number of digits.", badPos+1)
	default:
		detail = "Reserved bits are set."
	}
	return &Error{InvalidTextRepresentation,
		fmt.Sprintf("invalid input syntax for type %s: \"%s\"", typeName, text), detail, hint}
}

// binaryInput is the server's error for a binary value of another length.
func binaryInput(data []byte, typeName string, length int) error {
	if len(data) != length {
		return &Error{InvalidBinaryRepresentation,
			fmt.Sprintf("invalid binary length for type %s: %d bytes", typeName, len(data)),
			fmt.Sprintf("A %s is %d bytes.", typeName, length), ""}
	}
	return nil
}

// checkField is value, or the server's 22003 for an argument outside lo..hi
// (or outside integer's range, for an int argument: bits 32).
func checkField(typeName, arg string, value, lo, hi int64, bits int) error {
	if bits == 32 && (value < -1<<31 || value >= 1<<31) {
		return &Error{NumericValueOutOfRange, "integer out of range", "", ""}
	}
	if value < lo || value > hi {
		return &Error{NumericValueOutOfRange,
			fmt.Sprintf("value %d is out of range for argument \"%s\"", value, arg),
			fmt.Sprintf("Type %s takes \"%s\" from %d to %d.", typeName, arg, lo, hi), ""}
	}
	return nil
}

// checkRange is the error for a value of a type whose values are 0..hi:
// 22P03 for binary input, 22003 for a bigint.
func checkRange(typeName string, value, hi int64, binary bool) error {
	if value >= 0 && value <= hi {
		return nil
	}
	format, code := "value %d is out of range for type %s", NumericValueOutOfRange
	if binary {
		format, code = "binary value %d is out of range for type %s", InvalidBinaryRepresentation
	}
	return &Error{code, fmt.Sprintf(format, value, typeName),
		fmt.Sprintf("A %s is between 0 and %d.", typeName, hi), ""}
}

// timestampText writes a time as the server does in messages (ISO, UTC).
func timestampText(us int64) string { return timeText(time.UnixMicro(us)) }

// timeText is the same of a time, to its microsecond.
func timeText(t time.Time) string {
	t = t.UTC()
	text := fmt.Sprintf("%04d-%02d-%02d %02d:%02d:%02d", t.Year(), t.Month(), t.Day(),
		t.Hour(), t.Minute(), t.Second())
	if frac := t.Nanosecond() / 1000; frac != 0 {
		digits := fmt.Sprintf("%06d", frac)
		for digits[len(digits)-1] == '0' {
			digits = digits[:len(digits)-1]
		}
		text += "." + digits
	}
	return text + "+00"
}

// clock is a format's clock: ticks of tickUs microseconds from epochUs
// (Unix), 0..tickMax (the server's UidClockSpec).
type clock struct {
	typeName                 string
	epochUs, tickUs, tickMax int64
}

// tick is the tick that holds t (roundUp false: from_parts), or the first
// at or after it (true: boundary; earlier times give 0); 22008 outside the
// range. A time counts to its microsecond, as a timestamptz holds it.
func (c clock) tick(t time.Time, roundUp bool) (int64, error) {
	// past int64 microseconds (t.UnixMicro() would wrap), outside every clock
	if t.After(lastMicro) {
		return 0, c.outOfRange(t)
	}
	us := t.UnixMicro()
	if t.Before(firstMicro) || us < c.epochUs {
		if roundUp {
			return 0, nil
		}
		return 0, c.outOfRange(t)
	}
	rel := us - c.epochUs
	tick, rest := rel/c.tickUs, rel%c.tickUs
	if roundUp && rest != 0 {
		tick++
	}
	if tick > c.tickMax {
		return 0, c.outOfRange(t)
	}
	return tick, nil
}

// the first and last times of int64 microseconds since 1970
var firstMicro, lastMicro = time.UnixMicro(math.MinInt64), time.UnixMicro(math.MaxInt64)

// unixMicros is the start of a tick.
func (c clock) unixMicros(tick int64) int64 { return c.epochUs + tick*c.tickUs }

func (c clock) outOfRange(t time.Time) *Error {
	return &Error{DatetimeValueOutOfRange,
		fmt.Sprintf("timestamp out of range for type %s: \"%s\"", c.typeName, timeText(t.Truncate(time.Microsecond))),
		fmt.Sprintf("The range is %s to %s.", timestampText(c.epochUs),
			timestampText(c.epochUs+c.tickMax*c.tickUs)), ""}
}

// hexval is the value of an ASCII hex digit of either case, or -1.
func hexval(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c|0x20 >= 'a' && c|0x20 <= 'f':
		return int(c|0x20) - 'a' + 10
	}
	return -1
}

// compare is the integers' order: -1, 0 or +1.
func compare[N int64 | uint64](a, b N) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// field is an argument of a from_parts function: its name, value and largest value.
type field struct {
	name   string
	v, max int
}

// checkFields is the server's error for the first argument outside 0..max.
func checkFields(typeName string, fields ...field) error {
	for _, f := range fields {
		if err := checkField(typeName, f.name, int64(f.v), 0, int64(f.max), 32); err != nil {
			return err
		}
	}
	return nil
}

// scanText is the text of a database/sql source: a string or []byte.
func scanText(src interface{}, typeName string) (string, error) {
	switch s := src.(type) {
	case string:
		return s, nil
	case []byte:
		return string(s), nil
	case nil:
		return "", fmt.Errorf("pgkuid: cannot scan NULL into a %s (scan into a pointer to one)", typeName)
	}
	return "", fmt.Errorf("pgkuid: cannot scan %T into a %s", src, typeName)
}
