ALTER TABLE postal_dataset DROP COLUMN source;
