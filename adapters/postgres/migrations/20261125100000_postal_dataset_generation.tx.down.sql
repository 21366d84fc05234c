DROP TABLE postal_dataset_generation;
