-- The releases of the postal directory loaded so far, oldest first (seq 1:
-- the first, the embedded snapshot unless the history began elsewhere).
-- baseline holds the latest release's offices (postal.EncodeReleaseOffices)
-- to diff the next release against; older releases drop theirs.
CREATE TABLE postal_releases (
    seq       bigint NOT NULL PRIMARY KEY,
    version   text    NOT NULL,
    published text    NOT NULL,
    kind      text    NOT NULL,
    offices   bigint  NOT NULL,
    pincodes  bigint  NOT NULL,
    changes   bigint  NOT NULL,
    loaded_at timestamptz NOT NULL,
    baseline  bytea
);
--bun:split
-- What each release changed against the one before it, in Diff's order.
CREATE TABLE postal_release_changes (
    release_seq bigint  NOT NULL REFERENCES postal_releases (seq) ON DELETE CASCADE,
    ord         bigint  NOT NULL,
    kind        text    NOT NULL,
    pincode     text    NOT NULL,
    office      text    NOT NULL,
    office_type text    NOT NULL,
    before      text    NOT NULL,
    after       text    NOT NULL,
    from_lat    double precision,
    from_lon    double precision,
    to_lat      double precision,
    to_lon      double precision,
    distance_km double precision NOT NULL,
    PRIMARY KEY (release_seq, ord)
);
--bun:split
CREATE INDEX postal_release_changes_kind ON postal_release_changes (kind, release_seq, ord);
