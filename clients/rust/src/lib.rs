//! Value types for the five ID types of the PostgreSQL extension uid
//! (`sno`, `muid`, `snowflake_si`, `revts8` and `uid60`): they parse,
//! format, take apart, order and make boundaries exactly as the server
//! does, and refuse what it refuses in its words ([`Error`]: SQLSTATE,
//! message, DETAIL and HINT). Each is a `postgres_types::FromSql` and
//! `ToSql` in the binary format, so `tokio-postgres` (and `postgres`, which
//! uses the same traits) reads and writes them directly.
//!
//! Times are microseconds since 1970-01-01 00:00:00 UTC (`i64`), as a
//! `timestamptz` holds them; [`unix_micros`] makes them of a `SystemTime`
//! and each type's `time()` gives one back.
//!
//! ```
//! use pgkuid::{Id, Sno};
//!
//! let x: Sno = "BRPK4Q72XWF2M63L".parse()?;
//! assert_eq!((x.to_string(), x.partition()), ("brpk4q72xwf2m63l".to_string(), 39434));
//! assert_eq!(x.unix_micros(), 1_936_047_814_976_000); // 2031-05-08 23:03:34.976 UTC
//! let start = Sno::boundary(pgkuid::unix_micros(std::time::SystemTime::now()))?;
//! assert!(start.time() <= std::time::SystemTime::now() + std::time::Duration::from_millis(4));
//! assert!("brpk4q72xwf2m63".parse::<Sno>().unwrap_err().detail.is_some());
//! # Ok::<(), pgkuid::Error>(())
//! ```

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

mod muid;
mod revts8;
mod sno;
mod snowflake_si;
mod sql;
mod uid60;

pub use crate::muid::Muid;
pub use crate::revts8::Revts8;
pub use crate::sno::Sno;
pub use crate::snowflake_si::{Layout, SnowflakeSi};
pub use crate::uid60::Uid60;

/// The SQLSTATEs of the errors the server raises for values it refuses.
pub mod sqlstate {
    pub const INVALID_TEXT_REPRESENTATION: &str = "22P02";
    pub const INVALID_BINARY_REPRESENTATION: &str = "22P03";
    pub const NUMERIC_VALUE_OUT_OF_RANGE: &str = "22003";
    pub const DATETIME_VALUE_OUT_OF_RANGE: &str = "22008";
    pub const INVALID_PARAMETER_VALUE: &str = "22023";
}
use sqlstate::*;

/// A value the server refuses: its SQLSTATE, message, DETAIL and HINT as
/// the server reports them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    pub sqlstate: &'static str,
    pub message: String,
    pub detail: Option<String>,
    pub hint: Option<String>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl Error {
    fn new(sqlstate: &'static str, message: String, detail: Option<String>, hint: Option<String>) -> Error {
        Error { sqlstate, message, detail, hint }
    }
}

/// What every one of the five types has: the server's functions of every
/// type, with the type's SQL name.
pub trait Id: Copy + Ord + fmt::Display + std::str::FromStr<Err = Error> {
    /// The SQL type's name.
    const TYPE_NAME: &'static str;
    /// The binary form (send/recv), as the server reads it.
    fn from_bytes(data: &[u8]) -> Result<Self, Error>;
    /// The binary form.
    fn to_vec(&self) -> Vec<u8>;
    /// `<type>_timestamp()`, in microseconds since 1970 (UTC).
    fn unix_micros(&self) -> i64;
    /// `<type>_timestamp()` as a `SystemTime`.
    fn time(&self) -> SystemTime {
        system_time(self.unix_micros())
    }
    /// `<type>_boundary()`: the smallest ID at or after a time.
    fn boundary(unix_us: i64) -> Result<Self, Error>;
}

/// The microseconds since 1970 of a `SystemTime`, floored (a
/// `timestamptz` holds microseconds); saturated outside `i64`.
pub fn unix_micros(t: SystemTime) -> i64 {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_micros()).unwrap_or(i64::MAX),
        Err(e) => {
            let d = e.duration();
            let us = i64::try_from(d.as_micros()).unwrap_or(i64::MAX);
            if d.subsec_nanos() % 1000 != 0 {
                us.saturating_add(1).saturating_neg()
            } else {
                -us
            }
        }
    }
}

/// The `SystemTime` of microseconds since 1970.
pub fn system_time(unix_us: i64) -> SystemTime {
    let d = Duration::from_micros(unix_us.unsigned_abs());
    if unix_us < 0 {
        UNIX_EPOCH - d
    } else {
        UNIX_EPOCH + d
    }
}

/// What an input function found wrong (the codecs' uid_status); positions
/// count bytes from 0, as the server's do from 1.
#[derive(Clone, Copy)]
pub(crate) enum Status {
    BadLength,
    BadChar(usize),
    BadShape(usize),
    BadReserved,
    OutOfRange,
}

/// The error the server's input function raises for text it refuses.
pub(crate) fn text_error(type_name: &str, text: &str, status: Status, expected: &str) -> Error {
    let hint = Some(format!("Expected {}.", expected));
    let detail = match status {
        Status::OutOfRange => {
            let message = format!("value \"{}\" is out of range for type {}", text, type_name);
            return Error::new(NUMERIC_VALUE_OUT_OF_RANGE, message, None, hint);
        }
        Status::BadLength => format!("The input is {} characters long.", text.len()),
        Status::BadChar(pos) => format!("Character {} is not allowed here.", pos + 1),
        Status::BadShape(pos) => {
            format!("Character {} is out of place: a group has the wrong number of digits.", pos + 1)
        }
        Status::BadReserved => "Reserved bits are set.".to_string(),
    };
    let message = format!("invalid input syntax for type {}: \"{}\"", type_name, text);
    Error::new(INVALID_TEXT_REPRESENTATION, message, Some(detail), hint)
}

/// The bytes of a binary value of `N` bytes, or the server's error for
/// another length.
pub(crate) fn binary_input<const N: usize>(data: &[u8], type_name: &str) -> Result<[u8; N], Error> {
    data.try_into().map_err(|_| {
        Error::new(
            INVALID_BINARY_REPRESENTATION,
            format!("invalid binary length for type {}: {} bytes", type_name, data.len()),
            Some(format!("A {} is {} bytes.", type_name, N)),
            None,
        )
    })
}

/// The server's 22003 for an argument outside `lo..=hi`.
pub(crate) fn check_field(type_name: &str, arg: &str, value: i64, lo: i64, hi: i64) -> Result<(), Error> {
    if (lo..=hi).contains(&value) {
        return Ok(());
    }
    Err(Error::new(
        NUMERIC_VALUE_OUT_OF_RANGE,
        format!("value {} is out of range for argument \"{}\"", value, arg),
        Some(format!("Type {} takes \"{}\" from {} to {}.", type_name, arg, lo, hi)),
        None,
    ))
}

/// The first argument outside `0..=max` of a from_parts function, by
/// name, value and largest value.
pub(crate) fn check_fields(type_name: &str, fields: &[(&str, i32, i64)]) -> Result<(), Error> {
    fields.iter().try_for_each(|&(arg, value, max)| check_field(type_name, arg, value.into(), 0, max))
}

/// A value of a type whose values are `0..=hi`, or its error: 22P03 for
/// binary input, 22003 for a bigint.
pub(crate) fn check_range(type_name: &str, value: i64, hi: i64, binary: bool) -> Result<u64, Error> {
    if (0..=hi).contains(&value) {
        return Ok(value as u64);
    }
    let (prefix, code) =
        if binary { ("binary value", INVALID_BINARY_REPRESENTATION) } else { ("value", NUMERIC_VALUE_OUT_OF_RANGE) };
    Err(Error::new(
        code,
        format!("{} {} is out of range for type {}", prefix, value, type_name),
        Some(format!("A {} is between 0 and {}.", type_name, hi)),
        None,
    ))
}

/// A time as the server writes it in messages (ISO, UTC): seconds, and
/// the microseconds without trailing zeros where there are any.
pub(crate) fn timestamp_text(us: i64) -> String {
    day_time_text(us.div_euclid(86_400_000_000), us.rem_euclid(86_400_000_000))
}

/// The same of milliseconds since 1970, which can be past `i64`
/// microseconds (a base clock the server refuses).
pub(crate) fn timestamp_text_ms(ms: i64) -> String {
    day_time_text(ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000) * 1000)
}

/// A day counted from 1970-01-01 and the microseconds into it, as above.
fn day_time_text(days: i64, rest: i64) -> String {
    let (year, month, day) = civil_from_days(days);
    let secs = rest / 1_000_000;
    let mut text =
        format!("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", year, month, day, secs / 3600, secs / 60 % 60, secs % 60);
    let frac = rest % 1_000_000;
    if frac != 0 {
        text += format!(".{:06}", frac).trim_end_matches('0');
    }
    text + "+00"
}

/// The proleptic Gregorian date of a day counted from 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468; // from 0000-03-01
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A format's clock: ticks of `tick_us` microseconds from `epoch_us`
/// (Unix), `0..=tick_max` (the server's UidClockSpec).
#[derive(Clone, Copy)]
pub(crate) struct Clock {
    pub type_name: &'static str,
    pub epoch_us: i64,
    pub tick_us: i64,
    pub tick_max: i64,
}

impl Clock {
    /// The tick that holds `us` (`round_up` false: from_parts), or the
    /// first at or after it (true: boundary; earlier times give 0); 22008
    /// outside the range.
    pub fn tick(&self, us: i64, round_up: bool) -> Result<i64, Error> {
        let rel = i128::from(us) - i128::from(self.epoch_us);
        if rel < 0 {
            return if round_up { Ok(0) } else { Err(self.out_of_range(us)) };
        }
        let tick_us = i128::from(self.tick_us);
        let mut tick = rel / tick_us;
        if round_up && rel % tick_us != 0 {
            tick += 1;
        }
        if tick > i128::from(self.tick_max) {
            return Err(self.out_of_range(us));
        }
        Ok(tick as i64)
    }

    /// The start of a tick.
    pub fn unix_micros(&self, tick: i64) -> i64 {
        self.epoch_us.saturating_add(tick.saturating_mul(self.tick_us))
    }

    fn out_of_range(&self, us: i64) -> Error {
        Error::new(
            DATETIME_VALUE_OUT_OF_RANGE,
            format!("timestamp out of range for type {}: \"{}\"", self.type_name, timestamp_text(us)),
            Some(format!(
                "The range is {} to {}.",
                timestamp_text(self.epoch_us),
                timestamp_text(self.unix_micros(self.tick_max))
            )),
            None,
        )
    }
}

/// The value of an ASCII hex digit of either case.
pub(crate) fn hexval(c: u8) -> Option<u64> {
    (c as char).to_digit(16).map(u64::from)
}

/// Reads text of `width` digits of `bits` bits each (`digit` gives their
/// values), most significant first, or the input function's error for
/// another length or the first character `digit` refuses.
pub(crate) fn read_digits(
    type_name: &str,
    expected: &str,
    text: &str,
    width: usize,
    bits: u32,
    digit: impl Fn(u8) -> Option<u64>,
) -> Result<u128, Error> {
    if text.len() != width {
        return Err(text_error(type_name, text, Status::BadLength, expected));
    }
    text.bytes().enumerate().try_fold(0u128, |acc, (i, c)| match digit(c) {
        Some(d) => Ok(acc << bits | u128::from(d)),
        None => Err(text_error(type_name, text, Status::BadChar(i), expected)),
    })
}

/// Writes the low `N * bits` bits of `value` as `N` digits of `alphabet`.
pub(crate) fn write_digits<const N: usize>(mut value: u128, bits: u32, alphabet: &[u8]) -> String {
    let mut out = [0u8; N];
    for c in out.iter_mut().rev() {
        *c = alphabet[(value & ((1 << bits) - 1)) as usize];
        value >>= bits;
    }
    out.iter().map(|&c| c as char).collect()
}

/// The digit of a character in an alphabet.
pub(crate) fn alphabet_digit(alphabet: &[u8], c: u8) -> Option<u64> {
    alphabet.iter().position(|&a| a == c).map(|d| d as u64)
}

/// The unsigned integer of big-endian bytes.
pub(crate) fn be_value(bytes: &[u8]) -> u128 {
    bytes.iter().fold(0, |acc, &b| acc << 8 | u128::from(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(timestamp_text(0), "1970-01-01 00:00:00+00");
        assert_eq!(timestamp_text(3_461_327_255_548_000), "2079-09-07 15:47:35.548+00");
        assert_eq!(timestamp_text(-1), "1969-12-31 23:59:59.999999+00");
        assert_eq!(timestamp_text(951_782_400_000_000), "2000-02-29 00:00:00+00");
    }

    #[test]
    fn system_times() {
        for us in [0, 1, -1, 1_704_067_200_000_000, -315_619_200_000_001] {
            assert_eq!(unix_micros(system_time(us)), us);
        }
        assert_eq!(unix_micros(UNIX_EPOCH - Duration::from_nanos(1)), -1);
    }
}
