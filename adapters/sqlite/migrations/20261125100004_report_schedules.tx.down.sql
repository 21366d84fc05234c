DROP TABLE report_runs;
