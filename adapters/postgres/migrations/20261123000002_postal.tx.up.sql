-- The India Post directory. Names and keys compare byte-wise (COLLATE "C"),
-- as Go compares strings, so both adapters sort alike. Keys (name_key,
-- office_key, word) are computed in Go by the domain's normalisers at import.
CREATE TABLE postal_dataset (
    singleton      boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    version        text        NOT NULL,
    has_lgd        boolean     NOT NULL,
    offices        integer     NOT NULL,
    pincodes       integer     NOT NULL,
    states         integer     NOT NULL,
    districts      integer     NOT NULL,
    villages       integer     NOT NULL,
    village_states jsonb       NOT NULL,
    report         jsonb       NOT NULL,
    imported_at    timestamptz NOT NULL
);
--bun:split
CREATE TABLE postal_states (
    id                 integer PRIMARY KEY,
    name               text COLLATE "C" NOT NULL,
    name_key           text COLLATE "C" NOT NULL,
    districts_count    integer NOT NULL DEFAULT 0,
    pincodes_count     integer NOT NULL DEFAULT 0,
    post_offices_count integer NOT NULL DEFAULT 0
);
--bun:split
CREATE INDEX postal_states_name_key ON postal_states (name_key);
--bun:split
CREATE TABLE postal_districts (
    id                 integer PRIMARY KEY,
    name               text COLLATE "C" NOT NULL,
    alt_name           text COLLATE "C" NOT NULL DEFAULT '',
    name_key           text COLLATE "C" NOT NULL,
    alt_key            text COLLATE "C" NOT NULL DEFAULT '',
    state_id           integer NOT NULL,
    pincodes_count     integer NOT NULL DEFAULT 0,
    post_offices_count integer NOT NULL DEFAULT 0
);
--bun:split
CREATE INDEX postal_districts_state ON postal_districts (state_id, name, id);
--bun:split
CREATE INDEX postal_districts_name_key ON postal_districts (name_key);
--bun:split
CREATE INDEX postal_districts_alt_key ON postal_districts (alt_key);
--bun:split
CREATE TABLE post_offices (
    id          bigint PRIMARY KEY,
    pincode     text COLLATE "C" NOT NULL,
    name        text COLLATE "C" NOT NULL,
    office_key  text COLLATE "C" NOT NULL,
    office_type text NOT NULL,
    delivery    text NOT NULL,
    circle      text NOT NULL,
    region      text NOT NULL,
    division    text NOT NULL,
    district    text NOT NULL,
    state       text NOT NULL,
    district_id integer NOT NULL,
    state_id    integer NOT NULL,
    latitude    double precision,
    longitude   double precision,
    quality     text NOT NULL,
    -- Derived from the stored coordinates, which stay the source of every
    -- distance (Haversine in Go); the GiST index only selects candidates.
    location    geography(Point, 4326) GENERATED ALWAYS AS (
        CASE WHEN latitude IS NOT NULL AND longitude IS NOT NULL
             THEN ST_SetSRID(ST_MakePoint(longitude, latitude), 4326)::geography END) STORED
);
--bun:split
CREATE INDEX post_offices_pincode ON post_offices (pincode, office_key, id);
--bun:split
CREATE INDEX post_offices_district ON post_offices (district_id, pincode, office_key, id);
--bun:split
CREATE INDEX post_offices_location ON post_offices USING gist (location);
--bun:split
-- One row per word of an office key: the search candidates are the offices
-- with a word starting with the query's first word (a btree prefix scan).
CREATE TABLE post_office_words (
    word      text COLLATE "C" NOT NULL,
    office_id bigint NOT NULL,
    PRIMARY KEY (word, office_id)
);
--bun:split
CREATE TABLE postal_villages (
    ord          integer PRIMARY KEY,
    code         text COLLATE "C" NOT NULL,
    name         text COLLATE "C" NOT NULL,
    name_key     text COLLATE "C" NOT NULL,
    subdistrict  text NOT NULL,
    district     text NOT NULL,
    district_id  integer NOT NULL,
    state        text NOT NULL,
    state_id     integer NOT NULL,
    pincode      text COLLATE "C" NOT NULL
);
--bun:split
CREATE INDEX postal_villages_pincode ON postal_villages (pincode, name_key, code, ord);
--bun:split
CREATE TABLE postal_village_words (
    word text COLLATE "C" NOT NULL,
    ord  integer NOT NULL,
    PRIMARY KEY (word, ord)
);
