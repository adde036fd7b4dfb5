-- Config contexts and their assignments, export templates and contact assignments.
-- Assignments name their object by content type and id (a generic relation): the store
-- deletes them with their object.
CREATE TABLE config_contexts (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_lc TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    data TEXT NOT NULL,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL
);

CREATE TABLE config_context_assignments (
    id BIGSERIAL PRIMARY KEY,
    content_type TEXT NOT NULL,
    object_id BIGINT NOT NULL,
    config_context_id BIGINT NOT NULL REFERENCES config_contexts (id) ON DELETE RESTRICT,
    weight BIGINT NOT NULL DEFAULT 1000,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    UNIQUE (content_type, object_id, config_context_id)
);
CREATE INDEX config_context_assignments_context ON config_context_assignments (config_context_id);

CREATE TABLE contact_assignments (
    id BIGSERIAL PRIMARY KEY,
    content_type TEXT NOT NULL,
    object_id BIGINT NOT NULL,
    contact_id BIGINT NOT NULL REFERENCES contacts (id) ON DELETE RESTRICT,
    role_id BIGINT NOT NULL REFERENCES contact_roles (id) ON DELETE RESTRICT,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    UNIQUE (content_type, object_id, contact_id, role_id)
);
CREATE INDEX contact_assignments_contact ON contact_assignments (contact_id);
CREATE INDEX contact_assignments_role ON contact_assignments (role_id);

CREATE TABLE export_templates (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    name_lc TEXT NOT NULL,
    content_type TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    description_lc TEXT NOT NULL DEFAULT '',
    template TEXT NOT NULL,
    template_lc TEXT NOT NULL,
    jinja2_trim BOOLEAN NOT NULL DEFAULT FALSE,
    jinja2_lstrip BOOLEAN NOT NULL DEFAULT FALSE,
    created BIGINT NOT NULL,
    updated BIGINT NOT NULL,
    UNIQUE (content_type, name)
);
