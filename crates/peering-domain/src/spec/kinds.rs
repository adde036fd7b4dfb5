//! Shorthands for declaring fields.

use super::*;
use crate::choices::ChoiceSet;

pub const fn text(max_len: usize) -> Kind {
    Kind::Text {
        max_len: Some(max_len),
        ci: true,
        format: TextFormat::Plain,
    }
}

/// Text never searched case-insensitively (no lower-cased copy is kept).
pub const fn plain_text(max_len: usize) -> Kind {
    Kind::Text {
        max_len: Some(max_len),
        ci: false,
        format: TextFormat::Plain,
    }
}

pub const LONG_TEXT: Kind = Kind::Text {
    max_len: None,
    ci: false,
    format: TextFormat::Plain,
};

pub const fn slug(max_len: usize) -> Kind {
    Kind::Text {
        max_len: Some(max_len),
        ci: true,
        format: TextFormat::Slug,
    }
}

pub const COLOR: Kind = Kind::Text {
    max_len: Some(6),
    ci: false,
    format: TextFormat::Color,
};

pub const fn int(min: i64, max: i64) -> Kind {
    Kind::Int { min, max }
}

pub const JSON_OBJECT: Kind = Kind::Json { object_only: true };

/// Any JSON document (or null).
pub const JSON: Kind = Kind::Json { object_only: false };

pub const fn email(max_len: usize) -> Kind {
    Kind::Text {
        max_len: Some(max_len),
        ci: true,
        format: TextFormat::Email,
    }
}

/// A choice field rendered `{value, label}`.
pub const fn status(set: &'static ChoiceSet) -> Kind {
    Kind::Choice {
        set,
        render: ChoiceRender::Object,
    }
}

/// A foreign key.
pub const fn fk(target: fn() -> &'static ResourceSpec, on_delete: OnDelete) -> Kind {
    Kind::ForeignKey { target, on_delete }
}
