DROP TABLE journal_entries;
