//! revts8 (LableOrg/java-uniqueid): 8 bytes.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use crate::sqlstate::{INVALID_BINARY_REPRESENTATION, NUMERIC_VALUE_OUT_OF_RANGE};
use crate::{binary_input, check_fields, hexval, read_digits, text_error, Clock, Error, Status};

const RESERVED: u64 = 0xFC00;
const LOW_MASK: u64 = (1 << 22) - 1;
const TS_MAX: i64 = (1 << 42) - 1;
const EXPECTED: &str = "16 hexadecimal digits with bits 15 to 10 clear";
const CLOCK: Clock = Clock { type_name: "revts8", epoch_us: 0, tick_us: 1000, tick_max: TS_MAX };

/// A revts8 (LableOrg/java-uniqueid): 8 bytes, the millisecond timestamp
/// bit-reversed, then sequence, generator and cluster. Ordered by time
/// (timestamp, sequence, generator, cluster) as the server's default
/// `revts8_ops`, not by its bytes ([`Revts8::cmp_bytes`] gives that order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Revts8 {
    key: u64, // in time order: timestamp << 22 | the low 22 bits
}

impl Revts8 {
    /// The ID of the canonical 64 bits, or the error for reserved bits set
    /// in a value from `source` ("binary", "bigint").
    fn of(canonical: u64, source: &str) -> Result<Revts8, Error> {
        if canonical & RESERVED != 0 {
            let code = if source == "binary" { INVALID_BINARY_REPRESENTATION } else { NUMERIC_VALUE_OUT_OF_RANGE };
            return Err(Error {
                sqlstate: code,
                message: format!("invalid {} value for type revts8: reserved bits are set", source),
                detail: Some(format!("Bits 15 to 10 of a revts8 must be zero; the value is {:016x}.", canonical)),
                hint: None,
            });
        }
        Ok(Revts8 { key: (canonical.reverse_bits() & TS_MAX as u64) << 22 | canonical & LOW_MASK })
    }

    fn canonical(&self) -> u64 {
        (self.key >> 22).reverse_bits() | self.key & LOW_MASK
    }

    /// Reads the 8-byte binary form (send/recv).
    pub fn from_bytes(data: &[u8]) -> Result<Revts8, Error> {
        Revts8::of(u64::from_be_bytes(binary_input(data, "revts8")?), "binary")
    }

    /// `bigint::revts8`: the bytes as a signed big-endian integer.
    pub fn from_i64(value: i64) -> Result<Revts8, Error> {
        Revts8::of(value as u64, "bigint")
    }

    /// The binary form.
    pub fn to_bytes(&self) -> [u8; 8] {
        self.canonical().to_be_bytes()
    }

    /// `revts8::bigint`.
    pub fn to_i64(&self) -> i64 {
        self.canonical() as i64
    }

    /// `revts8_timestamp()` in microseconds since 1970: its millisecond.
    pub fn unix_micros(&self) -> i64 {
        CLOCK.unix_micros((self.key >> 22) as i64)
    }

    /// `revts8_sequence()`: 0 ..= 63.
    pub fn sequence(&self) -> i32 {
        (self.key >> 16 & 63) as i32
    }

    /// `revts8_generator()`: 0 ..= 63.
    pub fn generator(&self) -> i32 {
        (self.key >> 4 & 63) as i32
    }

    /// `revts8_cluster()`: 0 ..= 15.
    pub fn cluster(&self) -> i32 {
        (self.key & 15) as i32
    }

    /// The order of `revts8_bytes_ops`: the bytes'.
    pub fn cmp_bytes(&self, other: &Revts8) -> Ordering {
        self.canonical().cmp(&other.canonical())
    }

    /// `revts8_from_parts(t, sequence, generator, cluster)`: the time
    /// floored to the millisecond.
    pub fn from_parts(unix_us: i64, sequence: i32, generator: i32, cluster: i32) -> Result<Revts8, Error> {
        check_fields("revts8", &[("sequence", sequence, 63), ("generator", generator, 63), ("cluster", cluster, 15)])?;
        let ts = CLOCK.tick(unix_us, false)? as u64;
        Ok(Revts8 { key: ts << 22 | (sequence as u64) << 16 | (generator as u64) << 4 | cluster as u64 })
    }

    /// `revts8_boundary(t)`: the smallest ID in time order at or after the time.
    pub fn boundary(unix_us: i64) -> Result<Revts8, Error> {
        Ok(Revts8 { key: (CLOCK.tick(unix_us, true)? as u64) << 22 })
    }
}

impl FromStr for Revts8 {
    type Err = Error;

    /// Reads text as revts8's input function does (either case).
    fn from_str(text: &str) -> Result<Revts8, Error> {
        let canonical = read_digits("revts8", EXPECTED, text, 16, 4, hexval)? as u64;
        if canonical & RESERVED != 0 {
            return Err(text_error("revts8", text, Status::BadReserved, EXPECTED));
        }
        Revts8::of(canonical, "")
    }
}

impl fmt::Display for Revts8 {
    /// The text form: the 8 bytes in hex.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.canonical())
    }
}
