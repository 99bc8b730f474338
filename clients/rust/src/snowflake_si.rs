//! snowflake_si (Snowflake-SI): a 53-bit integer, taken apart under a `Layout`.

use std::fmt;
use std::str::FromStr;

use crate::sqlstate::INVALID_PARAMETER_VALUE;
use crate::{binary_input, check_field, check_range, text_error, timestamp_text_ms, Clock, Error, Status};

const MAX: i64 = (1 << 53) - 1;
const MAB_MAX: i64 = (1 << 40) - 1;
const EPOCH_MIN: i64 = 1_047_972_019_225; // ms: 2003-03-18 07:20:19.225+00
/// The server's last base clock (294212-03-08 08:07:07+00): its clock, to
/// the 40-bit end, has its microseconds in an `i64`.
const EPOCH_MAX: i64 = i64::MAX / 1000 - MAB_MAX;
/// The last whole millisecond a `timestamptz` holds (294276-12-31
/// 23:59:59.999+00): the server's base clock is a timestamptz argument or
/// setting, so none later reaches it.
const TIMESTAMPTZ_LAST_MS: i64 = 9_224_318_015_999_999;
const EXPECTED: &str = "a decimal integer from 0 to 9007199254740991";

/// What the server reads from `uid.snowflake_si_epoch` and
/// `uid.snowflake_si_index_bits` to take a snowflake_si apart: the base
/// clock in milliseconds since 1970 and the index width. A client cannot
/// read them by itself; the default is the settings' defaults (2024-01-01
/// and 8). Every function that uses a layout checks it first, with the
/// server's errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Layout {
    pub epoch_unix_ms: i64,
    pub index_bits: i32,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::DEFAULT
    }
}

/// A snowflake_si (Snowflake-SI): a 53-bit integer, milliseconds after a
/// base clock, machine id and index. It carries the [`Layout`] it was read
/// with for its time, machine and index. Ordered as the integer, as the
/// server orders it (then by layout, which the server has one of).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SnowflakeSi {
    value: i64,
    layout: Layout,
}

impl Layout {
    /// The settings' defaults: 2024-01-01 00:00:00 UTC and 8.
    pub const DEFAULT: Layout = Layout { epoch_unix_ms: 1_704_067_200_000, index_bits: 8 };

    /// A layout the server takes, or its error for a base clock (22023) or
    /// width (22003) it refuses: the base clock from 2003-03-18
    /// 07:20:19.225+00 to 294212-03-08 08:07:07+00 (the last whose clock
    /// has its microseconds in an `i64`; one past the last a `timestamptz`
    /// holds is refused as the server refuses `'infinity'`, the only base
    /// clock past it that it can be given).
    pub fn new(epoch_unix_ms: i64, index_bits: i32) -> Result<Layout, Error> {
        Layout { epoch_unix_ms, index_bits }.check()
    }

    fn check(self) -> Result<Layout, Error> {
        if !(EPOCH_MIN..=EPOCH_MAX).contains(&self.epoch_unix_ms) {
            // past a timestamptz's last the server has no timestamp to name
            // (its nearest refusal is "infinity"'s, with this message and detail)
            let text = if self.epoch_unix_ms > TIMESTAMPTZ_LAST_MS {
                "infinity".to_string()
            } else {
                timestamp_text_ms(self.epoch_unix_ms)
            };
            return Err(Error {
                sqlstate: INVALID_PARAMETER_VALUE,
                message: format!("invalid snowflake_si base clock: \"{}\"", text),
                detail: Some(
                    "The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00."
                        .to_string(),
                ),
                hint: None,
            });
        }
        check_field("snowflake_si", "index_bits", self.index_bits.into(), 1, 13)?;
        Ok(self)
    }

    fn make(self, value: i64) -> Result<SnowflakeSi, Error> {
        Ok(SnowflakeSi { value, layout: self.check()? })
    }

    fn clock(self) -> Clock {
        Clock {
            type_name: "snowflake_si",
            epoch_us: self.epoch_unix_ms.saturating_mul(1000),
            tick_us: 1000,
            tick_max: MAB_MAX,
        }
    }

    /// Reads decimal text under this layout, as snowflake_si's input
    /// function does (white space around it and leading zeros allowed, as
    /// for bigint).
    pub fn parse(self, text: &str) -> Result<SnowflakeSi, Error> {
        let refuse = |status| text_error("snowflake_si", text, status, EXPECTED);
        let is_space = |c: &u8| *c == b' ' || (b'\t'..=b'\r').contains(c);
        let bytes = text.as_bytes();
        let start = bytes.iter().position(|c| !is_space(c)).unwrap_or(bytes.len());
        let end = bytes.iter().rposition(|c| !is_space(c)).map_or(start, |i| i + 1);
        if start == end {
            return Err(refuse(Status::BadChar(bytes.len())));
        }
        if let Some(i) = (start..end).find(|&i| !bytes[i].is_ascii_digit()) {
            return Err(refuse(Status::BadChar(i)));
        }
        match text[start..end].parse::<u64>() {
            Ok(value) if value <= MAX as u64 => self.make(value as i64),
            _ => Err(refuse(Status::OutOfRange)),
        }
    }

    /// Reads the binary form (a big-endian int64) under this layout.
    pub fn from_bytes(self, data: &[u8]) -> Result<SnowflakeSi, Error> {
        let value = i64::from_be_bytes(binary_input(data, "snowflake_si")?);
        self.make(check_range("snowflake_si", value, MAX, true)? as i64)
    }

    /// `bigint::snowflake_si` under this layout: 0 ..= 2^53 - 1, else 22003.
    pub fn from_i64(self, value: i64) -> Result<SnowflakeSi, Error> {
        self.make(check_range("snowflake_si", value, MAX, false)? as i64)
    }

    /// `snowflake_si_from_parts(t, machine, index, epoch, index_bits)`:
    /// the time floored to the millisecond.
    pub fn from_parts(self, unix_us: i64, machine: i32, index: i32) -> Result<SnowflakeSi, Error> {
        let l = self.check()?;
        let k = l.index_bits;
        check_field("snowflake_si", "machine", machine.into(), 0, (1 << (13 - k)) - 1)?;
        check_field("snowflake_si", "index", index.into(), 0, (1 << k) - 1)?;
        let mab = l.clock().tick(unix_us, false)?;
        Ok(SnowflakeSi { value: mab << 13 | i64::from(machine) << k | i64::from(index), layout: l })
    }

    /// `snowflake_si_boundary(t)` on a server whose base clock is this
    /// layout's (the width only goes with the result).
    pub fn boundary(self, unix_us: i64) -> Result<SnowflakeSi, Error> {
        let l = self.check()?;
        Ok(SnowflakeSi { value: l.clock().tick(unix_us, true)? << 13, layout: l })
    }
}

impl SnowflakeSi {
    /// Reads the binary form with the default layout.
    pub fn from_bytes(data: &[u8]) -> Result<SnowflakeSi, Error> {
        Layout::DEFAULT.from_bytes(data)
    }

    /// `bigint::snowflake_si` with the default layout.
    pub fn from_i64(value: i64) -> Result<SnowflakeSi, Error> {
        Layout::DEFAULT.from_i64(value)
    }

    /// `snowflake_si_from_parts(t, machine, index)` with the default layout.
    pub fn from_parts(unix_us: i64, machine: i32, index: i32) -> Result<SnowflakeSi, Error> {
        Layout::DEFAULT.from_parts(unix_us, machine, index)
    }

    /// `snowflake_si_boundary(t)` on a server with the default layout.
    pub fn boundary(unix_us: i64) -> Result<SnowflakeSi, Error> {
        Layout::DEFAULT.boundary(unix_us)
    }

    /// The binary form.
    pub fn to_bytes(&self) -> [u8; 8] {
        self.value.to_be_bytes()
    }

    /// `snowflake_si::bigint`.
    pub fn to_i64(&self) -> i64 {
        self.value
    }

    /// The layout the value was read with.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The same ID under another layout.
    pub fn with_layout(&self, layout: Layout) -> Result<SnowflakeSi, Error> {
        layout.make(self.value)
    }

    /// `snowflake_si_timestamp(id, epoch)` in microseconds since 1970: the
    /// start of its millisecond.
    pub fn unix_micros(&self) -> i64 {
        self.layout.clock().unix_micros(self.value >> 13)
    }

    /// `snowflake_si_machine(id, index_bits)`.
    pub fn machine(&self) -> i32 {
        let k = self.layout.index_bits;
        (self.value >> k) as i32 & ((1 << (13 - k)) - 1)
    }

    /// `snowflake_si_index(id, index_bits)`.
    pub fn index(&self) -> i32 {
        self.value as i32 & ((1 << self.layout.index_bits) - 1)
    }
}

impl FromStr for SnowflakeSi {
    type Err = Error;

    /// Reads decimal text with the default layout.
    fn from_str(text: &str) -> Result<SnowflakeSi, Error> {
        Layout::DEFAULT.parse(text)
    }
}

impl fmt::Display for SnowflakeSi {
    /// The text form: the decimal integer.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value)
    }
}
