-- uid: the nodes of a Citus cluster (see doc/citus.md)
--
-- Where a database has Citus, each node's IDs embed its Citus node group
-- when no identity is set by hand or leased, so every node makes IDs of its
-- own with no setting.  What the nodes must share instead is snowflake_si's
-- layout (uid.snowflake_si_epoch and uid.snowflake_si_index_bits): a
-- function that decodes a snowflake_si reads the settings of the node it
-- runs on, and Citus does not propagate ALTER SYSTEM.  uid_citus_settings()
-- lists what every node has; uid_citus_check() fails where they differ and,
-- where they agree, notes the layout on every node, which then makes no
-- snowflake_si under another.
--
-- These functions call uid's others (here and, with
-- run_command_on_all_nodes(), on every node, in the extension's schema
-- there) through twins that take true::uid_internal_call first, each other
-- argument of its exact type: no overload a role creates in that schema
-- can take such a call over or make it ambiguous (see internal.sql).  A
-- twin of a C function is the same C function.

CREATE FUNCTION uid_citus_node(OUT uid_version text, OUT node_group integer,
                               OUT snowflake_si_epoch timestamptz, OUT snowflake_si_index_bits integer,
                               OUT agreed_epoch timestamptz, OUT agreed_index_bits integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_citus_node'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

COMMENT ON FUNCTION uid_citus_node() IS
'this node''s uid library version, Citus node group, snowflake_si layout in force, and the layout uid_citus_check() last noted as its cluster''s';

CREATE FUNCTION uid_citus_node(call uid_internal_call,
                               OUT uid_version text, OUT node_group integer,
                               OUT snowflake_si_epoch timestamptz, OUT snowflake_si_index_bits integer,
                               OUT agreed_epoch timestamptz, OUT agreed_index_bits integer)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_citus_node'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;
COMMENT ON FUNCTION uid_citus_node(uid_internal_call) IS
'internal: uid_citus_node(), as uid_citus_settings() and uid_citus_check() call it';

-- uid_identity() (uid.sql), as uid_citus_settings() calls it on every node.
CREATE FUNCTION uid_identity(call uid_internal_call,
                             OUT type text, OUT field text, OUT value bigint, OUT source text,
                             OUT pool text, OUT lease_id integer, OUT expires_at timestamptz,
                             OUT several_servers_safe boolean, OUT note text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_identity'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_identity(uid_internal_call) IS
'internal: uid_identity(), as uid_citus_settings() calls it on every node';

CREATE FUNCTION uid_citus_agree(epoch timestamptz, index_bits integer) RETURNS void
AS 'MODULE_PATHNAME', 'uid_citus_agree'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

COMMENT ON FUNCTION uid_citus_agree(timestamptz, integer) IS
'notes the snowflake_si layout this node''s Citus cluster shares (uid_citus_check() calls it on every node): no snowflake_si is made under another; superuser only';
REVOKE EXECUTE ON FUNCTION uid_citus_agree(timestamptz, integer) FROM PUBLIC;

-- (the C function reads the layout from its last two arguments)
CREATE FUNCTION uid_citus_agree(call uid_internal_call, epoch timestamptz, index_bits integer) RETURNS void
AS 'MODULE_PATHNAME', 'uid_citus_agree'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION uid_citus_agree(uid_internal_call, timestamptz, integer) IS
'internal: uid_citus_agree(), as uid_citus_check() calls it on every node; superuser only';
REVOKE EXECUTE ON FUNCTION uid_citus_agree(uid_internal_call, timestamptz, integer) FROM PUBLIC;

-- uid_citus_settings(), as uid_citus_check() calls it; the one below is
-- this one.
CREATE FUNCTION uid_citus_settings(call uid_internal_call)
RETURNS TABLE (node text, node_group integer, name text, value text, coordinator_value text, agrees boolean)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp text;
    command text;
BEGIN
    IF to_regclass('pg_catalog.pg_dist_node') IS NULL THEN
        RAISE EXCEPTION 'Citus is not installed in this database'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Run uid_citus_settings() and uid_citus_check() on the coordinator of a Citus cluster.';
    END IF;
    -- the coordinator's values are what the others are compared with
    IF EXISTS (SELECT 1 FROM pg_catalog.pg_dist_local_group WHERE groupid <> 0)
       OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_node WHERE groupid = 0) THEN
        RAISE EXCEPTION 'this node is not the coordinator of its Citus cluster'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Run uid_citus_settings() and uid_citus_check() on the coordinator, with the coordinator in the metadata (citus_set_coordinator_host()).';
    END IF;
    SELECT quote_ident(n.nspname) INTO STRICT nsp
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'uid';
    -- one JSON object per node: uid_citus_node() and what uid_identity() says each type embeds
    command := format($q$SELECT json_build_object('node', row_to_json(n),
                             'epoch', to_char(n.snowflake_si_epoch AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS+00'), 'identity',
                             (SELECT json_agg(json_build_object('type', i.type, 'field', i.field,
                                                                'value', i.value, 'source', i.source))
                              FROM %1$s.uid_identity(true::%1$s.uid_internal_call) i))
                         FROM %1$s.uid_citus_node(true::%1$s.uid_internal_call) n$q$, nsp);
    RETURN QUERY EXECUTE format($q$
        WITH runs AS (
            SELECT coalesce(d.nodename || ':' || d.nodeport, 'this node') AS node,
                   CASE WHEN r.success THEN r.result::json END AS j,
                   CASE WHEN NOT r.success THEN r.result END AS failure
            FROM run_command_on_all_nodes(%1$L) r
            LEFT JOIN pg_dist_node d ON d.nodeid = r.nodeid),
        here AS (SELECT n.* FROM %2$s.uid_citus_node(true::%2$s.uid_internal_call) n),
        per_node AS (
            SELECT r.node, (r.j->'node'->>'node_group')::integer AS node_group, x.name, x.value, x.coordinator_value
            FROM runs r, here h,
                 LATERAL (VALUES
                     ('uid version', r.j->'node'->>'uid_version', h.uid_version),
                     ('uid.snowflake_si_epoch', r.j->>'epoch',
                      to_char(h.snowflake_si_epoch AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS+00')),
                     ('uid.snowflake_si_index_bits', r.j->'node'->>'snowflake_si_index_bits',
                      h.snowflake_si_index_bits::text)) x(name, value, coordinator_value)
            WHERE r.failure IS NULL),
        -- a type's identity: its fields (revts8's generator and cluster together)
        identities AS (
            SELECT r.node, (r.j->'node'->>'node_group')::integer AS node_group,
                   'identity: ' || (i->>'type') AS name,
                   string_agg(format('%%s %%s (%%s)', i->>'field', coalesce(i->>'value', '(none)'), i->>'source'),
                              ', ' ORDER BY i->>'field') AS value,
                   CASE WHEN bool_and(i->>'value' IS NOT NULL)
                        THEN string_agg(i->>'value', ',' ORDER BY i->>'field') END AS id
            FROM runs r, json_array_elements(r.j->'identity') i
            WHERE r.failure IS NULL
            GROUP BY 1, 2, 3)
        SELECT p.node, p.node_group, p.name, p.value, p.coordinator_value,
               p.value IS NOT DISTINCT FROM p.coordinator_value
        FROM per_node p
        UNION ALL
        -- an identity agrees when no other node has the same
        SELECT i.node, i.node_group, i.name, i.value, NULL,
               i.id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM identities o
                                                WHERE o.name = i.name AND o.id = i.id AND o.node <> i.node)
        FROM identities i
        UNION ALL
        SELECT r.node, NULL, 'reached', r.failure, NULL, false
        FROM runs r WHERE r.failure IS NOT NULL
        ORDER BY 3, 2, 1$q$, command, nsp);
END
$$;

COMMENT ON FUNCTION uid_citus_settings(uid_internal_call) IS
'internal: uid_citus_settings(), as uid_citus_check() calls it';

-- The body is parsed when the function is created (BEGIN ATOMIC) and names
-- the one above by its OID.
CREATE FUNCTION uid_citus_settings()
RETURNS TABLE (node text, node_group integer, name text, value text, coordinator_value text, agrees boolean)
LANGUAGE sql VOLATILE
BEGIN ATOMIC
    SELECT * FROM uid_citus_settings(true::uid_internal_call);
END;

COMMENT ON FUNCTION uid_citus_settings() IS
'on a Citus coordinator: each node''s uid version, snowflake_si layout and identity of each type, and whether it agrees (the layout: as the coordinator''s; an identity: no other node''s is equal)';

CREATE FUNCTION uid_citus_check() RETURNS text
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp text;
    differ text;
    nodes bigint;
    layout record;
    failed text;
BEGIN
    SELECT quote_ident(n.nspname) INTO STRICT nsp
    FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'uid';
    EXECUTE format('CREATE TEMP TABLE uid_citus_found ON COMMIT DROP AS SELECT * FROM %1$s.uid_citus_settings(true::%1$s.uid_internal_call)', nsp);
    SELECT string_agg(format('%s: %s', s.node, s.value), '; ') INTO failed
    FROM pg_temp.uid_citus_found s WHERE s.name = 'reached';
    IF failed IS NOT NULL THEN
        RAISE EXCEPTION 'uid_citus_check() could not reach every node of this Citus cluster'
            USING ERRCODE = 'connection_failure',
                  DETAIL = failed || '.',
                  HINT = 'Nothing was noted: run it again once every node answers.';
    END IF;
    SELECT string_agg(format('%s on %s: %s%s', s.name, s.node, s.value,
                             CASE WHEN s.coordinator_value IS NOT NULL
                                  THEN format(' (coordinator: %s)', s.coordinator_value) END), '; ')
    INTO differ
    FROM pg_temp.uid_citus_found s WHERE NOT s.agrees;
    DROP TABLE pg_temp.uid_citus_found;
    IF differ IS NOT NULL THEN
        RAISE EXCEPTION 'the nodes of this Citus cluster do not agree on uid''s settings'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = differ || '.',
                  HINT = 'Give every node the coordinator''s snowflake_si layout and an identity of its own (see doc/citus.md), reload, and run uid_citus_check() again.';
    END IF;
    EXECUTE format('SELECT snowflake_si_epoch, snowflake_si_index_bits FROM %1$s.uid_citus_node(true::%1$s.uid_internal_call)', nsp)
        INTO layout;
    SELECT string_agg(r.nodeid || ': ' || r.result, '; ')
    INTO failed
    -- (the epoch in ISO 8601, which every DateStyle reads alike)
    FROM run_command_on_all_nodes(format('SELECT %1$s.uid_citus_agree(true::%1$s.uid_internal_call, %2$L::timestamptz, %3$s::integer)', nsp,
                                         to_char(layout.snowflake_si_epoch AT TIME ZONE 'UTC',
                                                 'YYYY-MM-DD HH24:MI:SS.MS+00'),
                                         layout.snowflake_si_index_bits)) r
    WHERE NOT r.success;
    IF failed IS NOT NULL THEN
        RAISE EXCEPTION 'the cluster''s snowflake_si layout could not be noted on every node'
            USING ERRCODE = 'object_not_in_prerequisite_state', DETAIL = failed || '.';
    END IF;
    SELECT count(*) INTO nodes FROM run_command_on_all_nodes('SELECT 1');
    RETURN format('%s nodes agree: snowflake_si epoch %s, index width %s, an identity of its own on each; noted on every node',
                  nodes, to_char(layout.snowflake_si_epoch AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS+00'),
                  layout.snowflake_si_index_bits);
END
$$;

COMMENT ON FUNCTION uid_citus_check() IS
'on a Citus coordinator: fails, naming them, where the nodes differ in uid version or snowflake_si layout or two share an identity; else notes the layout on every node (a node whose layout then differs makes no snowflake_si)';
REVOKE EXECUTE ON FUNCTION uid_citus_check() FROM PUBLIC;
