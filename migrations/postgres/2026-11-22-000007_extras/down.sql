DROP TABLE export_templates;
DROP TABLE contact_assignments;
DROP TABLE config_context_assignments;
DROP TABLE config_contexts;
