package pgxuid_test

// The value types against a server with uid (the libpq environment:
// PGHOST, PGPORT, PGUSER, PGDATABASE), through pgx with Register (binary
// results, and text where a query asks for it) and through database/sql
// with lib/pq (text): refused inputs give the server's errors; every vector
// has the server's text, accessors and order; boundaries and from_parts
// agree; and a round trip per type and driver over a table keyed with the
// type's DEFAULT, where a client-made boundary uses the primary key.

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgx/v4"
	_ "github.com/lib/pq"

	"pgkuid"
	"pgkuid/pgxuid"
)

var ctx = context.Background()

// connect is a pgx connection in a schema of the test's own, with uid
// and the types registered; the test is skipped without a server, or
// fails under UID_TEST_REQUIRE_SERVER=1.
func connect(t *testing.T) (*pgx.Conn, string) {
	conn, err := pgx.Connect(ctx, "")
	if err == nil {
		_, err = conn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS uid")
	}
	if err != nil {
		if os.Getenv("UID_TEST_REQUIRE_SERVER") == "1" {
			t.Fatalf("UID_TEST_REQUIRE_SERVER=1 and no server with uid: %v", err)
		}
		t.Skipf("no server with uid through the libpq environment: %v", err)
	}
	schema := fmt.Sprintf("uid_go_tests_%d", os.Getpid())
	for _, q := range []string{"DROP SCHEMA IF EXISTS " + schema + " CASCADE", "CREATE SCHEMA " + schema,
		"SELECT set_config('search_path', '" + schema + ", ' || current_setting('search_path'), false)",
		"SET TimeZone = 'UTC'"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := pgxuid.Register(ctx, conn, pgkuid.Layout{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE")
		conn.Close(ctx)
	})
	return conn, schema
}

type vector struct {
	Type, Input, Text, Bytes string
	Options                  map[string]interface{}
}

func vectors(t *testing.T) (ids, refused []vector) {
	path := os.Getenv("UID_VECTORS")
	if path == "" {
		path = filepath.Join("..", "..", "vectors", "vectors.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var all struct{ IDs, Refused []vector }
	if err := json.Unmarshal(data, &all); err != nil {
		t.Fatal(err)
	}
	return all.IDs, all.Refused
}

// idType is what the value types have in common.
type idType[T any] interface {
	String() string
	Bytes() []byte
	Time() time.Time
	Compare(T) int
}

// kind is what the tests need of one type.
type kind[T idType[T]] struct {
	name     string
	parse    func(string) (T, error)
	boundary func(time.Time) (T, error)
	fields   func(T) []int64
	accessor []string // the SQL accessors of fields, in order
	tick     time.Duration
}

var (
	sno = kind[pgkuid.Sno]{"sno", pgkuid.ParseSno, pgkuid.SnoBoundary,
		func(x pgkuid.Sno) []int64 {
			return []int64{int64(x.Meta()), int64(x.Partition()), int64(x.Sequence()), int64(x.Tick())}
		}, []string{"meta", "partition", "sequence", "tick"}, 4 * time.Millisecond}
	muid = kind[pgkuid.Muid]{"muid", pgkuid.ParseMuid, pgkuid.MuidBoundary,
		func(x pgkuid.Muid) []int64 { return []int64{x.Medallion(), int64(x.Offset())} },
		[]string{"medallion", "offset"}, time.Microsecond}
	snowflakeSi = kind[pgkuid.SnowflakeSi]{"snowflake_si", pgkuid.ParseSnowflakeSi, pgkuid.SnowflakeSiBoundary,
		func(x pgkuid.SnowflakeSi) []int64 { return []int64{int64(x.Machine()), int64(x.Index())} },
		[]string{"machine", "index"}, time.Millisecond}
	revts8 = kind[pgkuid.Revts8]{"revts8", pgkuid.ParseRevts8, pgkuid.Revts8Boundary,
		func(x pgkuid.Revts8) []int64 {
			return []int64{int64(x.Sequence()), int64(x.Generator()), int64(x.Cluster())}
		}, []string{"sequence", "generator", "cluster"}, time.Millisecond}
	uid60 = kind[pgkuid.Uid60]{"uid60", pgkuid.ParseUid60, pgkuid.Uid60Boundary,
		func(x pgkuid.Uid60) []int64 {
			return []int64{int64(x.Worker()), int64(x.Sequence()), int64(x.Random())}
		},
		[]string{"worker", "sequence", "random"}, time.Second}
)

// accessors is a select list of first, the timestamp and the accessors
// (as bigint) of id, with the destinations: first's given, the
// timestamp's last of those, then the fields'.
func (k kind[T]) accessors(first string, dest ...interface{}) (string, []interface{}, []int64) {
	columns := first + ", " + k.name + "_timestamp(id)"
	fields := make([]int64, len(k.accessor))
	for i, a := range k.accessor {
		columns += ", " + k.name + "_" + a + "(id)::bigint"
		dest = append(dest, &fields[i])
	}
	return columns, dest, fields
}

func TestRefusedAsOnServer(t *testing.T) {
	conn, _ := connect(t)
	_, refused := vectors(t)
	for _, v := range refused {
		var text string
		serverErr := conn.QueryRow(ctx, "SELECT $1::"+v.Type+"::text", v.Input).Scan(&text)
		var pg *pgconn.PgError
		if !errors.As(serverErr, &pg) {
			t.Fatalf("%s %q: the server gave %v", v.Type, v.Input, serverErr)
		}
		var mine error
		switch v.Type {
		case "sno":
			_, mine = pgkuid.ParseSno(v.Input)
		case "muid":
			_, mine = pgkuid.ParseMuid(v.Input)
		case "snowflake_si":
			_, mine = pgkuid.ParseSnowflakeSi(v.Input)
		case "revts8":
			_, mine = pgkuid.ParseRevts8(v.Input)
		case "uid60":
			_, mine = pgkuid.ParseUid60(v.Input)
		}
		e, _ := mine.(*pgkuid.Error)
		if e == nil || *e != (pgkuid.Error{SQLState: pg.Code, Message: pg.Message, Detail: pg.Detail, Hint: pg.Hint}) {
			t.Errorf("%s %q: %#v, the server's %s %q %q %q", v.Type, v.Input, mine, pg.Code, pg.Message, pg.Detail, pg.Hint)
		}
	}
}

// TestBaseClocksAsOnServer: from_parts under the base clocks at the ends
// of the server's range and just outside gives the server's ID or error.
func TestBaseClocksAsOnServer(t *testing.T) {
	conn, _ := connect(t)
	last := time.Date(294212, 3, 8, 8, 7, 7, 0, time.UTC)
	for _, epoch := range []time.Time{
		time.Date(2003, 3, 18, 7, 20, 19, 224000000, time.UTC),
		time.Date(2003, 3, 18, 7, 20, 19, 225000000, time.UTC),
		last, last.Add(time.Millisecond),
		time.Date(294276, 12, 31, 23, 59, 59, 999000000, time.UTC),
	} {
		for _, at := range []time.Time{epoch, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(294247, 1, 10, 4, 0, 54, 775000000, time.UTC)} {
			// as text: pgx's binary timestamptz cannot carry years past 9999
			text := func(t time.Time) string { return t.Format("2006-01-02 15:04:05.000Z07:00") }
			var server string
			serverErr := conn.QueryRow(ctx, "SELECT snowflake_si_from_parts($1::text::timestamptz, 31, 255, $2::text::timestamptz, 8)::text",
				text(at), text(epoch)).Scan(&server)
			var mine string
			l, err := pgkuid.LayoutOf(epoch, 8)
			if err == nil {
				var x pgkuid.SnowflakeSi
				if x, err = l.FromParts(at, 31, 255); err == nil {
					mine = x.String()
				}
			}
			var pg *pgconn.PgError
			if errors.As(serverErr, &pg) {
				e, _ := err.(*pgkuid.Error)
				if e == nil || *e != (pgkuid.Error{SQLState: pg.Code, Message: pg.Message, Detail: pg.Detail, Hint: pg.Hint}) {
					t.Errorf("base clock %v, at %v: %#v, the server's %s %q %q", epoch, at, err, pg.Code, pg.Message, pg.Detail)
				}
			} else if serverErr != nil || err != nil || mine != server {
				t.Errorf("base clock %v, at %v: %s %v, the server's %s %v", epoch, at, mine, err, server, serverErr)
			}
		}
	}
}

func TestVectorsAsOnServer(t *testing.T) {
	conn, _ := connect(t)
	ids, _ := vectors(t)
	for _, v := range ids {
		if v.Type == "snowflake_si" && len(v.Options) > 0 {
			continue // other layouts: the offline tests; the server has its settings' defaults here
		}
		switch v.Type {
		case "sno":
			checkVector(t, conn, sno, v)
		case "muid":
			checkVector(t, conn, muid, v)
		case "snowflake_si":
			checkVector(t, conn, snowflakeSi, v)
		case "revts8":
			checkVector(t, conn, revts8, v)
		case "uid60":
			checkVector(t, conn, uid60, v)
		}
	}
}

// checkVector: the server's text, binary form, accessors and timestamp of
// the vector's text equal the value's; the value comes back through pgx in
// binary (registered) and in text.
func checkVector[T idType[T]](t *testing.T, conn *pgx.Conn, k kind[T], v vector) {
	x, err := k.parse(v.Text)
	if err != nil {
		t.Fatal(err)
	}
	var text, bytes string
	var ts time.Time
	columns, dest, fields := k.accessors("id::text, encode("+k.name+"_send(id), 'hex')", &text, &bytes, &ts)
	err = conn.QueryRow(ctx, "SELECT "+columns+" FROM (SELECT $1::"+k.name+" AS id) s", v.Text).Scan(dest...)
	if err != nil {
		t.Fatal(err)
	}
	if text != x.String() || bytes != hex.EncodeToString(x.Bytes()) || !ts.Equal(x.Time()) ||
		fmt.Sprint(fields) != fmt.Sprint(k.fields(x)) {
		t.Errorf("%s %s: the server's %s %s %v %v, the value's %s %x %v %v", k.name, v.Text,
			text, bytes, ts, fields, x, x.Bytes(), x.Time(), k.fields(x))
	}
	for _, format := range []int16{pgx.BinaryFormatCode, pgx.TextFormatCode} {
		var back T
		if err := conn.QueryRow(ctx, "SELECT $1::"+k.name, pgx.QueryResultFormats{format}, x).Scan(&back); err != nil || back.Compare(x) != 0 {
			t.Errorf("%s %s in format %d: %v (%v)", k.name, v.Text, format, back, err)
		}
	}
}

func TestOrderAsOnServer(t *testing.T) {
	conn, _ := connect(t)
	ids, _ := vectors(t)
	texts := map[string][]string{}
	for _, v := range ids {
		texts[v.Type] = append(texts[v.Type], v.Text)
	}
	checkOrder(t, conn, sno, texts["sno"])
	checkOrder(t, conn, muid, texts["muid"])
	checkOrder(t, conn, snowflakeSi, texts["snowflake_si"])
	checkOrder(t, conn, revts8, texts["revts8"])
	checkOrder(t, conn, uid60, texts["uid60"])
}

func checkOrder[T idType[T]](t *testing.T, conn *pgx.Conn, k kind[T], texts []string) {
	var values []T
	for _, text := range texts {
		x, err := k.parse(text)
		if err != nil {
			t.Fatal(err)
		}
		values = append(values, x)
	}
	sort.SliceStable(values, func(i, j int) bool { return values[i].Compare(values[j]) < 0 })
	var server []string
	if err := conn.QueryRow(ctx, "SELECT array_agg(t ORDER BY t::"+k.name+", t) FROM unnest($1::text[]) t", texts).Scan(&server); err != nil {
		t.Fatal(err)
	}
	for i, x := range values {
		if x.String() != server[i] && x.Compare(mustParse(t, k, server[i])) != 0 {
			t.Errorf("%s: ORDER BY gives %v, Compare %v", k.name, server, values)
			return
		}
	}
}

func mustParse[T idType[T]](t *testing.T, k kind[T], text string) T {
	x, err := k.parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestBoundariesAsOnServer(t *testing.T) {
	conn, _ := connect(t)
	times := []time.Time{time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 1, 12, 0, 0, 1000, time.UTC),
		time.Date(2031, 5, 8, 23, 3, 34, 976001000, time.UTC), time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, at := range times {
		checkBoundary(t, conn, sno, at)
		checkBoundary(t, conn, muid, at)
		checkBoundary(t, conn, snowflakeSi, at)
		checkBoundary(t, conn, revts8, at)
		checkBoundary(t, conn, uid60, at)
	}
}

func checkBoundary[T idType[T]](t *testing.T, conn *pgx.Conn, k kind[T], at time.Time) {
	x, mine := k.boundary(at)
	var text string
	serverErr := conn.QueryRow(ctx, "SELECT "+k.name+"_boundary($1)::text", at).Scan(&text)
	var pg *pgconn.PgError
	switch {
	case errors.As(serverErr, &pg):
		e, _ := mine.(*pgkuid.Error)
		if e == nil || *e != (pgkuid.Error{SQLState: pg.Code, Message: pg.Message, Detail: pg.Detail, Hint: pg.Hint}) {
			t.Errorf("%s_boundary(%v): %v, the server's %s %q %q", k.name, at, mine, pg.Code, pg.Message, pg.Detail)
		}
	case serverErr != nil:
		t.Fatal(serverErr)
	case mine != nil || x.String() != text:
		t.Errorf("%s_boundary(%v): %v (%v), the server's %s", k.name, at, x, mine, text)
	}
}

func TestRoundTrips(t *testing.T) {
	conn, schema := connect(t)
	db, err := sql.Open("postgres", "search_path="+schema+",public timezone=UTC")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	roundTrip(t, conn, db, sno)
	roundTrip(t, conn, db, muid)
	roundTrip(t, conn, db, snowflakeSi)
	roundTrip(t, conn, db, revts8)
	roundTrip(t, conn, db, uid60)
}

// roundTrip: rows inserted with the DEFAULT through pgx and through
// database/sql (lib/pq) read back as the type through both, with the
// server's text and accessors; a boundary made here between two batches,
// sent as a parameter, selects through the primary key the rows the
// server's own boundary selects.
func roundTrip[T idType[T]](t *testing.T, conn *pgx.Conn, db *sql.DB, k kind[T]) {
	table := "go_" + k.name
	for _, q := range []string{"DROP TABLE IF EXISTS " + table,
		"CREATE TABLE " + table + " (id " + k.name + " PRIMARY KEY DEFAULT " + k.name + "_new(), n int)"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	pause := k.tick * 12 / 10
	if pause < 10*time.Millisecond {
		pause = 10 * time.Millisecond
	}
	var made []T
	for i := 0; i < 3; i++ { // pgx: RETURNING, binary
		var x T
		if err := conn.QueryRow(ctx, "INSERT INTO "+table+" (n) VALUES ($1) RETURNING id", i).Scan(&x); err != nil {
			t.Fatal(err)
		}
		made = append(made, x)
	}
	time.Sleep(pause)
	split := time.Now()
	time.Sleep(pause)
	for i := 3; i < 6; i++ { // database/sql: RETURNING, text
		var x T
		if err := db.QueryRow("INSERT INTO "+table+" (n) VALUES ($1) RETURNING id", i).Scan(&x); err != nil {
			t.Fatal(err)
		}
		made = append(made, x)
	}
	var text string
	var ts time.Time
	columns, dest, fields := k.accessors("id::text", &text, &ts)
	rows, err := conn.Query(ctx, "SELECT "+columns+" FROM "+table+" t ORDER BY t.id")
	if err != nil {
		t.Fatal(err)
	}
	var server []string
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			t.Fatal(err)
		}
		x := mustParse(t, k, text)
		if !ts.Equal(x.Time()) || fmt.Sprint(fields) != fmt.Sprint(k.fields(x)) {
			t.Errorf("%s %s: the server's %v %v, the value's %v %v", k.name, text, ts, fields, x.Time(), k.fields(x))
		}
		server = append(server, text)
	}
	sort.SliceStable(made, func(i, j int) bool { return made[i].Compare(made[j]) < 0 })
	if fmt.Sprint(made) != fmt.Sprint(server) {
		t.Errorf("%s: made %v, the server's ORDER BY %v", k.name, made, server)
	}
	// the boundary as a parameter: the index, and the server's rows
	b, err := k.boundary(split)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	var plan []string
	prows, err := tx.Query(ctx, "EXPLAIN SELECT id FROM "+table+" WHERE id >= $1", b)
	if err != nil {
		t.Fatal(err)
	}
	for prows.Next() {
		var line string
		prows.Scan(&line)
		plan = append(plan, line)
	}
	if p := strings.Join(plan, "\n"); !strings.Contains(p, table+"_pkey") || strings.Contains(p, "Seq Scan") {
		t.Errorf("%s: the boundary's plan:\n%s", k.name, p)
	}
	mine := selectFrom[T](t, db, "SELECT id FROM "+table+" WHERE id >= $1 ORDER BY id", b)
	theirs := selectFrom[T](t, db, "SELECT id FROM "+table+" WHERE id >= "+k.name+"_boundary($1) ORDER BY id", split)
	if len(theirs) != 3 || fmt.Sprint(mine) != fmt.Sprint(theirs) {
		t.Errorf("%s: the boundary %v selects %v, the server's %v", k.name, b, mine, theirs)
	}
}

func selectFrom[T any](t *testing.T, db *sql.DB, query string, arg interface{}) (out []T) {
	rows, err := db.Query(query, arg)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var x T
		if err := rows.Scan(&x); err != nil {
			t.Fatal(err)
		}
		out = append(out, x)
	}
	return out
}
