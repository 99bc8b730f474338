// Package pgxuid registers the types of package pgkuid with pgx (v4):
// after Register, results of uid's types come in binary and scan into
// pgkuid's value types (or a string); parameters of those types go as their
// text (database/sql's Valuer), which the server reads as the column's type.
package pgxuid

import (
	"context"
	"database/sql/driver"
	"fmt"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"

	"pgkuid"
)

// typesSQL finds the extension's types through its membership (pg_depend),
// not by name on the search_path: a type of the same name elsewhere is
// never taken, and the extension's schema need not be on the path.
const typesSQL = `
SELECT t.typname::text, t.oid
FROM pg_catalog.pg_extension e
JOIN pg_catalog.pg_depend d
  ON d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.refobjid = e.oid
 AND d.classid = 'pg_catalog.pg_type'::pg_catalog.regclass AND d.deptype = 'e'
JOIN pg_catalog.pg_type t ON t.oid = d.objid
WHERE e.extname = 'uid' AND t.typtype = 'b' AND t.typcategory <> 'A'`

// Register registers the five types with conn under their OIDs in conn's
// database, snowflake_si read with layout (the server's
// uid.snowflake_si_epoch and uid.snowflake_si_index_bits; the zero Layout
// is their defaults). A database without the extension is an error.
func Register(ctx context.Context, conn *pgx.Conn, layout pgkuid.Layout) error {
	rows, err := conn.Query(ctx, typesSQL)
	if err != nil {
		return err
	}
	oids := map[string]uint32{}
	for rows.Next() {
		var name string
		var oid uint32
		if err := rows.Scan(&name, &oid); err != nil {
			return err
		}
		oids[name] = oid
	}
	if err := rows.Err(); err != nil {
		return err
	}
	layout = layout.Or()
	values := map[string]pgtype.Value{
		"sno":          &value[pgkuid.Sno]{name: "sno", parse: pgkuid.ParseSno, fromBytes: pgkuid.SnoFromBytes},
		"muid":         &value[pgkuid.Muid]{name: "muid", parse: pgkuid.ParseMuid, fromBytes: pgkuid.MuidFromBytes},
		"snowflake_si": &value[pgkuid.SnowflakeSi]{name: "snowflake_si", parse: layout.Parse, fromBytes: layout.FromBytes},
		"revts8":       &value[pgkuid.Revts8]{name: "revts8", parse: pgkuid.ParseRevts8, fromBytes: pgkuid.Revts8FromBytes},
		"uid60":        &value[pgkuid.Uid60]{name: "uid60", parse: pgkuid.ParseUid60, fromBytes: pgkuid.Uid60FromBytes},
	}
	for _, name := range []string{"sno", "muid", "snowflake_si", "revts8", "uid60"} {
		oid, ok := oids[name]
		if !ok {
			return fmt.Errorf("pgxuid: type %s not found: is the extension uid installed in this database (CREATE EXTENSION uid)?", name)
		}
		conn.ConnInfo().RegisterDataType(pgtype.DataType{Value: values[name], Name: name, OID: oid})
	}
	return nil
}

// id is what a value type of pgkuid has.
type id interface {
	String() string
	Bytes() []byte
}

// value is a pgtype.Value of one of the types, in both formats (a
// pgtype.TypeValue, so that the values pgtype makes of it read as it does).
type value[T id] struct {
	name      string
	parse     func(string) (T, error)
	fromBytes func([]byte) (T, error)
	id        T
	status    pgtype.Status
}

func (v *value[T]) NewTypeValue() pgtype.Value {
	return &value[T]{name: v.name, parse: v.parse, fromBytes: v.fromBytes}
}

func (v *value[T]) TypeName() string { return v.name }

func (v *value[T]) Set(src interface{}) error {
	switch s := src.(type) {
	case nil:
		v.status = pgtype.Null
	case T:
		v.id, v.status = s, pgtype.Present
	case *T:
		if s == nil {
			v.status = pgtype.Null
		} else {
			v.id, v.status = *s, pgtype.Present
		}
	case string:
		x, err := v.parse(s)
		if err != nil {
			return err
		}
		v.id, v.status = x, pgtype.Present
	default:
		return fmt.Errorf("pgxuid: cannot set %T to a %T", src, v.id)
	}
	return nil
}

func (v *value[T]) Get() interface{} {
	switch v.status {
	case pgtype.Present:
		return v.id
	case pgtype.Null:
		return nil
	}
	return v.status
}

func (v *value[T]) AssignTo(dst interface{}) error {
	if v.status != pgtype.Present {
		if d, ok := dst.(**T); ok && v.status == pgtype.Null {
			*d = nil
			return nil
		}
		return fmt.Errorf("pgxuid: cannot assign NULL to %T", dst)
	}
	switch d := dst.(type) {
	case *T:
		*d = v.id
	case **T:
		x := v.id
		*d = &x
	case *string:
		*d = v.id.String()
	default:
		return fmt.Errorf("pgxuid: cannot assign a %T to %T", v.id, dst)
	}
	return nil
}

func (v *value[T]) DecodeText(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		v.status = pgtype.Null
		return nil
	}
	return v.Set(string(src))
}

func (v *value[T]) DecodeBinary(ci *pgtype.ConnInfo, src []byte) error {
	if src == nil {
		v.status = pgtype.Null
		return nil
	}
	x, err := v.fromBytes(src)
	if err != nil {
		return err
	}
	v.id, v.status = x, pgtype.Present
	return nil
}

func (v *value[T]) EncodeText(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if v.status != pgtype.Present {
		return nil, nil
	}
	return append(buf, v.id.String()...), nil
}

func (v *value[T]) EncodeBinary(ci *pgtype.ConnInfo, buf []byte) ([]byte, error) {
	if v.status != pgtype.Present {
		return nil, nil
	}
	return append(buf, v.id.Bytes()...), nil
}

// Value is the value itself, which pgkuid's Scan methods take (pgx hands
// it to a Scanner destination this way), with snowflake_si's layout.
func (v *value[T]) Value() (driver.Value, error) {
	if v.status != pgtype.Present {
		return nil, nil
	}
	return v.id, nil
}
