-- The releases of the postal directory loaded so far, oldest first (seq 1:
-- the first, the embedded snapshot unless the history began elsewhere).
-- baseline holds the latest release's offices (postal.EncodeReleaseOffices)
-- to diff the next release against; older releases drop theirs.
CREATE TABLE postal_releases (
    seq       INTEGER NOT NULL PRIMARY KEY,
    version   TEXT    NOT NULL,
    published TEXT    NOT NULL,
    kind      TEXT    NOT NULL,
    offices   INTEGER NOT NULL,
    pincodes  INTEGER NOT NULL,
    changes   INTEGER NOT NULL,
    loaded_at TEXT    NOT NULL,
    baseline  BLOB
) STRICT;
--bun:split
-- What each release changed against the one before it, in Diff's order.
CREATE TABLE postal_release_changes (
    release_seq INTEGER NOT NULL REFERENCES postal_releases (seq) ON DELETE CASCADE,
    ord         INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    pincode     TEXT    NOT NULL,
    office      TEXT    NOT NULL,
    office_type TEXT    NOT NULL,
    before      TEXT    NOT NULL,
    after       TEXT    NOT NULL,
    from_lat    REAL,
    from_lon    REAL,
    to_lat      REAL,
    to_lon      REAL,
    distance_km REAL    NOT NULL,
    PRIMARY KEY (release_seq, ord)
) STRICT;
--bun:split
CREATE INDEX postal_release_changes_kind ON postal_release_changes (kind, release_seq, ord);
