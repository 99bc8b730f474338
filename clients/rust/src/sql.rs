//! The trait `Id` and the drivers' traits (`postgres_types::FromSql` and
//! `ToSql`, the binary format) for each of the five types.

use std::error::Error as StdError;

use bytes::BytesMut;
use postgres_types::{to_sql_checked, FromSql, IsNull, Kind, ToSql, Type};

use crate::{Error, Id, Muid, Revts8, Sno, SnowflakeSi, Uid60};

/// Whether a column or parameter is the type, or a domain over it (at any
/// depth): by name, in whatever schema the extension is (its OIDs are not
/// fixed, and `accepts` has nothing but the `Type` to go by). A base type
/// of the same name in another schema is taken too (see README, Drivers).
fn accepts(ty: &Type, name: &str) -> bool {
    match ty.kind() {
        Kind::Simple => ty.name() == name,
        Kind::Domain(inner) => accepts(inner, name),
        _ => false,
    }
}

macro_rules! id_types {
    ($($t:ident $name:literal),*) => {$(
        impl Id for $t {
            const TYPE_NAME: &'static str = $name;

            fn from_bytes(data: &[u8]) -> Result<$t, Error> {
                $t::from_bytes(data)
            }

            fn to_vec(&self) -> Vec<u8> {
                self.to_bytes().to_vec()
            }

            fn unix_micros(&self) -> i64 {
                $t::unix_micros(self)
            }

            fn boundary(unix_us: i64) -> Result<$t, Error> {
                $t::boundary(unix_us)
            }
        }

        impl<'a> FromSql<'a> for $t {
            fn from_sql(_: &Type, raw: &'a [u8]) -> Result<$t, Box<dyn StdError + Sync + Send>> {
                Ok($t::from_bytes(raw)?)
            }

            fn accepts(ty: &Type) -> bool {
                accepts(ty, $name)
            }
        }

        impl ToSql for $t {
            fn to_sql(&self, _: &Type, out: &mut BytesMut) -> Result<IsNull, Box<dyn StdError + Sync + Send>> {
                out.extend_from_slice(&self.to_bytes());
                Ok(IsNull::No)
            }

            fn accepts(ty: &Type) -> bool {
                accepts(ty, $name)
            }

            to_sql_checked!();
        }
    )*};
}

id_types!(Sno "sno", Muid "muid", SnowflakeSi "snowflake_si", Revts8 "revts8", Uid60 "uid60");
