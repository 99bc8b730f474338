-- PostgreSQL 16+: every type's text input reports bad input as a soft error, so
-- pg_input_is_valid() and pg_input_error_info() answer instead of raising.
SELECT t, v, pg_input_is_valid(v, t) AS valid
FROM (VALUES ('sno', 'brpk4q72xwf2m63l'), ('sno', 'brpk4q72xwf2m63'), ('sno', 'brpk4q72xwf2m631'),
             ('muid', '5D5EAC793E61F-1BFC71B112D-0000000B'), ('muid', '5D5EAC793E61F-1BFC71B112D-0000000G'),
             ('muid', '5D5EAC793E61F'), ('muid', '5D5EAC793E61-F1BFC71B112D'),
             ('snowflake_si', '5170397184000256'), ('snowflake_si', '9007199254740992'),
             ('snowflake_si', '-1'), ('snowflake_si', '12x'),
             ('revts8', 'cb54ecf284000000'), ('revts8', 'cb54ecf28400000'), ('revts8', 'cb54ecf28400000z'),
             ('uid60', 'AH1fUJZhJ7'), ('uid60', 'AH1fUJZhJ'), ('uid60', 'AH1fUJZhJ*')) AS x(t, v);
SELECT t, v, e.sql_error_code, e.message, e.detail, e.hint
FROM (VALUES ('sno', 'brpk4q72xwf2m631'), ('muid', '5D5EAC793E61F-1BFC71B112D-0000000G'),
             ('snowflake_si', '9007199254740992'), ('revts8', 'cb54ecf28400000z'),
             ('uid60', 'AH1fUJZhJ*')) AS x(t, v),
     LATERAL pg_input_error_info(v, t) e;
-- what a valid value is, is unchanged
SELECT sql_error_code IS NULL AND message IS NULL AS no_error FROM pg_input_error_info('brpk4q72xwf2m63l', 'sno');
