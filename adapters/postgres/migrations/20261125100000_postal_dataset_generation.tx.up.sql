-- The generation of the postal dataset: every import adds one (and sends
-- NOTIFY pinsight_dataset with it), so each instance's in-memory replica
-- knows, with one cheap read, whether it serves the database's dataset.
CREATE TABLE postal_dataset_generation (
    singleton  boolean     PRIMARY KEY DEFAULT true CHECK (singleton),
    generation bigint      NOT NULL,
    changed_at timestamptz NOT NULL
);
--bun:split
INSERT INTO postal_dataset_generation (generation, changed_at) VALUES (1, now());
