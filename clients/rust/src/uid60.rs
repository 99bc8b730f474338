//! uid60 (abyss-club/uexky): a 60-bit integer.

use std::fmt;
use std::str::FromStr;

use crate::{alphabet_digit, binary_input, check_fields, check_range, read_digits, write_digits, Clock, Error};

const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const MAX: i64 = (1 << 60) - 1;
const LOW_MASK: u64 = (1 << 28) - 1;
const EXPECTED: &str = "10 characters of A-Z, a-z, 0-9, - and _";
const CLOCK: Clock =
    Clock { type_name: "uid60", epoch_us: 1_519_862_400_000_000, tick_us: 1_000_000, tick_max: (1 << 32) - 1 };

/// A uid60 (abyss-club/uexky): a 60-bit integer, seconds since 2018-03-01,
/// worker, sequence and random bits. Ordered as the integer, as the server
/// orders it (its text, made to look random, is not in that order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Uid60(u64);

/// `n` with its 32-bit timestamp bit-reversed (its own inverse): the
/// integer the text writes.
fn display(n: u64) -> u64 {
    u64::from(((n >> 28) as u32).reverse_bits()) << 28 | n & LOW_MASK
}

impl Uid60 {
    /// Reads the binary form (a big-endian int64).
    pub fn from_bytes(data: &[u8]) -> Result<Uid60, Error> {
        let value = i64::from_be_bytes(binary_input(data, "uid60")?);
        check_range("uid60", value, MAX, true).map(Uid60)
    }

    /// `bigint::uid60`: 0 ..= 2^60 - 1, else 22003.
    pub fn from_i64(value: i64) -> Result<Uid60, Error> {
        check_range("uid60", value, MAX, false).map(Uid60)
    }

    /// The binary form.
    pub fn to_bytes(&self) -> [u8; 8] {
        self.0.to_be_bytes()
    }

    /// `uid60::bigint`.
    pub fn to_i64(&self) -> i64 {
        self.0 as i64
    }

    /// `uid60_timestamp()` in microseconds since 1970: its second.
    pub fn unix_micros(&self) -> i64 {
        CLOCK.unix_micros((self.0 >> 28) as i64)
    }

    /// `uid60_worker()`: 0 ..= 511.
    pub fn worker(&self) -> i32 {
        (self.0 >> 19 & 511) as i32
    }

    /// `uid60_sequence()`: 0 ..= 1023.
    pub fn sequence(&self) -> i32 {
        (self.0 >> 9 & 1023) as i32
    }

    /// `uid60_random()`: 0 ..= 511.
    pub fn random(&self) -> i32 {
        (self.0 & 511) as i32
    }

    /// `uid60_from_parts(t, worker, sequence, random)`: the time floored to the second.
    pub fn from_parts(unix_us: i64, worker: i32, sequence: i32, random: i32) -> Result<Uid60, Error> {
        check_fields("uid60", &[("worker", worker, 511), ("sequence", sequence, 1023), ("random", random, 511)])?;
        let ts = CLOCK.tick(unix_us, false)? as u64;
        Ok(Uid60(ts << 28 | (worker as u64) << 19 | (sequence as u64) << 9 | random as u64))
    }

    /// `uid60_boundary(t)`: the smallest ID at or after the time.
    pub fn boundary(unix_us: i64) -> Result<Uid60, Error> {
        Ok(Uid60((CLOCK.tick(unix_us, true)? as u64) << 28))
    }
}

impl FromStr for Uid60 {
    type Err = Error;

    /// Reads text as uid60's input function does.
    fn from_str(text: &str) -> Result<Uid60, Error> {
        let digit = |c| alphabet_digit(ALPHABET, c);
        let shown = read_digits("uid60", EXPECTED, text, 10, 6, digit)?;
        Ok(Uid60(display(shown as u64)))
    }
}

impl fmt::Display for Uid60 {
    /// The text form, as uid60's output function writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_digits::<10>(display(self.0).into(), 6, ALPHABET))
    }
}
