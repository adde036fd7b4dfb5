-- Journal entries (the reference's 1.10 extras.JournalEntry): remarks on any object.
CREATE TABLE journal_entries (
    id BIGSERIAL PRIMARY KEY,
    assigned_object_type TEXT NOT NULL,
    assigned_object_id BIGINT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    created_by_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    kind TEXT NOT NULL DEFAULT 'info',
    comments TEXT NOT NULL
);
CREATE INDEX journal_entries_assigned_object ON journal_entries (assigned_object_type, assigned_object_id);
CREATE INDEX journal_entries_created_by ON journal_entries (created_by_id);
CREATE INDEX journal_entries_created ON journal_entries (created);
