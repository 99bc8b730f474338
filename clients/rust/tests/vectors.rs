//! The value types against the shared vectors, offline: every ID reads
//! from its input to the vector's text, bytes, fields, time and bigint,
//! reads back from its text and bytes, and comes back from its parts;
//! every refused input is the server's 22P02 or 22003; the messages and
//! the orders.

mod common;

use std::collections::BTreeSet;
use std::time::UNIX_EPOCH;

use common::{field_names, hex, layout_of, load_vectors, unhex, unix_us, AnyId};
use pgkuid::sqlstate::*;
use pgkuid::{unix_micros, Error, Id, Layout, Muid, Revts8, Sno, SnowflakeSi, Uid60};

#[test]
fn vectors() {
    let (ids, _) = load_vectors();
    let mut failures = Vec::new();
    let mut checks = 0;
    let mut types = BTreeSet::new();
    for v in &ids {
        types.insert(v.type_name.clone());
        let name = format!("{} {}", v.type_name, v.input);
        let layout = layout_of(v);
        let x = match AnyId::read_input(v, layout) {
            Ok(x) => x,
            Err(e) => {
                failures.push(format!("{}: {:?}", name, e));
                continue;
            }
        };
        let mut check = |ok: bool, what: String| {
            checks += 1;
            if !ok {
                failures.push(format!("{}: {}", name, what));
            }
        };
        check(x.text() == v.text, format!("text {}, want {}", x.text(), v.text));
        check(hex(&x.bytes()) == v.bytes, format!("bytes {}, want {}", hex(&x.bytes()), v.bytes));
        check(x.unix_us() == v.unix_us, format!("time {}, want {}", x.unix_us(), v.unix_us));
        let want: Vec<i64> = field_names(&v.type_name).iter().map(|f| v.fields[*f]).collect();
        check(x.fields() == want, format!("fields {:?}, want {:?}", x.fields(), want));
        check(x.bigint() == v.bigint, format!("bigint {:?}, want {:?}", x.bigint(), v.bigint));
        // the text and bytes read back to the same ID
        let again = AnyId::read(&v.type_name, &v.text, layout);
        check(again == Ok(x), format!("its text reads as {:?}", again));
        let again = AnyId::read_bytes(&v.type_name, &unhex(&v.bytes), layout);
        check(again == Ok(x), format!("its bytes read as {:?}", again));
        if let AnyId::Muid(m) = x {
            let uuid = v.uuid.clone().unwrap_or_default().replace('-', "");
            check(hex(&m.uuid()) == uuid && Muid::from_uuid(m.uuid()) == m, format!("uuid {}", hex(&m.uuid())));
        }
        // from_parts of the fields and the time gives the ID back (a muid
        // with the sentinel time excepted, as on the server)
        if !matches!(x, AnyId::Muid(m) if m.unix_micros() == (1 << 52) - 1) {
            let again = x.made_from_parts();
            check(again == Ok(x), format!("from its parts {:?}", again));
        }
    }
    println!("{} IDs of {} types: {} checks", ids.len(), types.len(), checks);
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    assert_eq!(types.len(), 5, "the vectors have the types {:?}, not five", types);
}

#[test]
fn refused() {
    let (_, refused) = load_vectors();
    assert!(!refused.is_empty(), "no refused inputs");
    let mut failures = Vec::new();
    for v in &refused {
        match AnyId::read(&v.type_name, &v.input, layout_of(v)) {
            Err(e) if [INVALID_TEXT_REPRESENTATION, NUMERIC_VALUE_OUT_OF_RANGE].contains(&e.sqlstate) => {}
            other => {
                failures.push(format!("{} {:?}: {:?}; want the server's 22P02 or 22003", v.type_name, v.input, other))
            }
        }
    }
    println!("{} refused inputs", refused.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

fn error(sqlstate: &'static str, message: &str, detail: &str, hint: &str) -> Error {
    let some = |s: &str| Some(s.to_string()).filter(|s| !s.is_empty());
    Error { sqlstate, message: message.to_string(), detail: some(detail), hint: some(hint) }
}

#[test]
fn messages() {
    let now = unix_micros(std::time::SystemTime::now());
    let muid_hint = "Expected hex digits in groups of 13, 11 and 8 joined by dashes \
                     (TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO), or the first one or two groups.";
    let cases = [
        (
            "brpk4q72xwf2m63".parse::<Sno>().err(),
            error(
                INVALID_TEXT_REPRESENTATION,
                r#"invalid input syntax for type sno: "brpk4q72xwf2m63""#,
                "The input is 15 characters long.",
                "Expected 16 characters of 2-9 and a-x.",
            ),
        ),
        (
            "5D5EAC793E61F1-BFC71B112D-0000000B".parse::<Muid>().err(),
            error(
                INVALID_TEXT_REPRESENTATION,
                r#"invalid input syntax for type muid: "5D5EAC793E61F1-BFC71B112D-0000000B""#,
                "Character 14 is out of place: a group has the wrong number of digits.",
                muid_hint,
            ),
        ),
        (
            "9007199254740992".parse::<SnowflakeSi>().err(),
            error(
                NUMERIC_VALUE_OUT_OF_RANGE,
                r#"value "9007199254740992" is out of range for type snowflake_si"#,
                "",
                "Expected a decimal integer from 0 to 9007199254740991.",
            ),
        ),
        (
            Uid60::from_i64(1 << 60).err(),
            error(
                NUMERIC_VALUE_OUT_OF_RANGE,
                "value 1152921504606846976 is out of range for type uid60",
                "A uid60 is between 0 and 1152921504606846975.",
                "",
            ),
        ),
        (
            Revts8::from_bytes(&[0, 0, 0, 0, 0, 0, 4, 0]).err(),
            error(
                INVALID_BINARY_REPRESENTATION,
                "invalid binary value for type revts8: reserved bits are set",
                "Bits 15 to 10 of a revts8 must be zero; the value is 0000000000000400.",
                "",
            ),
        ),
        (
            Sno::from_bytes(&[0; 9]).err(),
            error(
                INVALID_BINARY_REPRESENTATION,
                "invalid binary length for type sno: 9 bytes",
                "A sno is 10 bytes.",
                "",
            ),
        ),
        (
            Sno::from_parts(unix_us(2009, 12, 31, 23, 59, 59, 0), 0, 0, 0, 0).err(),
            error(
                DATETIME_VALUE_OUT_OF_RANGE,
                r#"timestamp out of range for type sno: "2009-12-31 23:59:59+00""#,
                "The range is 2010-01-01 00:00:00+00 to 2079-09-07 15:47:35.548+00.",
                "",
            ),
        ),
        (
            Uid60::from_parts(now, 512, 0, 0).err(),
            error(
                NUMERIC_VALUE_OUT_OF_RANGE,
                r#"value 512 is out of range for argument "worker""#,
                r#"Type uid60 takes "worker" from 0 to 511."#,
                "",
            ),
        ),
        (
            Layout { index_bits: 14, ..Layout::default() }.boundary(now).err(),
            error(
                NUMERIC_VALUE_OUT_OF_RANGE,
                r#"value 14 is out of range for argument "index_bits""#,
                r#"Type snowflake_si takes "index_bits" from 1 to 13."#,
                "",
            ),
        ),
        (
            Layout::new(1_047_972_019_224, 8).err(),
            error(
                INVALID_PARAMETER_VALUE,
                r#"invalid snowflake_si base clock: "2003-03-18 07:20:19.224+00""#,
                "The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.",
                "",
            ),
        ),
    ];
    for (got, want) in cases {
        assert_eq!(got, Some(want));
    }
}

#[test]
fn order() {
    let at = unix_us(2026, 11, 1, 0, 0, 0, 0);
    // revts8: time order, not the bytes'
    let early = Revts8::from_parts(at, 63, 0, 0).unwrap();
    let late = Revts8::from_parts(at + 1000, 0, 0, 0).unwrap();
    assert!(early < late);
    let (one, two) = (Revts8::from_parts(1000, 0, 0, 0).unwrap(), Revts8::from_parts(2000, 0, 0, 0).unwrap());
    assert!(one < two && one.cmp_bytes(&two).is_gt(), "1 ms and 2 ms: {} {}", one, two);
    // a boundary is above every ID before it, and at the next tick
    let b = Sno::boundary(at + 1).unwrap();
    let x = Sno::from_parts(at, 255, 65535, 65535, 1).unwrap();
    assert!(x < b && b.unix_micros() == at + 4000 && Sno::boundary(at).unwrap() <= x);
    // uid60: the integer's order, not the text's
    let (a, z) = (Uid60::from_i64(1 << 28).unwrap(), Uid60::from_i64(2 << 28).unwrap());
    assert!(a < z && a.to_string() > z.to_string());
    // snowflake_si: the integer's; muid: the bytes'
    assert!(SnowflakeSi::from_i64(9).unwrap() < SnowflakeSi::from_i64(10).unwrap());
    let m = |s: &str| s.parse::<Muid>().unwrap();
    assert!(m("5D5EAC793E61F-1BFC71B112D-FFFFFFFF") > m("5D5EAC793E61F-1BFC71B112D-0000000B"));
    // and the times: a boundary of a SystemTime, and time() back
    assert_eq!(unix_micros(Uid60::boundary(at).unwrap().time()), at);
    assert!(x.time() > UNIX_EPOCH);
    // the boundaries of 2026-11-01 00:00:00.000001+00 through the trait,
    // as the server gives them (sno_boundary() and the others)
    fn text_of<T: Id>(unix_us: i64) -> String {
        T::boundary(unix_us).map(|x| x.to_string()).unwrap_or_else(|e| e.message)
    }
    let at = at + 1;
    assert_eq!(
        [text_of::<Sno>(at), text_of::<Muid>(at), text_of::<SnowflakeSi>(at), text_of::<Revts8>(at), text_of::<Uid60>(at)],
        ["9pdbrg2422222222", "65F2BB5E24001-00000000000-00000000", "732561408008192", "8017e62985800000", "gXzyCAAAAA"]
    );
}

/// revts8's cmp_bytes is the order of the binary form, which the vectors
/// hold as hex (as many digits each); Ord is the order of their times;
/// and for two IDs the server made, the two orders differ.
#[test]
fn revts8_byte_order() {
    let (ids, _) = load_vectors();
    let vs: Vec<_> = ids.iter().filter(|v| v.type_name == "revts8" && v.options.is_empty()).collect();
    let mut pairs = 0;
    for a in &vs {
        for b in &vs {
            let (x, y) = (a.text.parse::<Revts8>().unwrap(), b.text.parse::<Revts8>().unwrap());
            assert_eq!(x.cmp_bytes(&y), a.bytes.cmp(&b.bytes), "{} {}", a.text, b.text);
            if a.unix_us < b.unix_us {
                assert!(x < y, "{} {}: time order", a.text, b.text);
            }
            pairs += 1;
        }
    }
    println!("{} revts8 vectors: {} pairs", vs.len(), pairs);
    // the vectors' times give none where the orders differ: 1 ms and 2 ms
    // after 1970, as the server makes and orders them (revts8_from_parts(t,
    // 0, 0, 0)::text and <), bytes 80… and 40…
    let (one, two) = (Revts8::from_parts(1000, 0, 0, 0).unwrap(), Revts8::from_parts(2000, 0, 0, 0).unwrap());
    assert_eq!((one.to_string(), two.to_string()), ("8000000000000000".to_string(), "4000000000000000".to_string()));
    assert!(one < two && one.cmp_bytes(&two).is_gt());
}

/// A uid60's text may begin with "0x" (both are in its alphabet): it reads
/// as text, and back.
#[test]
fn uid60_text_0x() {
    let x: Uid60 = "0xAAAAAAAA".parse().unwrap();
    assert_eq!(x.to_string(), "0xAAAAAAAA");
    assert_eq!(AnyId::read("uid60", &x.to_string(), Layout::DEFAULT), Ok(AnyId::Uid60(x)));
}

#[test]
fn layouts() {
    let x = SnowflakeSi::from_i64(123_456_789_012_345).unwrap();
    let l = Layout::new(unix_us(2010, 1, 1, 0, 0, 0, 0) / 1000, 4).unwrap();
    let y = x.with_layout(l).unwrap();
    assert_eq!((y.machine(), y.index(), y.layout()), (503, 9, l));
    assert_eq!(
        (x.machine(), x.index(), x.layout()),
        ((123_456_789_012_345_i64 >> 8 & 31) as i32, 0x79, Layout::DEFAULT)
    );
    assert_eq!(x.to_string(), y.to_string());
    assert_eq!(l.from_parts(y.unix_micros(), 503, 9), Ok(y));
    assert_eq!(" 0042\n".parse::<SnowflakeSi>().map(|x| x.to_i64()), Ok(42));
    // the base clock's ends, as the server's (the last whose clock has its
    // microseconds in an i64, and 'infinity' past a timestamptz's last)
    let refused = |text: &str| {
        Err(error(
            INVALID_PARAMETER_VALUE,
            &format!("invalid snowflake_si base clock: \"{}\"", text),
            "The base clock must be a whole number of milliseconds from 2003-03-18 07:20:19.225+00 to 294212-03-08 08:07:07+00.",
            "",
        ))
    };
    let (first, last) = (1_047_972_019_225, 9_222_272_525_227_000);
    assert_eq!(Layout::new(first, 13).map(|l| l.epoch_unix_ms), Ok(first));
    assert_eq!(Layout::new(first - 1, 13), refused("2003-03-18 07:20:19.224+00"));
    assert_eq!(Layout::new(i64::MIN, 13).map_err(|e| e.sqlstate), Err(INVALID_PARAMETER_VALUE));
    assert_eq!(Layout::new(last, 13).map(|l| l.epoch_unix_ms), Ok(last));
    assert_eq!(Layout::new(last + 1, 13), refused("294212-03-08 08:07:07.001+00"));
    // (past i64 microseconds, to a timestamptz's last millisecond)
    assert_eq!(Layout::new(9_224_318_015_999_999, 13), refused("294276-12-31 23:59:59.999+00"));
    assert_eq!(Layout::new(9_224_318_016_000_000, 13), refused("infinity"));
    assert_eq!(Layout::new(i64::MAX, 13), refused("infinity"));
    // the last base clock's clock runs to the last millisecond of i64
    // microseconds, its IDs there and back
    let far = Layout::new(last, 8).unwrap();
    let end = far.from_parts(i64::MAX, 31, 255).unwrap();
    assert_eq!((end.to_i64(), end.unix_micros()), ((1 << 53) - 1, i64::MAX / 1000 * 1000));
    assert_eq!(far.boundary(i64::MAX / 1000 * 1000).map(|x| x.to_i64()), Ok(((1 << 40) - 1) << 13));
    assert_eq!(
        far.from_parts(0, 0, 0),
        Err(error(
            DATETIME_VALUE_OUT_OF_RANGE,
            r#"timestamp out of range for type snowflake_si: "1970-01-01 00:00:00+00""#,
            "The range is 294212-03-08 08:07:07+00 to 294247-01-10 04:00:54.775+00.",
            "",
        ))
    );
}
