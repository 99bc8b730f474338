package pgkuid

// The value types against the shared vectors (clients/vectors/vectors.json,
// made by the server's C codecs; UID_VECTORS names another file), offline.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

type vector struct {
	Type    string                 `json:"type"`
	Input   string                 `json:"input"`
	Options map[string]interface{} `json:"options"`
	Text    string                 `json:"text"`
	Bytes   string                 `json:"bytes"`
	UnixUs  int64                  `json:"unix_us"`
	Bigint  *int64                 `json:"bigint"`
	UUID    string                 `json:"uuid"`
	Fields  map[string]json.RawMessage
}

// fieldNames are each type's fields, named as its SQL accessors.
var fieldNames = map[string][]string{
	"sno": {"meta", "partition", "sequence", "tick"}, "muid": {"medallion", "offset"},
	"snowflake_si": {"machine", "index"}, "revts8": {"sequence", "generator", "cluster"},
	"uid60": {"worker", "sequence", "random"},
}

func loadVectors(t testing.TB) (ids, refused []vector) {
	path := os.Getenv("UID_VECTORS")
	if path == "" {
		path = filepath.Join("..", "vectors", "vectors.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var raw struct{ IDs, Refused []json.RawMessage }
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	read := func(list []json.RawMessage) (out []vector) {
		for _, r := range list {
			var v vector
			if err := json.Unmarshal(r, &v); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(r, &v.Fields); err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return
	}
	return read(raw.IDs), read(raw.Refused)
}

// layoutOf is a vector's snowflake_si options.
func layoutOf(t testing.TB, v vector) Layout {
	var l Layout
	if e, ok := v.Options["epoch"].(string); ok {
		if ms, err := strconv.ParseInt(e, 10, 64); err == nil {
			l.EpochUnixMs = ms
		} else {
			at, err := time.Parse(time.RFC3339Nano, e)
			if err != nil {
				t.Fatal(err)
			}
			l.EpochUnixMs = at.UnixMilli()
		}
	}
	if b, ok := v.Options["index_bits"].(float64); ok {
		l.IndexBits = int(b)
	}
	return l
}

// value is what every type has, for the tests.
type value interface {
	String() string
	Bytes() []byte
	UnixMicros() int64
}

// read is a vector's ID, read from its input as the type reads it.
func read(t testing.TB, v vector) (value, error) {
	l := layoutOf(t, v)
	if strings.HasPrefix(v.Input, "0x") {
		data, err := hex.DecodeString(v.Input[2:])
		if err != nil {
			t.Fatal(err)
		}
		switch v.Type {
		case "sno":
			return SnoFromBytes(data)
		case "muid":
			return MuidFromBytes(data)
		case "snowflake_si":
			return l.FromBytes(data)
		case "revts8":
			return Revts8FromBytes(data)
		case "uid60":
			return Uid60FromBytes(data)
		}
	}
	switch v.Type {
	case "sno":
		return ParseSno(v.Input)
	case "muid":
		return ParseMuid(v.Input)
	case "snowflake_si":
		return l.Parse(v.Input)
	case "revts8":
		return ParseRevts8(v.Input)
	case "uid60":
		return ParseUid60(v.Input)
	}
	t.Fatalf("no type %s", v.Type)
	return nil, nil
}

// fields are a value's fields by accessor name, and its bigint.
func fields(x value) (map[string]int64, *int64) {
	switch x := x.(type) {
	case Sno:
		return map[string]int64{"meta": int64(x.Meta()), "partition": int64(x.Partition()),
			"sequence": int64(x.Sequence()), "tick": int64(x.Tick())}, nil
	case Muid:
		return map[string]int64{"medallion": x.Medallion(), "offset": int64(x.Offset())}, nil
	case SnowflakeSi:
		n := x.Int64()
		return map[string]int64{"machine": int64(x.Machine()), "index": int64(x.Index())}, &n
	case Revts8:
		n := x.Int64()
		return map[string]int64{"sequence": int64(x.Sequence()), "generator": int64(x.Generator()),
			"cluster": int64(x.Cluster())}, &n
	case Uid60:
		n := x.Int64()
		return map[string]int64{"worker": int64(x.Worker()), "sequence": int64(x.Sequence()),
			"random": int64(x.Random())}, &n
	}
	return nil, nil
}

func TestVectors(t *testing.T) {
	ids, _ := loadVectors(t)
	types := map[string]int{}
	for _, v := range ids {
		types[v.Type]++
		x, err := read(t, v)
		if err != nil {
			t.Errorf("%s %s: %v", v.Type, v.Input, err)
			continue
		}
		name := v.Type + " " + v.Input
		if x.String() != v.Text || hex.EncodeToString(x.Bytes()) != v.Bytes || x.UnixMicros() != v.UnixUs {
			t.Errorf("%s: %s %x %d, want %s %s %d", name, x, x.Bytes(), x.UnixMicros(), v.Text, v.Bytes, v.UnixUs)
		}
		got, bigint := fields(x)
		for _, f := range fieldNames[v.Type] {
			want, _ := strconv.ParseInt(string(v.Fields[f]), 10, 64)
			if got[f] != want {
				t.Errorf("%s: %s %d, want %d", name, f, got[f], want)
			}
		}
		if (bigint == nil) != (v.Bigint == nil) || bigint != nil && *bigint != *v.Bigint {
			t.Errorf("%s: bigint %v, want %v", name, bigint, v.Bigint)
		}
		// the text and bytes read back to the same ID
		again, err := read(t, vector{Type: v.Type, Input: v.Text, Options: v.Options})
		if err != nil || again != x {
			t.Errorf("%s: its text reads as %v (%v)", name, again, err)
		}
		again, err = read(t, vector{Type: v.Type, Input: "0x" + v.Bytes, Options: v.Options})
		if err != nil || again != x {
			t.Errorf("%s: its bytes read as %v (%v)", name, again, err)
		}
		if m, ok := x.(Muid); ok {
			u := m.UUID()
			if hex.EncodeToString(u[:]) != strings.ReplaceAll(v.UUID, "-", "") || MuidFromUUID(u) != m {
				t.Errorf("%s: uuid %x, want %s", name, u, v.UUID)
			}
		}
		checkFromParts(t, name, x)
	}
	if len(types) != 5 {
		t.Errorf("the vectors have the types %v, not five", types)
	}
}

// checkFromParts: from_parts() of the fields and the time gives the ID
// back (a muid with a time the clock refuses excepted, as the server).
func checkFromParts(t *testing.T, name string, x value) {
	var again value
	var err error
	switch x := x.(type) {
	case Sno:
		again, err = SnoFromParts(x.Time(), x.Meta(), x.Partition(), x.Sequence(), x.Tick())
	case Muid:
		if x.ts() == 1<<52-1 {
			return
		}
		again, err = MuidFromParts(x.Time(), x.Medallion(), x.Offset())
	case SnowflakeSi:
		again, err = x.Layout().FromParts(x.Time(), x.Machine(), x.Index())
	case Revts8:
		again, err = Revts8FromParts(x.Time(), x.Sequence(), x.Generator(), x.Cluster())
	case Uid60:
		again, err = Uid60FromParts(x.Time(), x.Worker(), x.Sequence(), x.Random())
	}
	if err != nil || again != x {
		t.Errorf("%s: from its parts %v (%v)", name, again, err)
	}
}

func TestRefused(t *testing.T) {
	_, refused := loadVectors(t)
	if len(refused) == 0 {
		t.Fatal("no refused inputs")
	}
	for _, v := range refused {
		x, err := read(t, v)
		var e *Error
		if !errors.As(err, &e) || (e.SQLState != InvalidTextRepresentation && e.SQLState != NumericValueOutOfRange) {
			t.Errorf("%s %q: %v, %v; want the server's 22P02 or 22003", v.Type, v.Input, x, err)
		}
	}
}

func TestMessages(t *testing.T) {
	for _, c := range []struct {
		err                     error
		code, msg, detail, hint string
	}{
		{second(ParseSno("brpk4q72xwf2m63")), InvalidTextRepresentation,
			`invalid input syntax for type sno: "brpk4q72xwf2m63"`, "The input is 15 characters long.",
			"Expected 16 characters of 2-9 and a-x."},
		{second(ParseMuid("5D5EAC793E61F1-BFC71B112D-0000000B")), InvalidTextRepresentation,
			`invalid input syntax for type muid: "5D5EAC793E61F1-BFC71B112D-0000000B"`,
			"Character 14 is out of place: a group has the wrong number of digits.", "Expected " + muidExpected + "."},
		{second(ParseSnowflakeSi("9007199254740992")), NumericValueOutOfRange,
			`value "9007199254740992" is out of range for type snowflake_si`, "", "Expected " + snowflakeSiExpected + "."},
		{second(Uid60FromInt64(1 << 60)), NumericValueOutOfRange, "value 1152921504606846976 is out of range for type uid60",
			"A uid60 is between 0 and 1152921504606846975.", ""},
		{second(Revts8FromBytes([]byte{0, 0, 0, 0, 0, 0, 4, 0})), InvalidBinaryRepresentation,
			"invalid binary value for type revts8: reserved bits are set",
			"Bits 15 to 10 of a revts8 must be zero; the value is 0000000000000400.", ""},
		{second(SnoFromParts(time.Date(2009, 12, 31, 23, 59, 59, 0, time.UTC), 0, 0, 0, 0)), DatetimeValueOutOfRange,
			`timestamp out of range for type sno: "2009-12-31 23:59:59+00"`,
			"The range is 2010-01-01 00:00:00+00 to 2079-09-07 15:47:35.548+00.", ""},
		{second(Uid60FromParts(time.Now(), 512, 0, 0)), NumericValueOutOfRange,
			`value 512 is out of range for argument "worker"`, `Type uid60 takes "worker" from 0 to 511.`, ""},
		{second(Layout{IndexBits: 14}.Boundary(time.Now())), NumericValueOutOfRange,
			`value 14 is out of range for argument "index_bits"`, `Type snowflake_si takes "index_bits" from 1 to 13.`, ""},
		{second(Layout{1047972019224, 8}.Parse("0")), InvalidParameterValue,
			`invalid snowflake_si base clock: "2003-03-18 07:20:19.224+00"`, snowflakeSiEpochRule, ""},
		{second(LayoutOf(time.Date(2024, 1, 1, 0, 0, 0, 500000, time.UTC), 8)), InvalidParameterValue,
			`invalid snowflake_si base clock: "2024-01-01 00:00:00.0005+00"`, snowflakeSiEpochRule, ""},
	} {
		e, ok := c.err.(*Error)
		if !ok || *e != (Error{c.code, c.msg, c.detail, c.hint}) {
			t.Errorf("%#v, want %s %q %q %q", c.err, c.code, c.msg, c.detail, c.hint)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestOrderAndJSON(t *testing.T) {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	early, _ := Revts8FromParts(at, 63, 0, 0)
	late, _ := Revts8FromParts(at.Add(time.Millisecond), 0, 0, 0)
	if early.Compare(late) >= 0 || early.CompareBytes(late) != bytes.Compare(early.Bytes(), late.Bytes()) {
		t.Errorf("revts8: time order %d, byte order %d", early.Compare(late), early.CompareBytes(late))
	}
	b, _ := SnoBoundary(at.Add(time.Microsecond))
	x, _ := SnoFromParts(at, 255, 65535, 65535, 1)
	if x.Compare(b) >= 0 || b.UnixMicros() != at.UnixMicro()+4000 {
		t.Errorf("sno: %v is not before the boundary %v", x, b)
	}
	data, err := json.Marshal(map[string]interface{}{"id": x, "n": late})
	if err != nil || string(data) != `{"id":"`+x.String()+`","n":"`+late.String()+`"}` {
		t.Errorf("json: %s %v", data, err)
	}
	var back struct{ ID Sno }
	if err := json.Unmarshal(data, &back); err != nil || back.ID != x {
		t.Errorf("json back: %v %v", back.ID, err)
	}
}

// TestLayoutBounds: the base clock's ends are the server's; the last one's
// clock runs to the last millisecond of int64 microseconds, and its IDs
// back to their times.
func TestLayoutBounds(t *testing.T) {
	const rule = "The base clock must be a whole number of milliseconds" +
		" from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00."
	last := time.Date(294212, 3, 8, 8, 7, 7, 0, time.UTC)
	if last.UnixMilli() != 9222272525227000 || snowflakeSiEpochMax != last.UnixMilli() {
		t.Fatalf("the last base clock: %d", last.UnixMilli())
	}
	for _, c := range []struct {
		epoch time.Time
		text  string
	}{
		{time.Date(2003, 3, 18, 7, 20, 19, 224000000, time.UTC), "2003-03-18 07:20:19.224+00"},
		{last.Add(time.Millisecond), "294212-03-08 08:07:07.001+00"},
		{time.Date(294276, 12, 31, 23, 59, 59, 999000000, time.UTC), "294276-12-31 23:59:59.999+00"},
	} {
		_, err := LayoutOf(c.epoch, 8)
		want := Error{InvalidParameterValue, `invalid snowflake_si base clock: "` + c.text + `"`, rule, ""}
		if e, ok := err.(*Error); !ok || *e != want {
			t.Errorf("LayoutOf(%v): %#v, want %#v", c.epoch, err, want)
		}
		_, err = Layout{c.epoch.UnixMilli(), 8}.Parse("0")
		if e, ok := err.(*Error); !ok || *e != want {
			t.Errorf("Layout{%d}: %#v, want %#v", c.epoch.UnixMilli(), err, want)
		}
	}
	l, err := LayoutOf(last, 8)
	if err != nil {
		t.Fatal(err)
	}
	endTime := time.Date(294247, 1, 10, 4, 0, 54, 775000000, time.UTC)
	end, err := l.FromParts(endTime, 31, 255)
	if err != nil || end.Int64() != 1<<53-1 || !end.Time().Equal(endTime) || end.UnixMicros() != math.MaxInt64/1000*1000 {
		t.Errorf("the last base clock's last ID: %v %v %v", end, end.Time(), err)
	}
	if b, err := l.Boundary(endTime); err != nil || b.Int64() != (1<<40-1)<<13 {
		t.Errorf("the last base clock's last boundary: %v %v", b, err)
	}
	first, err := l.FromParts(last, 0, 0)
	if err != nil || first.Int64() != 0 || !first.Time().Equal(last) {
		t.Errorf("the last base clock's first ID: %v %v", first, err)
	}
	_, err = l.FromParts(endTime.Add(time.Millisecond), 0, 0)
	want := Error{DatetimeValueOutOfRange, `timestamp out of range for type snowflake_si: "294247-01-10 04:00:54.776+00"`,
		"The range is 294212-03-08 08:07:07+00 to 294247-01-10 04:00:54.775+00.", ""}
	if e, ok := err.(*Error); !ok || *e != want {
		t.Errorf("past the last base clock's clock: %#v", err)
	}
}
