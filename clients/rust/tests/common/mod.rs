//! What the offline and the server tests share: the vectors
//! (clients/vectors/vectors.json, made by the server's C codecs;
//! `UID_VECTORS` names another file) and the five types as one.

#![allow(dead_code)] // each test uses its part

use std::collections::BTreeMap;

use pgkuid::{Error, Layout, Muid, Revts8, Sno, SnowflakeSi, Uid60};
use serde_json::Value;

pub struct Vector {
    pub type_name: String,
    pub input: String,
    /// how the input is written: "text", or "bytes" (hex after "0x");
    /// refused inputs are text
    pub form: String,
    pub options: BTreeMap<String, Value>,
    pub text: String,
    pub bytes: String,
    pub unix_us: i64,
    pub bigint: Option<i64>,
    pub uuid: Option<String>,
    /// the fields by accessor name, as the vector has them
    pub fields: BTreeMap<String, i64>,
}

/// Each type's fields, named as its SQL accessors, in from_parts' order.
pub fn field_names(type_name: &str) -> &'static [&'static str] {
    match type_name {
        "sno" => &["meta", "partition", "sequence", "tick"],
        "muid" => &["medallion", "offset"],
        "snowflake_si" => &["machine", "index"],
        "revts8" => &["sequence", "generator", "cluster"],
        "uid60" => &["worker", "sequence", "random"],
        other => panic!("no type {}", other),
    }
}

/// The vectors' IDs and refused inputs.
pub fn load_vectors() -> (Vec<Vector>, Vec<Vector>) {
    let path = std::env::var("UID_VECTORS")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../vectors/vectors.json").to_string());
    let data = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {}", path, e));
    let all: Value = serde_json::from_str(&data).unwrap_or_else(|e| panic!("{}: {}", path, e));
    let list = |key: &str| -> Vec<Vector> {
        all[key].as_array().unwrap_or_else(|| panic!("{}: no {}", path, key)).iter().map(vector).collect()
    };
    (list("ids"), list("refused"))
}

fn vector(v: &Value) -> Vector {
    let text = |key: &str| v[key].as_str().unwrap_or_default().to_string();
    let type_name = text("type");
    let fields = if v.get("refused").is_some() {
        BTreeMap::new()
    } else {
        field_names(&type_name)
            .iter()
            .map(|f| (f.to_string(), v[*f].as_i64().unwrap_or_else(|| panic!("no {} in {}", f, v))))
            .collect()
    };
    Vector {
        input: text("input"),
        form: v["form"].as_str().unwrap_or("text").to_string(),
        options: v["options"].as_object().map(|o| o.clone().into_iter().collect()).unwrap_or_default(),
        text: text("text"),
        bytes: text("bytes"),
        unix_us: v["unix_us"].as_i64().unwrap_or_default(),
        bigint: v["bigint"].as_i64(),
        uuid: v["uuid"].as_str().map(str::to_string),
        fields,
        type_name,
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{:02x}", b)).collect()
}

pub fn unhex(text: &str) -> Vec<u8> {
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex")).collect()
}

/// Microseconds since 1970 of a UTC date and time.
pub fn unix_us(year: i64, month: i64, day: i64, hour: i64, min: i64, sec: i64, us: i64) -> i64 {
    // days from 1970-01-01 of a proleptic Gregorian date, the year from March
    let (y, m) = if month <= 2 { (year - 1, month + 9) } else { (year, month - 3) };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * m + 2) / 5 + day - 1;
    let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468;
    ((days * 24 + hour) * 60 + min) * 60_000_000 + sec * 1_000_000 + us
}

/// A vector's snowflake_si options: the base clock (milliseconds, or
/// RFC 3339 in UTC to the second) and the index width.
pub fn layout_of(v: &Vector) -> Layout {
    let mut l = Layout::default();
    if let Some(e) = v.options.get("epoch").and_then(Value::as_str) {
        l.epoch_unix_ms = e.parse().unwrap_or_else(|_| {
            let n = |r: std::ops::Range<usize>| e[r].parse::<i64>().expect(e);
            assert!(e.len() == 20 && e.ends_with('Z'), "epoch {}", e);
            unix_us(n(0..4), n(5..7), n(8..10), n(11..13), n(14..16), n(17..19), 0) / 1000
        });
    }
    if let Some(b) = v.options.get("index_bits").and_then(Value::as_i64) {
        l.index_bits = b as i32;
    }
    l
}

/// Any of the five types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyId {
    Sno(Sno),
    Muid(Muid),
    SnowflakeSi(SnowflakeSi),
    Revts8(Revts8),
    Uid60(Uid60),
}

/// Calls `$f` on the value inside an AnyId.
macro_rules! each {
    ($x:expr, $v:ident => $e:expr) => {
        match $x {
            AnyId::Sno($v) => $e,
            AnyId::Muid($v) => $e,
            AnyId::SnowflakeSi($v) => $e,
            AnyId::Revts8($v) => $e,
            AnyId::Uid60($v) => $e,
        }
    };
}

impl AnyId {
    /// A vector's input read as its type reads it: by its form, text or
    /// bytes written `0x…` (a uid60's text may begin with "0x" too).
    pub fn read_input(v: &Vector, layout: Layout) -> Result<AnyId, Error> {
        match v.form.as_str() {
            "text" => AnyId::read(&v.type_name, &v.input, layout),
            "bytes" => {
                let digits = v.input.strip_prefix("0x").unwrap_or_else(|| panic!("bytes {:?}", v.input));
                AnyId::read_bytes(&v.type_name, &unhex(digits), layout)
            }
            other => panic!("{} {:?}: no form {:?}", v.type_name, v.input, other),
        }
    }

    /// The binary form read as its type reads it.
    pub fn read_bytes(type_name: &str, data: &[u8], layout: Layout) -> Result<AnyId, Error> {
        Ok(match type_name {
            "sno" => AnyId::Sno(Sno::from_bytes(data)?),
            "muid" => AnyId::Muid(Muid::from_bytes(data)?),
            "snowflake_si" => AnyId::SnowflakeSi(layout.from_bytes(data)?),
            "revts8" => AnyId::Revts8(Revts8::from_bytes(data)?),
            "uid60" => AnyId::Uid60(Uid60::from_bytes(data)?),
            other => panic!("no type {}", other),
        })
    }

    /// Text read as its type's input function reads it.
    pub fn read(type_name: &str, input: &str, layout: Layout) -> Result<AnyId, Error> {
        Ok(match type_name {
            "sno" => AnyId::Sno(input.parse()?),
            "muid" => AnyId::Muid(input.parse()?),
            "snowflake_si" => AnyId::SnowflakeSi(layout.parse(input)?),
            "revts8" => AnyId::Revts8(input.parse()?),
            "uid60" => AnyId::Uid60(input.parse()?),
            other => panic!("no type {}", other),
        })
    }

    pub fn text(&self) -> String {
        each!(self, x => x.to_string())
    }

    pub fn bytes(&self) -> Vec<u8> {
        each!(self, x => x.to_bytes().to_vec())
    }

    pub fn unix_us(&self) -> i64 {
        each!(self, x => x.unix_micros())
    }

    /// The fields in from_parts' order (field_names').
    pub fn fields(&self) -> Vec<i64> {
        match self {
            AnyId::Sno(x) => vec![x.meta().into(), x.partition().into(), x.sequence().into(), x.tick().into()],
            AnyId::Muid(x) => vec![x.medallion(), x.offset().into()],
            AnyId::SnowflakeSi(x) => vec![x.machine().into(), x.index().into()],
            AnyId::Revts8(x) => vec![x.sequence().into(), x.generator().into(), x.cluster().into()],
            AnyId::Uid60(x) => vec![x.worker().into(), x.sequence().into(), x.random().into()],
        }
    }

    pub fn bigint(&self) -> Option<i64> {
        match self {
            AnyId::SnowflakeSi(x) => Some(x.to_i64()),
            AnyId::Revts8(x) => Some(x.to_i64()),
            AnyId::Uid60(x) => Some(x.to_i64()),
            _ => None,
        }
    }

    /// `<type>_from_parts()` of its time and fields.
    pub fn made_from_parts(&self) -> Result<AnyId, Error> {
        let us = self.unix_us();
        let f: Vec<i32> = self.fields().iter().map(|&n| n as i32).collect();
        Ok(match self {
            AnyId::Sno(_) => AnyId::Sno(Sno::from_parts(us, f[0], f[1], f[2], f[3])?),
            AnyId::Muid(x) => AnyId::Muid(Muid::from_parts(us, x.medallion(), x.offset())?),
            AnyId::SnowflakeSi(x) => AnyId::SnowflakeSi(x.layout().from_parts(us, f[0], f[1])?),
            AnyId::Revts8(_) => AnyId::Revts8(Revts8::from_parts(us, f[0], f[1], f[2])?),
            AnyId::Uid60(_) => AnyId::Uid60(Uid60::from_parts(us, f[0], f[1], f[2])?),
        })
    }
}
