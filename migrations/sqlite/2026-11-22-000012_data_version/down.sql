DROP TABLE data_version;
