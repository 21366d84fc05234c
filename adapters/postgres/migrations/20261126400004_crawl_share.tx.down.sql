DROP INDEX crawls_status_created;
