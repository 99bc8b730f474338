//! The value types against a server with uid, through tokio-postgres
//! (binary results and parameters, with the crate's FromSql and ToSql): the
//! server of the libpq environment (PGHOST, PGPORT, PGUSER, PGDATABASE,
//! PGPASSWORD); skipped without one, a failure under
//! UID_TEST_REQUIRE_SERVER=1. In a schema of its own, dropped at the end.
//! Per type: refused inputs give the server's errors; every vector has the
//! server's text, binary form, accessors and time, and comes back through
//! FromSql and ToSql; ORDER BY equals sorting with Ord; boundaries equal
//! the server's, errors included; and a table keyed with the type's DEFAULT
//! where a client-made boundary, a parameter, selects through the primary
//! key the rows the server's boundary selects.

mod common;

use std::fmt::Debug;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use common::{field_names, hex, load_vectors, unix_us, AnyId, Vector};
use pgkuid::{system_time, unix_micros, Error, Id, Layout, Muid, Revts8, Sno, SnowflakeSi, Uid60};
use postgres_types::{FromSqlOwned, ToSql};
use tokio_postgres::{Client, Config, NoTls};

type Result<T> = std::result::Result<T, tokio_postgres::Error>;

/// What the tests need of a type: the crate's traits and the drivers'.
trait SqlId: Id + FromSqlOwned + ToSql + Send + Sync + Debug {}
impl<T: Id + FromSqlOwned + ToSql + Send + Sync + Debug> SqlId for T {}

/// The checks made and the failures found.
#[derive(Default)]
struct Checks {
    count: usize,
    failures: Vec<String>,
}

impl Checks {
    fn check(&mut self, ok: bool, what: impl FnOnce() -> String) {
        self.count += 1;
        if !ok {
            self.failures.push(what());
        }
    }
}

/// The connection settings of the libpq environment, or None without one.
fn config() -> Option<Config> {
    let env = |key: &str| std::env::var(key).ok().filter(|v| !v.is_empty());
    if ["PGHOST", "PGPORT", "PGUSER", "PGDATABASE"].iter().all(|k| env(k).is_none()) {
        return None;
    }
    let user = env("PGUSER").or_else(|| env("USER")).unwrap_or_else(|| "postgres".to_string());
    let mut config = Config::new();
    for host in env("PGHOST").unwrap_or_else(|| "/var/run/postgresql".to_string()).split(',') {
        config.host(host);
    }
    config.port(env("PGPORT").and_then(|p| p.parse().ok()).unwrap_or(5432));
    config.dbname(&env("PGDATABASE").unwrap_or_else(|| user.clone()));
    if let Some(password) = env("PGPASSWORD") {
        config.password(password);
    }
    config.user(&user).application_name("pgkuid tests");
    Some(config)
}

/// A client of the environment's server with uid, or why there is none.
async fn connect() -> std::result::Result<Client, String> {
    let config = config().ok_or("no PGHOST, PGPORT, PGUSER or PGDATABASE")?;
    let (client, connection) = config.connect(NoTls).await.map_err(|e| e.to_string())?;
    tokio::spawn(connection);
    client.batch_execute("CREATE EXTENSION IF NOT EXISTS uid").await.map_err(|e| e.to_string())?;
    Ok(client)
}

#[tokio::test]
async fn against_server() {
    let client = match connect().await {
        Ok(client) => client,
        Err(why) if std::env::var("UID_TEST_REQUIRE_SERVER").as_deref() == Ok("1") => {
            panic!("UID_TEST_REQUIRE_SERVER=1 and no server with uid: {}", why)
        }
        Err(why) => {
            println!("skipped: no server with uid through the libpq environment: {}", why);
            return;
        }
    };
    let schema = format!("uid_rust_tests_{}", std::process::id());
    client
        .batch_execute(&format!(
            "DROP SCHEMA IF EXISTS {0} CASCADE; CREATE SCHEMA {0};
             SELECT set_config('search_path', '{0}, ' || current_setting('search_path'), false);
             SET TimeZone = 'UTC'",
            schema
        ))
        .await
        .expect("a schema of the tests' own");
    // the checks in a task of their own: a panic there still drops the schema
    let client = Arc::new(client);
    let task = tokio::spawn({
        let client = client.clone();
        async move {
            let (ids, refused) = load_vectors();
            let mut checks = Checks::default();
            let mut outcome = Ok(());
            for run in [suite::<Sno>, suite::<Muid>, suite::<SnowflakeSi>, suite::<Revts8>, suite::<Uid60>] {
                outcome = outcome.and(run(&client, &mut checks, &ids, &refused).await);
            }
            outcome = outcome.and(check_from_parts(&client, &mut checks).await);
            outcome = outcome.and(check_more_inputs(&client, &mut checks).await);
            (checks, outcome)
        }
    });
    let ran = task.await;
    let dropped = client.batch_execute(&format!("DROP SCHEMA {} CASCADE", schema)).await;
    let (checks, outcome) = ran.expect("the checks ran to their end");
    println!("{} checks against the server, {} failed", checks.count, checks.failures.len());
    let mut problems = checks.failures;
    problems.extend(outcome.err().map(|e| format!("stopped by the server's answer: {:?}", e)));
    problems.extend(dropped.err().map(|e| format!("the schema not dropped: {:?}", e)));
    assert!(problems.is_empty(), "{} failures:\n{}", problems.len(), problems.join("\n"));
}

type Suite<'a> = std::pin::Pin<Box<dyn std::future::Future<Output = Result<()>> + Send + 'a>>;

/// Every check of one type.
fn suite<'a, T: SqlId>(
    client: &'a Client,
    checks: &'a mut Checks,
    ids: &'a [Vector],
    refused: &'a [Vector],
) -> Suite<'a> {
    Box::pin(async move {
        let mine = |v: &&Vector| v.type_name == T::TYPE_NAME;
        for v in refused.iter().filter(mine) {
            check_refused::<T>(client, checks, v).await?;
        }
        // snowflake_si under other layouts: the offline tests (the server has the default)
        for v in ids.iter().filter(mine).filter(|v| v.options.is_empty()) {
            check_vector::<T>(client, checks, v).await?;
        }
        let texts: Vec<String> = ids.iter().filter(mine).map(|v| v.text.clone()).collect();
        check_order::<T>(client, checks, &texts).await?;
        let times = [
            unix_us(1960, 1, 1, 0, 0, 0, 0),
            unix_us(2026, 11, 1, 12, 0, 0, 1),
            unix_us(2031, 5, 8, 23, 3, 34, 976_001),
            unix_us(2200, 1, 1, 0, 0, 0, 0),
        ];
        for at in times.into_iter().chain(EDGES.iter().map(|&(y, mo, d, h, mi, se, us)| unix_us(y, mo, d, h, mi, se, us))) {
            check_boundary::<T>(client, checks, at).await?;
        }
        check_domain::<T>(client, checks, ids.iter().find(mine).expect("a vector of the type")).await?;
        round_trip::<T>(client, checks).await
    })
}

/// Each type's first and last representable times (the DETAIL of its
/// from_parts' errors), a microsecond outside each, and muid's sentinel
/// (2^52 - 1 µs).
const EDGES: [(i64, i64, i64, i64, i64, i64, i64); 21] = [
    (2009, 12, 31, 23, 59, 59, 999_999),
    (2010, 1, 1, 0, 0, 0, 0),
    (2079, 9, 7, 15, 47, 35, 548_000),
    (2079, 9, 7, 15, 47, 35, 548_001),
    (2079, 9, 7, 15, 47, 35, 552_000),
    (1969, 12, 31, 23, 59, 59, 999_999),
    (1970, 1, 1, 0, 0, 0, 0),
    (2112, 9, 17, 23, 53, 47, 370_494),
    (2112, 9, 17, 23, 53, 47, 370_495),
    (2112, 9, 17, 23, 53, 47, 370_496),
    (2023, 12, 31, 23, 59, 59, 999_999),
    (2024, 1, 1, 0, 0, 0, 0),
    (2058, 11, 3, 19, 53, 47, 775_000),
    (2058, 11, 3, 19, 53, 47, 775_001),
    (2109, 5, 15, 7, 35, 11, 103_000),
    (2109, 5, 15, 7, 35, 11, 103_001),
    (2018, 2, 28, 23, 59, 59, 999_999),
    (2018, 3, 1, 0, 0, 0, 0),
    (2154, 4, 7, 6, 28, 15, 0),
    (2154, 4, 7, 6, 28, 15, 1),
    (2154, 4, 7, 6, 28, 16, 0),
];

/// The server's text of a query's one value, or its error, equals the
/// crate's text or error.
async fn same_outcome(
    client: &Client,
    checks: &mut Checks,
    name: String,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    mine: std::result::Result<String, Error>,
) {
    let server = client.query_one(sql, params).await;
    let ok = match (&mine, &server) {
        (Ok(x), Ok(row)) => *x == row.get::<_, String>(0),
        (Err(e), Err(db)) => same_error(Some(e.clone()), db),
        _ => false,
    };
    checks.check(ok, || format!("{}: {:?}, the server's {:?}", name, mine, server));
}

/// Arguments of `<type>_from_parts()` after the time: in range, at the
/// ends, just outside, several outside at once (which error comes first);
/// snowflake_si's with a base clock (ms since 1970) and index width.
const PARTS: &[(&str, &[i64], Option<(i64, i32)>)] = &[
    ("sno", &[0, 0, 0, 0], None),
    ("sno", &[255, 65535, 65535, 1], None),
    ("sno", &[256, 0, 0, 0], None),
    ("sno", &[0, -1, 0, 0], None),
    ("sno", &[0, 0, 65536, 0], None),
    ("sno", &[0, 0, 0, 2], None),
    ("sno", &[256, -1, 65536, 2], None),
    ("muid", &[0, 0], None),
    ("muid", &[(1 << 44) - 1, -1], None),
    ("muid", &[1 << 44, 0], None),
    ("muid", &[-1, 0], None),
    ("snowflake_si", &[0, 0], None),
    ("snowflake_si", &[31, 255], None),
    ("snowflake_si", &[32, 0], None),
    ("snowflake_si", &[0, 256], None),
    ("snowflake_si", &[-1, 0], None),
    ("snowflake_si", &[32, 256], None),
    ("snowflake_si", &[1, 0], Some((1_072_915_200_000, 8))),
    ("snowflake_si", &[511, 15], Some((1_072_915_200_000, 4))),
    ("snowflake_si", &[512, 0], Some((1_072_915_200_000, 4))),
    ("snowflake_si", &[0, 0], Some((1_072_915_200_000, 14))),
    ("snowflake_si", &[0, 0], Some((1_072_915_200_000, 0))),
    ("snowflake_si", &[0, 0], Some((1_041_379_200_000, 8))),
    ("snowflake_si", &[9999, 9999], Some((1_041_379_200_000, 14))),
    ("snowflake_si", &[0, 0], Some((1_047_972_019_225, 13))),
    ("snowflake_si", &[0, 0], Some((9_222_272_525_227_000, 13))),
    ("snowflake_si", &[0, 0], Some((9_222_272_525_227_001, 13))),
    ("snowflake_si", &[0, 0], Some((9_224_318_015_999_999, 13))),
    ("revts8", &[0, 0, 0], None),
    ("revts8", &[63, 63, 15], None),
    ("revts8", &[64, 0, 0], None),
    ("revts8", &[0, 64, 0], None),
    ("revts8", &[0, 0, 16], None),
    ("revts8", &[-1, -1, -1], None),
    ("uid60", &[0, 0, 0], None),
    ("uid60", &[511, 1023, 511], None),
    ("uid60", &[512, 0, 0], None),
    ("uid60", &[0, 1024, 0], None),
    ("uid60", &[0, 0, 512], None),
    ("uid60", &[512, 1024, 512], None),
];

/// The crate's from_parts of PARTS' arguments, as text.
fn made_from_parts(
    type_name: &str,
    at: i64,
    a: &[i64],
    layout: Option<(i64, i32)>,
) -> std::result::Result<String, Error> {
    let i = |k: usize| a[k] as i32;
    Ok(match type_name {
        "sno" => Sno::from_parts(at, i(0), i(1), i(2), i(3))?.to_string(),
        "muid" => Muid::from_parts(at, a[0], i(1))?.to_string(),
        "snowflake_si" => match layout {
            None => SnowflakeSi::from_parts(at, i(0), i(1))?.to_string(),
            Some((epoch, bits)) => Layout { epoch_unix_ms: epoch, index_bits: bits }.from_parts(at, i(0), i(1))?.to_string(),
        },
        "revts8" => Revts8::from_parts(at, i(0), i(1), i(2))?.to_string(),
        _ => Uid60::from_parts(at, i(0), i(1), i(2))?.to_string(),
    })
}

/// from_parts equals `<type>_from_parts()`, its errors (and which comes
/// first) included, at ordinary times and at each type's edges.
async fn check_from_parts(client: &Client, checks: &mut Checks) -> Result<()> {
    let mut times = vec![
        unix_us(2026, 11, 1, 12, 0, 0, 123_456),
        unix_us(1960, 1, 1, 0, 0, 0, 0),
        unix_us(2200, 1, 1, 0, 0, 0, 0),
    ];
    times.extend(EDGES.iter().map(|&(y, mo, d, h, mi, se, us)| unix_us(y, mo, d, h, mi, se, us)));
    for at in times {
        for &(name, a, layout) in PARTS {
            let mut args: Vec<String> = a
                .iter()
                .enumerate()
                .map(|(k, n)| format!("{}::{}", n, if name == "muid" && k == 0 { "bigint" } else { "int" }))
                .collect();
            // the base clock as milliseconds: days and the rest, as a
            // timestamptz's last ones are past i64 microseconds since 1970
            let epoch = layout.map(|(ms, _)| ms);
            if let Some((_, bits)) = layout {
                args.push(
                    "'epoch'::timestamptz + make_interval(days => ($2::bigint / 86400000)::int) \
                     + ($2::bigint % 86400000) * interval '1 millisecond'"
                        .to_string(),
                );
                args.push(format!("{}::int", bits));
            }
            let sql = format!("SELECT {}_from_parts($1, {})::text", name, args.join(", "));
            let label = format!("{}_from_parts({}, {:?}, {:?})", name, at, a, layout);
            let mine = made_from_parts(name, at, a, layout);
            match &epoch {
                Some(ms) => same_outcome(client, checks, label, &sql, &[&system_time(at), ms], mine).await,
                None => same_outcome(client, checks, label, &sql, &[&system_time(at)], mine).await,
            }
        }
    }
    Ok(())
}

/// Inputs beyond the vectors, read as the server reads them or refused in
/// its words: the alternatives it accepts (upper case, short muids), white
/// space, characters of several bytes (positions and lengths count bytes),
/// leading zeros, over-long text.
const MORE_INPUTS: &[(&str, &str)] = &[
    ("sno", "BRPK4Q72XWF2M63L"),
    ("sno", "brpk4q72xwf2m6\u{e9}"),
    ("sno", "brpk4q72xwf2m6\u{e9}l"),
    ("sno", " brpk4q72xwf2m63l"),
    ("sno", "brpk4q72xwf2m63l "),
    ("sno", "brpk4q72xwf2m63l2"),
    ("sno", "brpk4q72xwf2m63lbrpk4q72xwf2m63l"),
    ("muid", "5d5eac793e61f-1bfc71b112d-0000000b"),
    ("muid", "5D5EAC793E61F-1BFC71B112D"),
    ("muid", "5D5EAC793E61F"),
    ("muid", "5D5EAC793E61F-1BFC71B112D-000000\u{e9}"),
    ("muid", "5D5EAC793E61F-1BFC71B112D0000000B0"),
    ("muid", " 5D5EAC793E61F-1BFC71B112D-0000000B"),
    ("muid", "5D5EAC793E61F-1BFC71B112D-0000000B0"),
    ("snowflake_si", " \t00042\n"),
    ("snowflake_si", "   "),
    ("snowflake_si", "0000000000000000000000001"),
    ("snowflake_si", "00009007199254740991"),
    ("snowflake_si", "00009007199254740992"),
    ("snowflake_si", "99999999999999999999999999999"),
    ("snowflake_si", "+1"),
    ("snowflake_si", "-0"),
    ("snowflake_si", "4 2"),
    ("snowflake_si", "\u{661}"),
    ("snowflake_si", "4\u{e9}"),
    ("revts8", "CB54ECF284000000"),
    ("revts8", "cb54ecf28400000\u{e9}"),
    ("revts8", "ffffffffffff07ff"),
    ("revts8", " cb54ecf284000000"),
    ("revts8", "cb54ecf2840000000"),
    ("uid60", "__________"),
    ("uid60", "AAAAAQAAA\u{e9}"),
    ("uid60", "aaaaaqaaaa"),
    ("uid60", "0xAAAAAAAA"),
    ("uid60", " AAAAAQAAAA"),
    ("uid60", "AAAAAQAAAAA"),
];

async fn check_more_inputs(client: &Client, checks: &mut Checks) -> Result<()> {
    for &(name, input) in MORE_INPUTS {
        let mine = AnyId::read(name, input, Layout::DEFAULT).map(|x| x.text());
        let sql = format!("SELECT $1::text::{}::text", name);
        same_outcome(client, checks, format!("{} {:?}", name, input), &sql, &[&input], mine).await;
    }
    Ok(())
}

/// A domain over the type, and one over that: a parameter into a column
/// of each (ToSql's accepts), the column read back (FromSql's), and a
/// parameter cast to each.
async fn check_domain<T: SqlId>(client: &Client, checks: &mut Checks, v: &Vector) -> Result<()> {
    let name = T::TYPE_NAME;
    let x: T = v.text.parse().expect("the vector's text");
    client
        .batch_execute(&format!(
            "CREATE DOMAIN rust_d_{0} AS {0} NOT NULL; CREATE DOMAIN rust_dd_{0} AS rust_d_{0};
             CREATE TABLE rust_domain_{0} (d rust_d_{0}, dd rust_dd_{0})",
            name
        ))
        .await?;
    let sql = format!("INSERT INTO rust_domain_{} (d, dd) VALUES ($1, $2) RETURNING d, dd, d::text, dd::text", name);
    let got = client.query_one(&sql, &[&x, &x]).await;
    let ok = matches!(&got, Ok(row)
        if row.try_get::<_, T>(0).ok() == Some(x) && row.try_get::<_, T>(1).ok() == Some(x)
            && row.get::<_, String>(2) == v.text && row.get::<_, String>(3) == v.text);
    checks.check(ok, || format!("{} {} into domain columns: {:?}", name, v.text, got.map(|r| format!("{:?}", r))));
    let sql = format!("SELECT d, dd FROM rust_domain_{} WHERE d = $1 AND dd = $2", name);
    let got = client.query_one(&sql, &[&x, &x]).await;
    let ok = matches!(&got, Ok(row) if row.try_get::<_, T>(0).ok() == Some(x) && row.try_get::<_, T>(1).ok() == Some(x));
    checks.check(ok, || format!("{} {} from domain columns: {:?}", name, v.text, got.map(|r| format!("{:?}", r))));
    Ok(())
}

/// The crate's error equals the server's for the same input.
fn same_error(mine: Option<Error>, server: &tokio_postgres::Error) -> bool {
    match (mine, server.as_db_error()) {
        (Some(e), Some(db)) => {
            e.sqlstate == db.code().code()
                && e.message == db.message()
                && e.detail.as_deref() == db.detail()
                && e.hint.as_deref() == db.hint()
        }
        _ => false,
    }
}

async fn check_refused<T: SqlId>(client: &Client, checks: &mut Checks, v: &Vector) -> Result<()> {
    let sql = format!("SELECT $1::text::{}::text", T::TYPE_NAME);
    let server = client.query_one(&sql, &[&v.input]).await;
    let mine = v.input.parse::<T>();
    let ok = matches!(&server, Err(e) if same_error(mine.clone().err(), e));
    checks.check(ok, || format!("{} {:?}: {:?}, the server's {:?}", T::TYPE_NAME, v.input, mine, server));
    Ok(())
}

/// A select list of the value, its text, its timestamp and its accessors
/// (as bigint), of a column `id`.
fn columns<T: SqlId>() -> String {
    let fields: Vec<String> =
        field_names(T::TYPE_NAME).iter().map(|f| format!("{}_{}(id)::bigint", T::TYPE_NAME, f)).collect();
    format!("id, id::text, {}_timestamp(id), {}", T::TYPE_NAME, fields.join(", "))
}

/// The value, text, time and fields of a row of `columns`, checked against
/// one another; the value read through FromSql.
fn read_row<T: SqlId>(checks: &mut Checks, row: &tokio_postgres::Row) -> T {
    let x: T = row.get(0);
    let text: String = row.get(1);
    let time: SystemTime = row.get(2);
    let fields: Vec<i64> = (0..field_names(T::TYPE_NAME).len()).map(|i| row.get(3 + i)).collect();
    let mine = AnyId::read(T::TYPE_NAME, &x.to_string(), Layout::DEFAULT).map(|a| a.fields());
    checks.check(x.to_string() == text && x.time() == time && mine.as_ref() == Ok(&fields), || {
        format!(
            "{} {}: the server's {} {:?} {:?}, the value's {:?} {:?}",
            T::TYPE_NAME,
            x,
            text,
            time,
            fields,
            x.time(),
            mine
        )
    });
    x
}

/// The server's text, binary form, accessors and timestamp of the
/// vector's text equal the value's; the value comes back through FromSql,
/// and goes as a parameter through ToSql.
async fn check_vector<T: SqlId>(client: &Client, checks: &mut Checks, v: &Vector) -> Result<()> {
    let name = T::TYPE_NAME;
    let x: T = v.text.parse().expect("the vector's text");
    let sql =
        format!("SELECT {}, encode({}_send(id), 'hex') FROM (SELECT $1::text::{} AS id) s", columns::<T>(), name, name);
    let row = client.query_one(&sql, &[&v.text]).await?;
    let back = read_row::<T>(checks, &row);
    let bytes: String = row.get(row.len() - 1);
    checks.check(back == x && bytes == hex(&x.to_vec()), || {
        format!("{} {}: the server's {:?} {}, the value's {:?} {}", name, v.text, back, bytes, x, hex(&x.to_vec()))
    });
    let sql = format!("SELECT $1::{0}::text, $1::{0} = $2::text::{0}, $1::{0}", name);
    let row = client.query_one(&sql, &[&x, &v.text]).await?;
    let (text, equal, again): (String, bool, T) = (row.get(0), row.get(1), row.get(2));
    checks.check(text == v.text && equal && again == x, || {
        format!("{} {} as a parameter: {} {} {:?}", name, v.text, text, equal, again)
    });
    Ok(())
}

/// ORDER BY of the vectors' texts equals sorting them with Ord.
async fn check_order<T: SqlId>(client: &Client, checks: &mut Checks, texts: &[String]) -> Result<()> {
    let mut values: Vec<T> = texts.iter().map(|t| t.parse().expect("the vector's text")).collect();
    values.sort();
    let mine: Vec<String> = values.iter().map(T::to_string).collect();
    let sql = format!("SELECT array_agg(t ORDER BY t::{}, t) FROM unnest($1::text[]) t", T::TYPE_NAME);
    let server: Vec<String> = client.query_one(&sql, &[&texts]).await?.get(0);
    checks.check(mine == server, || format!("{}: ORDER BY gives {:?}, Ord {:?}", T::TYPE_NAME, server, mine));
    Ok(())
}

/// The boundary equals `<type>_boundary()`, its errors included.
async fn check_boundary<T: SqlId>(client: &Client, checks: &mut Checks, at: i64) -> Result<()> {
    let sql = format!("SELECT {}_boundary($1)::text", T::TYPE_NAME);
    let server = client.query_one(&sql, &[&system_time(at)]).await;
    let mine = T::boundary(at);
    let ok = match (&mine, &server) {
        (Ok(x), Ok(row)) => x.to_string() == row.get::<_, String>(0),
        (Err(e), Err(db)) => same_error(Some(e.clone()), db),
        _ => false,
    };
    checks.check(ok, || format!("{}_boundary({}): {:?}, the server's {:?}", T::TYPE_NAME, at, mine, server));
    Ok(())
}

/// The ticks of a type's clock.
fn tick(name: &str) -> Duration {
    match name {
        "sno" => Duration::from_millis(4),
        "muid" => Duration::from_micros(1),
        "uid60" => Duration::from_secs(1),
        _ => Duration::from_millis(1),
    }
}

/// Rows inserted with the DEFAULT read back through FromSql with the
/// server's text and accessors, in the order of Ord; each found by itself
/// as a parameter; a boundary made here between two batches, sent as a
/// parameter, selects through the primary key the rows the server's own
/// boundary selects.
async fn round_trip<T: SqlId>(client: &Client, checks: &mut Checks) -> Result<()> {
    let name = T::TYPE_NAME;
    let table = format!("rust_{}", name);
    client
        .batch_execute(&format!(
            "DROP TABLE IF EXISTS {0}; CREATE TABLE {0} (id {1} PRIMARY KEY DEFAULT {1}_new(), n int)",
            table, name
        ))
        .await?;
    let pause = (tick(name) * 12 / 10).max(Duration::from_millis(10));
    let insert = format!("INSERT INTO {} (n) VALUES ($1) RETURNING id", table);
    let mut made: Vec<T> = Vec::new();
    let mut split = SystemTime::now();
    for n in 0..6i32 {
        if n == 3 {
            tokio::time::sleep(pause).await;
            split = SystemTime::now();
            tokio::time::sleep(pause).await;
        }
        made.push(client.query_one(&insert, &[&n]).await?.get(0));
    }
    let rows = client.query(&format!("SELECT {} FROM {} t ORDER BY t.id", columns::<T>(), table), &[]).await?;
    let server: Vec<T> = rows.iter().map(|row| read_row::<T>(checks, row)).collect();
    made.sort();
    checks.check(made == server, || format!("{}: made {:?}, the server's ORDER BY {:?}", name, made, server));
    for x in &made {
        let found = client.query(&format!("SELECT n FROM {} WHERE id = $1", table), &[x]).await?;
        checks.check(found.len() == 1, || format!("{} {}: WHERE id = $1 finds {} rows", name, x, found.len()));
    }
    // the boundary as a parameter: the index, and the server's rows
    let b = T::boundary(unix_micros(split)).expect("a boundary of now");
    client.batch_execute("BEGIN; SET LOCAL enable_seqscan = off").await?;
    let plan = client.query(&format!("EXPLAIN SELECT id FROM {} WHERE id >= $1", table), &[&b]).await;
    client.batch_execute("ROLLBACK").await?;
    let plan: Vec<String> = plan?.iter().map(|row| row.get(0)).collect();
    let plan = plan.join("\n");
    checks.check(plan.contains(&format!("{}_pkey", table)) && !plan.contains("Seq Scan"), || {
        format!("{}: the boundary's plan:\n{}", name, plan)
    });
    let select = |condition: &str| format!("SELECT id FROM {} WHERE id >= {} ORDER BY id", table, condition);
    let mine: Vec<T> = client.query(&select("$1"), &[&b]).await?.iter().map(|r| r.get(0)).collect();
    let boundary = format!("{}_boundary($1)", name);
    let theirs: Vec<T> = client.query(&select(&boundary), &[&split]).await?.iter().map(|r| r.get(0)).collect();
    checks.check(theirs.len() == 3 && mine == theirs, || {
        format!("{}: the boundary {} selects {:?}, the server's {:?}", name, b, mine, theirs)
    });
    Ok(())
}
