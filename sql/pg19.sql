-- PostgreSQL 19+: what 19 adds beside uid's types.
--
-- 19 has casts between bytea and uuid.  uid's casts are direct, so each
-- step of a chain of casts has one meaning: muid goes to uuid without a
-- function (the same 16 bytes), and through bytea to the same uuid.
SELECT '5D5EAC793E61F-1BFC71B112D-0000000B'::muid::uuid AS direct,
       '5D5EAC793E61F-1BFC71B112D-0000000B'::muid::bytea::uuid AS via_bytea;
SELECT '5d5eac79-3e61-f1bf-c71b-112d0000000b'::uuid::bytea::muid AS back,
       '5d5eac79-3e61-f1bf-c71b-112d0000000b'::uuid::muid = '5D5EAC793E61F-1BFC71B112D-0000000B'::muid AS same;
-- every muid, whatever it holds, gives one uuid both ways
SELECT count(*) FILTER (WHERE m::uuid IS DISTINCT FROM m::bytea::uuid) AS differ, count(*)
FROM (SELECT muid_new() AS m FROM generate_series(1, 100)
      UNION ALL SELECT m::uuid::muid FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid),
                                                 ('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid)) v(m)) s;
-- the 10-byte sno and the 8-byte revts8 are no uuid: 19's cast refuses
-- their bytes, and neither has a cast to uuid of its own
SELECT 'brpk4q72xwf2m63l'::sno::bytea::uuid;
SELECT 'cb54ecf284000000'::revts8::bytea::uuid;
SELECT 'brpk4q72xwf2m63l'::sno::uuid;

-- COPY ... (ON_ERROR set_null): an ID that does not parse becomes NULL,
-- column by column, because every type's input reports a soft error.
CREATE TABLE copied (n int, s sno, m muid, f snowflake_si, r revts8, u uid60);
COPY copied FROM STDIN WITH (ON_ERROR set_null, LOG_VERBOSITY verbose);
1	brpk4q72xwf2m63l	5D5EAC793E61F-1BFC71B112D-0000000B	5170397184000256	cb54ecf284000000	AH1fUJZhJ7
2	brpk4q72xwf2m631	5D5EAC793E61F-1BFC71B112D-0000000B	5170397184000256	cb54ecf284000000	AH1fUJZhJ7
3	brpk4q72xwf2m63l	5D5EAC793E61F-1BFC71B112D-0000000G	5170397184000256	cb54ecf284000000	AH1fUJZhJ7
4	brpk4q72xwf2m63l	5D5EAC793E61F-1BFC71B112D-0000000B	9007199254740992	cb54ecf284000000	AH1fUJZhJ7
5	brpk4q72xwf2m63l	5D5EAC793E61F-1BFC71B112D-0000000B	5170397184000256	cb54ecf28400000z	AH1fUJZhJ7
6	brpk4q72xwf2m63l	5D5EAC793E61F-1BFC71B112D-0000000B	5170397184000256	cb54ecf284000000	AH1fUJZhJ*
7	brpk4q72xwf2m631	5D5EAC793E61F	-1	cb54ecf2	AH1fUJZhJ77
\.
SELECT * FROM copied ORDER BY n;
-- a column that must not be null still stops the COPY
CREATE TABLE strict_copy (s sno NOT NULL);
COPY strict_copy FROM STDIN WITH (ON_ERROR set_null);
brpk4q72xwf2m631
\.
SELECT count(*) FROM strict_copy;
DROP TABLE copied, strict_copy;
