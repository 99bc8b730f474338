//! sno (muyo/sno): 10 bytes.

use std::fmt;
use std::str::FromStr;

use crate::{alphabet_digit, be_value, binary_input, check_fields, read_digits, write_digits, Clock, Error};

const ALPHABET: &[u8] = b"23456789abcdefghijklmnopqrstuvwx";
const EXPECTED: &str = "16 characters of 2-9 and a-x";
const CLOCK: Clock =
    Clock { type_name: "sno", epoch_us: 1_262_304_000_000_000, tick_us: 4000, tick_max: (1 << 39) - 1 };

/// A sno (muyo/sno): 10 bytes; time in 4 ms units since 2010, the
/// tick-tock bit, meta, partition and sequence. Ordered by its bytes, as
/// the server orders it. The default is the sno `2222222222222222`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sno([u8; 10]);

impl Sno {
    fn of(value: u128) -> Sno {
        let mut b = [0; 10];
        b.copy_from_slice(&value.to_be_bytes()[6..]);
        Sno(b)
    }

    fn value(&self) -> u128 {
        be_value(&self.0)
    }

    fn field(&self, shift: u32, mask: u128) -> i32 {
        (self.value() >> shift & mask) as i32
    }

    /// Reads the 10-byte binary form (send/recv).
    pub fn from_bytes(data: &[u8]) -> Result<Sno, Error> {
        binary_input(data, "sno").map(Sno)
    }

    /// The binary form.
    pub fn to_bytes(&self) -> [u8; 10] {
        self.0
    }

    /// `sno_timestamp()` in microseconds since 1970: the start of its 4 ms unit.
    pub fn unix_micros(&self) -> i64 {
        CLOCK.unix_micros((self.value() >> 41) as i64)
    }

    /// `sno_tick()`: the tick-tock bit.
    pub fn tick(&self) -> i32 {
        self.field(40, 1)
    }

    /// `sno_meta()`: the metabyte.
    pub fn meta(&self) -> i32 {
        self.field(32, 0xFF)
    }

    /// `sno_partition()`.
    pub fn partition(&self) -> i32 {
        self.field(16, 0xFFFF)
    }

    /// `sno_sequence()`.
    pub fn sequence(&self) -> i32 {
        self.field(0, 0xFFFF)
    }

    /// `sno_from_parts(t, meta, partition, sequence, tick)`: the time
    /// floored to 4 ms; the same checks and errors.
    pub fn from_parts(unix_us: i64, meta: i32, partition: i32, sequence: i32, tick: i32) -> Result<Sno, Error> {
        check_fields(
            "sno",
            &[
                ("meta", meta, 0xFF),
                ("partition", partition, 0xFFFF),
                ("sequence", sequence, 0xFFFF),
                ("tick", tick, 1),
            ],
        )?;
        let units = CLOCK.tick(unix_us, false)?;
        let low = (tick as u128) << 40 | (meta as u128) << 32 | (partition as u128) << 16 | sequence as u128;
        Ok(Sno::of((units as u128) << 41 | low))
    }

    /// `sno_boundary(t)`: the smallest sno at or after the time.
    pub fn boundary(unix_us: i64) -> Result<Sno, Error> {
        Ok(Sno::of((CLOCK.tick(unix_us, true)? as u128) << 41))
    }
}

impl FromStr for Sno {
    type Err = Error;

    /// Reads text as sno's input function does (upper case accepted).
    fn from_str(text: &str) -> Result<Sno, Error> {
        let digit = |c: u8| alphabet_digit(ALPHABET, c.to_ascii_lowercase());
        read_digits("sno", EXPECTED, text, 16, 5, digit).map(Sno::of)
    }
}

impl fmt::Display for Sno {
    /// The text form, as sno's output function writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_digits::<16>(self.value(), 5, ALPHABET))
    }
}
