//! muid (Gink): 16 bytes.

use std::fmt;
use std::str::FromStr;

use crate::{be_value, binary_input, check_field, hexval, text_error, Clock, Error, Status};

// the all-ones timestamp is Gink's sentinel, not a time from_parts takes
const CLOCK: Clock = Clock { type_name: "muid", epoch_us: 0, tick_us: 1, tick_max: (1 << 52) - 2 };
const MEDALLION_MAX: i64 = (1 << 44) - 1;
const EXPECTED: &str = "hex digits in groups of 13, 11 and 8 joined by dashes \
                        (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups";

/// A muid (Gink): 16 bytes; microseconds since 1970, medallion and the
/// offset within its transaction. Ordered by its bytes, as the server
/// orders it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Muid([u8; 16]);

impl Muid {
    fn of(ts: u64, medallion: u64, offset: u32) -> Muid {
        Muid((u128::from(ts) << 76 | u128::from(medallion) << 32 | u128::from(offset)).to_be_bytes())
    }

    fn value(&self) -> u128 {
        be_value(&self.0)
    }

    fn ts(&self) -> u64 {
        (self.value() >> 76) as u64
    }

    /// Reads the 16-byte binary form (send/recv).
    pub fn from_bytes(data: &[u8]) -> Result<Muid, Error> {
        binary_input(data, "muid").map(Muid)
    }

    /// The binary form (also `muid::uuid`'s 16 bytes).
    pub fn to_bytes(&self) -> [u8; 16] {
        self.0
    }

    /// `uuid::muid`: the same 16 bytes.
    pub fn from_uuid(uuid: [u8; 16]) -> Muid {
        Muid(uuid)
    }

    /// `muid::uuid`: the same 16 bytes.
    pub fn uuid(&self) -> [u8; 16] {
        self.0
    }

    /// `muid_timestamp()` in microseconds since 1970.
    pub fn unix_micros(&self) -> i64 {
        CLOCK.unix_micros(self.ts() as i64)
    }

    /// `muid_medallion()`: 0 ..= 2^44 - 1.
    pub fn medallion(&self) -> i64 {
        (self.value() >> 32) as i64 & MEDALLION_MAX
    }

    /// `muid_offset()`: signed, -1 is FFFFFFFF.
    pub fn offset(&self) -> i32 {
        self.value() as u32 as i32
    }

    /// `muid_from_parts(t, medallion, offset)`: the time exact to the microsecond.
    pub fn from_parts(unix_us: i64, medallion: i64, offset: i32) -> Result<Muid, Error> {
        check_field("muid", "medallion", medallion, 0, MEDALLION_MAX)?;
        let ts = CLOCK.tick(unix_us, false)?;
        Ok(Muid::of(ts as u64, medallion as u64, offset as u32))
    }

    /// `muid_boundary(t)`: the smallest muid at or after the time.
    pub fn boundary(unix_us: i64) -> Result<Muid, Error> {
        Ok(Muid::of(CLOCK.tick(unix_us, true)? as u64, 0, 0))
    }
}

impl FromStr for Muid {
    type Err = Error;

    /// Reads text as muid's input function does (either case, and the two
    /// short forms).
    fn from_str(text: &str) -> Result<Muid, Error> {
        let refuse = |status| text_error("muid", text, status, EXPECTED);
        let groups = match text.len() {
            34 => 3,
            25 => 2,
            13 => 1,
            _ => return Err(refuse(Status::BadLength)),
        };
        let bytes = text.as_bytes();
        let mut values = [0u64; 3];
        let mut pos = 0;
        for (g, width) in [13, 11, 8].into_iter().take(groups).enumerate() {
            if g > 0 {
                if bytes[pos] != b'-' {
                    let shape = hexval(bytes[pos]).is_some();
                    return Err(refuse(if shape { Status::BadShape(pos) } else { Status::BadChar(pos) }));
                }
                pos += 1;
            }
            for _ in 0..width {
                match hexval(bytes[pos]) {
                    Some(d) => values[g] = values[g] << 4 | d,
                    None if bytes[pos] == b'-' => return Err(refuse(Status::BadShape(pos))),
                    None => return Err(refuse(Status::BadChar(pos))),
                }
                pos += 1;
            }
        }
        Ok(Muid::of(values[0], values[1], values[2] as u32))
    }
}

impl fmt::Display for Muid {
    /// The text form, as muid's output function writes it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:013X}-{:011X}-{:08X}", self.ts(), self.medallion(), self.offset() as u32)
    }
}
