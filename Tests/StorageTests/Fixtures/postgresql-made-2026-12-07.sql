--
-- PostgreSQL database dump
--

\restrict afR4W458iIrVzqb8oqb3HvQ4cTzy38PnL3T3c3WRYBYpboOM5tRp8SxsI7Pa29p

-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;


--
-- Name: EXTENSION pg_trgm; Type: COMMENT; Schema: -; Owner: -
--

COMMENT ON EXTENSION pg_trgm IS 'text similarity measurement and index searching based on trigrams';


--
-- Name: mynotes_account_pieces(bigint, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mynotes_account_pieces(account bigint, folded text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT string_to_array(account || ':' || regexp_replace(
            translate(folded, chr(1), chr(2)),
            '(.)', '\1' || chr(1) || account || ':', 'g'), chr(1))
        || string_to_array(account || ':' || regexp_replace(
            translate(folded, chr(1), chr(2)),
            '(..)', '\1' || chr(1) || account || ':', 'g'), chr(1))
        || string_to_array(account || ':' || regexp_replace(
            translate(substr(folded, 2), chr(1), chr(2)),
            '(..)', '\1' || chr(1) || account || ':', 'g'), chr(1))
        || string_to_array(account || ':' || regexp_replace(
            translate(folded, chr(1), chr(2)),
            '(....)', '\1' || chr(1) || account || ':', 'g'), chr(1))
        || string_to_array(account || ':' || regexp_replace(
            translate(substr(folded, 2), chr(1), chr(2)),
            '(....)', '\1' || chr(1) || account || ':', 'g'), chr(1))
        || string_to_array(account || ':' || regexp_replace(
            translate(substr(folded, 3), chr(1), chr(2)),
            '(....)', '\1' || chr(1) || account || ':', 'g'), chr(1))
        || string_to_array(account || ':' || regexp_replace(
            translate(substr(folded, 4), chr(1), chr(2)),
            '(....)', '\1' || chr(1) || account || ':', 'g'), chr(1))
    $$;


--
-- Name: mynotes_chunk_fives(bigint, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mynotes_chunk_fives(account bigint, sort_key text, folded text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(folded, chr(1), chr(2)), '(.....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 2), chr(1), chr(2)),
                '(.....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 3), chr(1), chr(2)),
                '(.....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 4), chr(1), chr(2)),
                '(.....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 5), chr(1), chr(2)),
                '(.....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
    $$;


--
-- Name: mynotes_chunk_pieces(bigint, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mynotes_chunk_pieces(account bigint, sort_key text, folded text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT string_to_array(account || ':' || left(sort_key, 4) || ':'
            || regexp_replace(translate(folded, chr(1), chr(2)), '(.)',
                '\1' || chr(1) || account || ':' || left(sort_key, 4) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 4) || ':'
            || regexp_replace(translate(folded, chr(1), chr(2)), '(..)',
                '\1' || chr(1) || account || ':' || left(sort_key, 4) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 4) || ':'
            || regexp_replace(translate(substr(folded, 2), chr(1), chr(2)),
                '(..)',
                '\1' || chr(1) || account || ':' || left(sort_key, 4) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(folded, chr(1), chr(2)), '(....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 2), chr(1), chr(2)),
                '(....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 3), chr(1), chr(2)),
                '(....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 4), chr(1), chr(2)),
                '(....)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
    $$;


--
-- Name: mynotes_chunk_triples(bigint, text, text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mynotes_chunk_triples(account bigint, sort_key text, folded text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(folded, chr(1), chr(2)), '(...)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 2), chr(1), chr(2)),
                '(...)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
        || string_to_array(account || ':' || left(sort_key, 7) || ':'
            || regexp_replace(translate(substr(folded, 3), chr(1), chr(2)),
                '(...)',
                '\1' || chr(1) || account || ':' || left(sort_key, 7) || ':',
                'g'), chr(1))
    $$;


--
-- Name: mynotes_note_written(); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mynotes_note_written() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
    note notes;
    counted bigint := 0;
    bytes bigint;
    taken bigint;
BEGIN
    IF TG_OP = 'DELETE' THEN
        note := OLD;
        counted := -1;
        bytes := -octet_length(OLD.content);
        note.updated_at := floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint;
    ELSIF TG_OP = 'INSERT' THEN
        note := NEW;
        counted := 1;
        bytes := octet_length(NEW.content);
    ELSE
        note := NEW;
        bytes := octet_length(NEW.content) - octet_length(OLD.content);
    END IF;
    UPDATE accounts SET note_count = note_count + counted,
        note_bytes = note_bytes + bytes, change_seq = change_seq + 1
    WHERE id = note.account_id RETURNING change_seq INTO taken;
    -- No row when the account itself is being removed (a cascade).
    IF NOT FOUND THEN RETURN NULL; END IF;
    INSERT INTO note_changes
        (account_id, note_id, seq, created_seq, version, deleted, changed_at)
    VALUES (note.account_id, note.id, taken, taken, note.version,
        TG_OP = 'DELETE', note.updated_at)
    ON CONFLICT (account_id, note_id) DO UPDATE SET seq = EXCLUDED.seq,
        created_seq = CASE WHEN TG_OP = 'INSERT' THEN EXCLUDED.created_seq
            ELSE note_changes.created_seq END,
        version = EXCLUDED.version, deleted = EXCLUDED.deleted,
        changed_at = EXCLUDED.changed_at;
    -- The schema too: servers of other schemas on the database listen as well.
    PERFORM pg_notify('mynotes_changes',
        TG_TABLE_SCHEMA || ':' || note.account_id);
    RETURN NULL;
END $$;


--
-- Name: mynotes_text_chunks(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mynotes_text_chunks(folded text) RETURNS TABLE(chunk integer, text text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT c, substr(folded, c * 1024 + 1, 1087)
    FROM generate_series(0, greatest(0, (char_length(folded) - 64) / 1024)) AS c
    $$;


--
-- Name: mynotes_text_pieces(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.mynotes_text_pieces(folded text) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$
    SELECT string_to_array(translate(folded, chr(1), chr(2)), NULL)
        || string_to_array(regexp_replace(
            translate(folded, chr(1), chr(2)), '(..)', '\1' || chr(1), 'g'),
            chr(1))
        || string_to_array(regexp_replace(
            translate(substr(folded, 2), chr(1), chr(2)), '(..)', '\1' || chr(1), 'g'),
            chr(1))
        || string_to_array(regexp_replace(
            translate(folded, chr(1), chr(2)), '(....)', '\1' || chr(1), 'g'),
            chr(1))
        || string_to_array(regexp_replace(
            translate(substr(folded, 2), chr(1), chr(2)), '(....)', '\1' || chr(1), 'g'),
            chr(1))
        || string_to_array(regexp_replace(
            translate(substr(folded, 3), chr(1), chr(2)), '(....)', '\1' || chr(1), 'g'),
            chr(1))
        || string_to_array(regexp_replace(
            translate(substr(folded, 4), chr(1), chr(2)), '(....)', '\1' || chr(1), 'g'),
            chr(1))
    $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    id bigint NOT NULL,
    email text NOT NULL,
    email_key text NOT NULL COLLATE pg_catalog."C",
    created_at bigint NOT NULL,
    password_hash text,
    note_count bigint DEFAULT 0 NOT NULL,
    note_bytes bigint DEFAULT 0 NOT NULL,
    change_seq bigint DEFAULT 0 NOT NULL,
    purged_seq bigint DEFAULT 0 NOT NULL
);


--
-- Name: accounts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.accounts ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.accounts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: note_changes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.note_changes (
    account_id bigint NOT NULL,
    note_id bigint NOT NULL,
    seq bigint NOT NULL,
    created_seq bigint NOT NULL,
    version bigint NOT NULL,
    deleted boolean DEFAULT false NOT NULL,
    changed_at bigint NOT NULL
);


--
-- Name: notes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.notes (
    account_id bigint NOT NULL,
    id bigint NOT NULL,
    date text NOT NULL,
    sort_key text NOT NULL COLLATE pg_catalog."C",
    content text NOT NULL,
    folded_content text NOT NULL,
    created_at bigint NOT NULL,
    updated_at bigint NOT NULL,
    version bigint DEFAULT 1 NOT NULL
);
ALTER TABLE ONLY public.notes ALTER COLUMN content SET COMPRESSION lz4;
ALTER TABLE ONLY public.notes ALTER COLUMN folded_content SET COMPRESSION lz4;


--
-- Name: notes_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.notes ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.notes_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: rate_buckets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rate_buckets (
    key text NOT NULL COLLATE pg_catalog."C",
    tokens double precision NOT NULL,
    counted_at bigint NOT NULL
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    name text NOT NULL,
    applied_at bigint NOT NULL
);


--
-- Name: search_chunks; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.search_chunks (
    account_id bigint NOT NULL,
    note_id bigint NOT NULL,
    chunk integer NOT NULL,
    sort_key text NOT NULL COLLATE pg_catalog."C",
    version bigint NOT NULL,
    folded_content text NOT NULL
);
ALTER TABLE ONLY public.search_chunks ALTER COLUMN folded_content SET STORAGE PLAIN;


--
-- Name: search_chunks_progress; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.search_chunks_progress (
    account_id bigint NOT NULL,
    indexed_seq bigint NOT NULL
);


--
-- Name: search_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.search_entries (
    account_id bigint NOT NULL,
    note_id bigint NOT NULL,
    sort_key text NOT NULL COLLATE pg_catalog."C",
    version bigint NOT NULL,
    folded_content text NOT NULL
);


--
-- Name: search_progress; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.search_progress (
    account_id bigint NOT NULL,
    indexed_seq bigint NOT NULL
);


--
-- Name: sign_in_failures; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sign_in_failures (
    key text NOT NULL COLLATE pg_catalog."C",
    failed_at bigint NOT NULL,
    id bigint NOT NULL
);


--
-- Name: sign_in_failures_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.sign_in_failures ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY (
    SEQUENCE NAME public.sign_in_failures_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: tokens; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tokens (
    hash bytea NOT NULL,
    account_id bigint NOT NULL,
    created_at bigint NOT NULL,
    last_used_at bigint DEFAULT 0 NOT NULL,
    kind text DEFAULT 'session'::text NOT NULL
);


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.accounts (id, email, email_key, created_at, password_hash, note_count, note_bytes, change_seq, purged_seq) FROM stdin;
2	ops@example.com	ops@example.com	1796666293386	\N	1	46	1	0
3	Zoë@Example.com	zoë@example.com	1796666293387	$argon2id$v=19$m=19456,t=2,p=1$em9lc2FsdHNhbHQ$em9laGFzaGhhc2g	1	26	1	0
1	ann@example.com	ann@example.com	1796666293375	$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$aGFzaGhhc2hoYXNoaGFzaA	8	3897	13	0
\.


--
-- Data for Name: note_changes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.note_changes (account_id, note_id, seq, created_seq, version, deleted, changed_at) FROM stdin;
1	1	1	1	1	f	1796666293395
1	2	2	2	1	f	1796666293400
1	3	3	3	1	f	1796666293445
1	4	4	4	1	f	1796666293447
1	8	8	8	1	f	1796666293459
1	9	9	9	1	f	1796666293465
2	10	1	1	1	f	1796666293467
3	11	1	1	1	f	1796666293468
1	7	11	7	3	f	1796666293473
1	5	12	5	2	f	1796666293474
1	6	13	6	1	t	1796666293476
\.


--
-- Data for Name: notes; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.notes (account_id, id, date, sort_key, content, folded_content, created_at, updated_at, version) FROM stdin;
1	1	2026-11-28	2026-11-28 00:00:00	Buy milk and eggs	buy milk and eggs	1796666293395	1796666293395	1
1	2	2026-11-29 10:00:00	2026-11-29 10:00:00	会议在星期三下午三点，请准时参加	会议在星期三下午三点，请准时参加	1796666293400	1796666293400	1
1	3	2026-11-30	2026-11-30 00:00:00	東京で寿司を食べた 🍣 とても美味しかった	東京で寿司を食べた 🍣 とても美味しかった	1796666293445	1796666293445	1
1	4	2026-12-01	2026-12-01 00:00:00	회의는 내일 오전 열 시입니다	회의는 내일 오전 열 시입니다	1796666293447	1796666293447	1
1	8	2026-12-05 18:30:00	2026-12-05 18:30:00	🎉🎂 Birthday party at 7 👨‍👩‍👧 bring a café crème	🎉🎂 birthday party at 7 👨‍👩‍👧 bring a café crème	1796666293459	1796666293459	1
1	9	2026-12-06	2026-12-06 00:00:00	Lorem ipsum dolor sit amet 0, consectetur adipiscing elit. Lorem ipsum dolor sit amet 1, consectetur adipiscing elit. Lorem ipsum dolor sit amet 2, consectetur adipiscing elit. Lorem ipsum dolor sit amet 3, consectetur adipiscing elit. Lorem ipsum dolor sit amet 4, consectetur adipiscing elit. Lorem ipsum dolor sit amet 5, consectetur adipiscing elit. Lorem ipsum dolor sit amet 6, consectetur adipiscing elit. Lorem ipsum dolor sit amet 7, consectetur adipiscing elit. Lorem ipsum dolor sit amet 8, consectetur adipiscing elit. Lorem ipsum dolor sit amet 9, consectetur adipiscing elit. Lorem ipsum dolor sit amet 10, consectetur adipiscing elit. Lorem ipsum dolor sit amet 11, consectetur adipiscing elit. Lorem ipsum dolor sit amet 12, consectetur adipiscing elit. Lorem ipsum dolor sit amet 13, consectetur adipiscing elit. Lorem ipsum dolor sit amet 14, consectetur adipiscing elit. Lorem ipsum dolor sit amet 15, consectetur adipiscing elit. Lorem ipsum dolor sit amet 16, consectetur adipiscing elit. Lorem ipsum dolor sit amet 17, consectetur adipiscing elit. Lorem ipsum dolor sit amet 18, consectetur adipiscing elit. Lorem ipsum dolor sit amet 19, consectetur adipiscing elit. Lorem ipsum dolor sit amet 20, consectetur adipiscing elit. Lorem ipsum dolor sit amet 21, consectetur adipiscing elit. Lorem ipsum dolor sit amet 22, consectetur adipiscing elit. Lorem ipsum dolor sit amet 23, consectetur adipiscing elit. Lorem ipsum dolor sit amet 24, consectetur adipiscing elit. Lorem ipsum dolor sit amet 25, consectetur adipiscing elit. Lorem ipsum dolor sit amet 26, consectetur adipiscing elit. Lorem ipsum dolor sit amet 27, consectetur adipiscing elit. Lorem ipsum dolor sit amet 28, consectetur adipiscing elit. Lorem ipsum dolor sit amet 29, consectetur adipiscing elit. Lorem ipsum dolor sit amet 30, consectetur adipiscing elit. Lorem ipsum dolor sit amet 31, consectetur adipiscing elit. Lorem ipsum dolor sit amet 32, consectetur adipiscing elit. Lorem ipsum dolor sit amet 33, consectetur adipiscing elit. Lorem ipsum dolor sit amet 34, consectetur adipiscing elit. Lorem ipsum dolor sit amet 35, consectetur adipiscing elit. Lorem ipsum dolor sit amet 36, consectetur adipiscing elit. Lorem ipsum dolor sit amet 37, consectetur adipiscing elit. Lorem ipsum dolor sit amet 38, consectetur adipiscing elit. Lorem ipsum dolor sit amet 39, consectetur adipiscing elit. Lorem ipsum dolor sit amet 40, consectetur adipiscing elit. Lorem ipsum dolor sit amet 41, consectetur adipiscing elit. Lorem ipsum dolor sit amet 42, consectetur adipiscing elit. Lorem ipsum dolor sit amet 43, consectetur adipiscing elit. Lorem ipsum dolor sit amet 44, consectetur adipiscing elit. Lorem ipsum dolor sit amet 45, consectetur adipiscing elit. Lorem ipsum dolor sit amet 46, consectetur adipiscing elit. Lorem ipsum dolor sit amet 47, consectetur adipiscing elit. Lorem ipsum dolor sit amet 48, consectetur adipiscing elit. Lorem ipsum dolor sit amet 49, consectetur adipiscing elit. Lorem ipsum dolor sit amet 50, consectetur adipiscing elit. Lorem ipsum dolor sit amet 51, consectetur adipiscing elit. Lorem ipsum dolor sit amet 52, consectetur adipiscing elit. Lorem ipsum dolor sit amet 53, consectetur adipiscing elit. Lorem ipsum dolor sit amet 54, consectetur adipiscing elit. Lorem ipsum dolor sit amet 55, consectetur adipiscing elit. Lorem ipsum dolor sit amet 56, consectetur adipiscing elit. Lorem ipsum dolor sit amet 57, consectetur adipiscing elit. Lorem ipsum dolor sit amet 58, consectetur adipiscing elit. Lorem ipsum dolor sit amet 59, consectetur adipiscing elit.	lorem ipsum dolor sit amet 0, consectetur adipiscing elit. lorem ipsum dolor sit amet 1, consectetur adipiscing elit. lorem ipsum dolor sit amet 2, consectetur adipiscing elit. lorem ipsum dolor sit amet 3, consectetur adipiscing elit. lorem ipsum dolor sit amet 4, consectetur adipiscing elit. lorem ipsum dolor sit amet 5, consectetur adipiscing elit. lorem ipsum dolor sit amet 6, consectetur adipiscing elit. lorem ipsum dolor sit amet 7, consectetur adipiscing elit. lorem ipsum dolor sit amet 8, consectetur adipiscing elit. lorem ipsum dolor sit amet 9, consectetur adipiscing elit. lorem ipsum dolor sit amet 10, consectetur adipiscing elit. lorem ipsum dolor sit amet 11, consectetur adipiscing elit. lorem ipsum dolor sit amet 12, consectetur adipiscing elit. lorem ipsum dolor sit amet 13, consectetur adipiscing elit. lorem ipsum dolor sit amet 14, consectetur adipiscing elit. lorem ipsum dolor sit amet 15, consectetur adipiscing elit. lorem ipsum dolor sit amet 16, consectetur adipiscing elit. lorem ipsum dolor sit amet 17, consectetur adipiscing elit. lorem ipsum dolor sit amet 18, consectetur adipiscing elit. lorem ipsum dolor sit amet 19, consectetur adipiscing elit. lorem ipsum dolor sit amet 20, consectetur adipiscing elit. lorem ipsum dolor sit amet 21, consectetur adipiscing elit. lorem ipsum dolor sit amet 22, consectetur adipiscing elit. lorem ipsum dolor sit amet 23, consectetur adipiscing elit. lorem ipsum dolor sit amet 24, consectetur adipiscing elit. lorem ipsum dolor sit amet 25, consectetur adipiscing elit. lorem ipsum dolor sit amet 26, consectetur adipiscing elit. lorem ipsum dolor sit amet 27, consectetur adipiscing elit. lorem ipsum dolor sit amet 28, consectetur adipiscing elit. lorem ipsum dolor sit amet 29, consectetur adipiscing elit. lorem ipsum dolor sit amet 30, consectetur adipiscing elit. lorem ipsum dolor sit amet 31, consectetur adipiscing elit. lorem ipsum dolor sit amet 32, consectetur adipiscing elit. lorem ipsum dolor sit amet 33, consectetur adipiscing elit. lorem ipsum dolor sit amet 34, consectetur adipiscing elit. lorem ipsum dolor sit amet 35, consectetur adipiscing elit. lorem ipsum dolor sit amet 36, consectetur adipiscing elit. lorem ipsum dolor sit amet 37, consectetur adipiscing elit. lorem ipsum dolor sit amet 38, consectetur adipiscing elit. lorem ipsum dolor sit amet 39, consectetur adipiscing elit. lorem ipsum dolor sit amet 40, consectetur adipiscing elit. lorem ipsum dolor sit amet 41, consectetur adipiscing elit. lorem ipsum dolor sit amet 42, consectetur adipiscing elit. lorem ipsum dolor sit amet 43, consectetur adipiscing elit. lorem ipsum dolor sit amet 44, consectetur adipiscing elit. lorem ipsum dolor sit amet 45, consectetur adipiscing elit. lorem ipsum dolor sit amet 46, consectetur adipiscing elit. lorem ipsum dolor sit amet 47, consectetur adipiscing elit. lorem ipsum dolor sit amet 48, consectetur adipiscing elit. lorem ipsum dolor sit amet 49, consectetur adipiscing elit. lorem ipsum dolor sit amet 50, consectetur adipiscing elit. lorem ipsum dolor sit amet 51, consectetur adipiscing elit. lorem ipsum dolor sit amet 52, consectetur adipiscing elit. lorem ipsum dolor sit amet 53, consectetur adipiscing elit. lorem ipsum dolor sit amet 54, consectetur adipiscing elit. lorem ipsum dolor sit amet 55, consectetur adipiscing elit. lorem ipsum dolor sit amet 56, consectetur adipiscing elit. lorem ipsum dolor sit amet 57, consectetur adipiscing elit. lorem ipsum dolor sit amet 58, consectetur adipiscing elit. lorem ipsum dolor sit amet 59, consectetur adipiscing elit.	1796666293465	1796666293465	1
2	10	2026-12-01	2026-12-01 00:00:00	Server maintenance window 🛠️ Sunday 02:00	server maintenance window 🛠️ sunday 02:00	1796666293467	1796666293467	1
3	11	2026-10-01	2026-10-01 00:00:00	Straße und Café in Köln	strasse und café in köln	1796666293468	1796666293468	1
1	7	2026-12-04	2026-12-04 00:00:00	final draft of the plan	final draft of the plan	1796666293458	1796666293473	3
1	5	2026-12-07 09:15:00	2026-12-07 09:15:00	Привет, мир — первая заметка	привет, мир — первая заметка	1796666293456	1796666293474	2
\.


--
-- Data for Name: rate_buckets; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.rate_buckets (key, tokens, counted_at) FROM stdin;
\.


--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.schema_migrations (name, applied_at) FROM stdin;
accounts-and-notes	1796666293091
tokens-passwords-versions	1796666293118
account-usage-totals	1796666293123
shared-limits	1796666293137
token-last-use-and-kind	1796666293145
sign-in-failure-ids	1796666293166
change-feed	1796666293181
notes-trigram-index	1796666293214
notes-piece-index	1796666293222
search-entries	1796666293257
notes-search-indexes-dropped	1796666293261
search-entries-pieces-by-account	1796666293269
search-chunks	1796666293303
notes-lz4	1796666293318
search-triples	1796666293330
search-fives	1796666293341
\.


--
-- Data for Name: search_chunks; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.search_chunks (account_id, note_id, chunk, sort_key, version, folded_content) FROM stdin;
1	1	0	2026-11-28 00:00:00	1	buy milk and eggs
1	2	0	2026-11-29 10:00:00	1	会议在星期三下午三点，请准时参加
3	11	0	2026-10-01 00:00:00	1	strasse und café in köln
2	10	0	2026-12-01 00:00:00	1	server maintenance window 🛠️ sunday 02:00
1	3	0	2026-11-30 00:00:00	1	東京で寿司を食べた 🍣 とても美味しかった
1	4	0	2026-12-01 00:00:00	1	회의는 내일 오전 열 시입니다
1	8	0	2026-12-05 18:30:00	1	🎉🎂 birthday party at 7 👨‍👩‍👧 bring a café crème
1	9	0	2026-12-06 00:00:00	1	lorem ipsum dolor sit amet 0, consectetur adipiscing elit. lorem ipsum dolor sit amet 1, consectetur adipiscing elit. lorem ipsum dolor sit amet 2, consectetur adipiscing elit. lorem ipsum dolor sit amet 3, consectetur adipiscing elit. lorem ipsum dolor sit amet 4, consectetur adipiscing elit. lorem ipsum dolor sit amet 5, consectetur adipiscing elit. lorem ipsum dolor sit amet 6, consectetur adipiscing elit. lorem ipsum dolor sit amet 7, consectetur adipiscing elit. lorem ipsum dolor sit amet 8, consectetur adipiscing elit. lorem ipsum dolor sit amet 9, consectetur adipiscing elit. lorem ipsum dolor sit amet 10, consectetur adipiscing elit. lorem ipsum dolor sit amet 11, consectetur adipiscing elit. lorem ipsum dolor sit amet 12, consectetur adipiscing elit. lorem ipsum dolor sit amet 13, consectetur adipiscing elit. lorem ipsum dolor sit amet 14, consectetur adipiscing elit. lorem ipsum dolor sit amet 15, consectetur adipiscing elit. lorem ipsum dolor sit amet 16, consectetur adipiscing elit. lorem ipsum dolor sit amet 17, consectetur adipiscing elit. lorem ipsum dolor
1	9	1	2026-12-06 00:00:00	1	lor sit amet 17, consectetur adipiscing elit. lorem ipsum dolor sit amet 18, consectetur adipiscing elit. lorem ipsum dolor sit amet 19, consectetur adipiscing elit. lorem ipsum dolor sit amet 20, consectetur adipiscing elit. lorem ipsum dolor sit amet 21, consectetur adipiscing elit. lorem ipsum dolor sit amet 22, consectetur adipiscing elit. lorem ipsum dolor sit amet 23, consectetur adipiscing elit. lorem ipsum dolor sit amet 24, consectetur adipiscing elit. lorem ipsum dolor sit amet 25, consectetur adipiscing elit. lorem ipsum dolor sit amet 26, consectetur adipiscing elit. lorem ipsum dolor sit amet 27, consectetur adipiscing elit. lorem ipsum dolor sit amet 28, consectetur adipiscing elit. lorem ipsum dolor sit amet 29, consectetur adipiscing elit. lorem ipsum dolor sit amet 30, consectetur adipiscing elit. lorem ipsum dolor sit amet 31, consectetur adipiscing elit. lorem ipsum dolor sit amet 32, consectetur adipiscing elit. lorem ipsum dolor sit amet 33, consectetur adipiscing elit. lorem ipsum dolor sit amet 34, consectetur adipiscing elit. lorem ipsum dolor sit
1	9	2	2026-12-06 00:00:00	1	sit amet 34, consectetur adipiscing elit. lorem ipsum dolor sit amet 35, consectetur adipiscing elit. lorem ipsum dolor sit amet 36, consectetur adipiscing elit. lorem ipsum dolor sit amet 37, consectetur adipiscing elit. lorem ipsum dolor sit amet 38, consectetur adipiscing elit. lorem ipsum dolor sit amet 39, consectetur adipiscing elit. lorem ipsum dolor sit amet 40, consectetur adipiscing elit. lorem ipsum dolor sit amet 41, consectetur adipiscing elit. lorem ipsum dolor sit amet 42, consectetur adipiscing elit. lorem ipsum dolor sit amet 43, consectetur adipiscing elit. lorem ipsum dolor sit amet 44, consectetur adipiscing elit. lorem ipsum dolor sit amet 45, consectetur adipiscing elit. lorem ipsum dolor sit amet 46, consectetur adipiscing elit. lorem ipsum dolor sit amet 47, consectetur adipiscing elit. lorem ipsum dolor sit amet 48, consectetur adipiscing elit. lorem ipsum dolor sit amet 49, consectetur adipiscing elit. lorem ipsum dolor sit amet 50, consectetur adipiscing elit. lorem ipsum dolor sit amet 51, consectetur adipiscing elit. lorem ipsum dolor sit ame
1	9	3	2026-12-06 00:00:00	1	amet 51, consectetur adipiscing elit. lorem ipsum dolor sit amet 52, consectetur adipiscing elit. lorem ipsum dolor sit amet 53, consectetur adipiscing elit. lorem ipsum dolor sit amet 54, consectetur adipiscing elit. lorem ipsum dolor sit amet 55, consectetur adipiscing elit. lorem ipsum dolor sit amet 56, consectetur adipiscing elit. lorem ipsum dolor sit amet 57, consectetur adipiscing elit. lorem ipsum dolor sit amet 58, consectetur adipiscing elit. lorem ipsum dolor sit amet 59, consectetur adipiscing elit.
1	7	0	2026-12-04 00:00:00	3	final draft of the plan
1	5	0	2026-12-07 09:15:00	2	привет, мир — первая заметка
\.


--
-- Data for Name: search_chunks_progress; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.search_chunks_progress (account_id, indexed_seq) FROM stdin;
3	1
2	1
1	13
\.


--
-- Data for Name: search_entries; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.search_entries (account_id, note_id, sort_key, version, folded_content) FROM stdin;
\.


--
-- Data for Name: search_progress; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.search_progress (account_id, indexed_seq) FROM stdin;
\.


--
-- Data for Name: sign_in_failures; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sign_in_failures (key, failed_at, id) FROM stdin;
\.


--
-- Data for Name: tokens; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.tokens (hash, account_id, created_at, last_used_at, kind) FROM stdin;
\\xa1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1	1	1796666293375	1796666293375	session
\\xa2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2a2	1	1765000000000	1765100000000	session
\\xb1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1b1	2	1796666293386	1796666293386	key
\\xc1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1c1	3	1796666293387	1796666293387	session
\.


--
-- Name: accounts_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.accounts_id_seq', 3, true);


--
-- Name: notes_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.notes_id_seq', 11, true);


--
-- Name: sign_in_failures_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.sign_in_failures_id_seq', 1, false);


--
-- Name: accounts accounts_email_key_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_email_key_key UNIQUE (email_key);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (id);


--
-- Name: note_changes note_changes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.note_changes
    ADD CONSTRAINT note_changes_pkey PRIMARY KEY (account_id, note_id);


--
-- Name: notes notes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notes
    ADD CONSTRAINT notes_pkey PRIMARY KEY (account_id, id);


--
-- Name: rate_buckets rate_buckets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rate_buckets
    ADD CONSTRAINT rate_buckets_pkey PRIMARY KEY (key);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (name);


--
-- Name: search_chunks search_chunks_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_chunks
    ADD CONSTRAINT search_chunks_pkey PRIMARY KEY (account_id, note_id, chunk);


--
-- Name: search_chunks_progress search_chunks_progress_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_chunks_progress
    ADD CONSTRAINT search_chunks_progress_pkey PRIMARY KEY (account_id);


--
-- Name: search_entries search_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_entries
    ADD CONSTRAINT search_entries_pkey PRIMARY KEY (account_id, note_id);


--
-- Name: search_progress search_progress_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_progress
    ADD CONSTRAINT search_progress_pkey PRIMARY KEY (account_id);


--
-- Name: sign_in_failures sign_in_failures_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sign_in_failures
    ADD CONSTRAINT sign_in_failures_pkey PRIMARY KEY (id);


--
-- Name: tokens tokens_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (hash);


--
-- Name: note_changes_by_seq; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX note_changes_by_seq ON public.note_changes USING btree (account_id, seq);


--
-- Name: note_changes_tombstones; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX note_changes_tombstones ON public.note_changes USING btree (changed_at) WHERE deleted;


--
-- Name: notes_by_account_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX notes_by_account_newest ON public.notes USING btree (account_id, sort_key, id);


--
-- Name: search_chunks_fives; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX search_chunks_fives ON public.search_chunks USING gin (public.mynotes_chunk_fives(account_id, sort_key, folded_content));
ALTER INDEX public.search_chunks_fives ALTER COLUMN 1 SET STATISTICS 0;


--
-- Name: search_chunks_pieces; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX search_chunks_pieces ON public.search_chunks USING gin (public.mynotes_chunk_pieces(account_id, sort_key, folded_content));
ALTER INDEX public.search_chunks_pieces ALTER COLUMN 1 SET STATISTICS 0;


--
-- Name: search_chunks_triples; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX search_chunks_triples ON public.search_chunks USING gin (public.mynotes_chunk_triples(account_id, sort_key, folded_content));
ALTER INDEX public.search_chunks_triples ALTER COLUMN 1 SET STATISTICS 0;


--
-- Name: search_entries_account_pieces; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX search_entries_account_pieces ON public.search_entries USING gin (public.mynotes_account_pieces(account_id, folded_content) COLLATE "C");
ALTER INDEX public.search_entries_account_pieces ALTER COLUMN 1 SET STATISTICS 0;


--
-- Name: search_entries_trigrams; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX search_entries_trigrams ON public.search_entries USING gin (((((account_id)::text || chr(1)) || folded_content)) public.gin_trgm_ops);
ALTER INDEX public.search_entries_trigrams ALTER COLUMN 1 SET STATISTICS 0;


--
-- Name: sign_in_failures_by_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sign_in_failures_by_key ON public.sign_in_failures USING btree (key, failed_at);


--
-- Name: tokens_by_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tokens_by_account ON public.tokens USING btree (account_id);


--
-- Name: notes notes_written; Type: TRIGGER; Schema: public; Owner: -
--

CREATE TRIGGER notes_written AFTER INSERT OR DELETE OR UPDATE ON public.notes FOR EACH ROW EXECUTE FUNCTION public.mynotes_note_written();


--
-- Name: note_changes note_changes_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.note_changes
    ADD CONSTRAINT note_changes_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: notes notes_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.notes
    ADD CONSTRAINT notes_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: search_chunks search_chunks_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_chunks
    ADD CONSTRAINT search_chunks_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: search_chunks_progress search_chunks_progress_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_chunks_progress
    ADD CONSTRAINT search_chunks_progress_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: search_entries search_entries_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_entries
    ADD CONSTRAINT search_entries_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: search_progress search_progress_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.search_progress
    ADD CONSTRAINT search_progress_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- Name: tokens tokens_account_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tokens
    ADD CONSTRAINT tokens_account_id_fkey FOREIGN KEY (account_id) REFERENCES public.accounts(id) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--

\unrestrict afR4W458iIrVzqb8oqb3HvQ4cTzy38PnL3T3c3WRYBYpboOM5tRp8SxsI7Pa29p

