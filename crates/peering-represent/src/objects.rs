//! Representations of records: complete, brief and nested, written straight into a JSON
//! text buffer (no intermediate tree: a page of a thousand objects is one allocation).

use peering_domain::names::FieldNames;
use std::fmt::Write;

use peering_domain::resources::{Layout, TAG};
use peering_domain::spec::RelatedLookup;
use peering_domain::spec::{ChoiceRender, Kind};
use peering_domain::value::Iso8601;
use peering_domain::{Record, ResourceSpec, Value};

/// Everything rendering needs besides the record: related objects and the base URL.
pub struct Renderer<'a> {
    pub related: &'a dyn RelatedLookup,
    /// `scheme://host` of the request, so that URLs are absolute.
    pub base: &'a str,
    /// To whom secret fields are shown; others see them as null.
    pub show_secrets: SecretView,
    /// The spelling of the external database's fields.
    pub names: FieldNames,
    /// Whose paths the links name: the layout the request came through.
    pub layout: Layout,
}

/// Which objects' secret fields a caller sees: all (they may change the objects), none,
/// or those of the objects they own (their own jobs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretView {
    Shown,
    Hidden,
    OwnedBy(i64),
}

impl SecretView {
    /// What a caller sees of `spec`'s secrets: all when they may change its objects, else
    /// those of the objects they own, if the resource has owners.
    pub fn of(may_change: bool, user: Option<i64>, spec: &ResourceSpec) -> SecretView {
        match (user, spec.owner) {
            _ if may_change => SecretView::Shown,
            (Some(user), Some(_)) => SecretView::OwnedBy(user),
            _ => SecretView::Hidden,
        }
    }

    pub fn shows(self, spec: &ResourceSpec, record: &Record) -> bool {
        match self {
            SecretView::Shown => true,
            SecretView::Hidden => false,
            SecretView::OwnedBy(user) => spec
                .owner
                .is_some_and(|field| record.get(spec, field).as_int() == Some(user)),
        }
    }

    /// What tells answers to different viewers apart in the answer cache.
    pub fn cache_tag(self) -> String {
        match self {
            SecretView::Shown => "#secrets".into(),
            SecretView::Hidden => String::new(),
            SecretView::OwnedBy(user) => format!("#owner={user}"),
        }
    }
}

/// Appends `s` as a JSON string literal.
pub fn write_str(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Most text needs no escaping: skip it eight bytes at a time (the last few bytes
        // padded with spaces, which need none).
        let mut word = [b' '; 8];
        let n = (bytes.len() - i).min(8);
        word[..n].copy_from_slice(&bytes[i..i + n]);
        if !needs_escape(u64::from_le_bytes(word)) {
            i += n;
            continue;
        }
        let b = bytes[i];
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1f => "",
            _ => {
                i += 1;
                continue;
            }
        };
        // `i` is at an ASCII byte, so both slices end on character boundaries.
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Whether any of the eight bytes of `word` is a quote, a backslash or a control character
/// (the classic "has a byte less than n" and "has a zero byte" tests, exact for "any").
fn needs_escape(word: u64) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES * 0x80;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH != 0;
    let below_space = word.wrapping_sub(ONES * 0x20) & !word & HIGH != 0;
    below_space
        || has_zero(word ^ (ONES * u64::from(b'"')))
        || has_zero(word ^ (ONES * u64::from(b'\\')))
}

/// ISO 8601 in UTC with microseconds, quoted, as the reference renders times.
pub fn write_time(out: &mut String, t: &chrono::DateTime<chrono::Utc>) {
    let _ = write!(out, "\"{}\"", Iso8601::micros(*t));
}

/// A derived value: text, a JSON document, or null.
fn write_derived(out: &mut String, value: &Value) {
    match value {
        Value::Text(text) => write_str(out, text),
        Value::Bool(flag) => out.push_str(if *flag { "true" } else { "false" }),
        Value::Json(document) => out.push_str(&document.to_string()),
        _ => out.push_str("null"),
    }
}

fn key(out: &mut String, first: &mut bool, name: &str) {
    if !*first {
        out.push(',');
    }
    *first = false;
    write_name(out, name);
    out.push(':');
}

/// Appends a field name as a JSON string: names are identifiers, with nothing to escape.
fn write_name(out: &mut String, name: &str) {
    debug_assert!(name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'));
    out.push('"');
    out.push_str(name);
    out.push('"');
}

impl Renderer<'_> {
    fn write_url(&self, out: &mut String, spec: &'static ResourceSpec, id: i64) {
        let (app, path) = self.layout.place(spec);
        let _ = write!(out, "\"{}/api/{app}/{path}/{id}/\"", self.base);
    }

    /// The object's page for people, as 1.10's `display_url` links it: the browsable page
    /// of its API URL (peeringd has no other user interface).
    fn write_display_url(&self, out: &mut String, spec: &'static ResourceSpec, id: i64) {
        let (app, path) = self.layout.place(spec);
        let _ = write!(out, "\"{}/api/{app}/{path}/{id}/?format=api\"", self.base);
    }

    /// The complete representation: every visible field, relations nested.
    pub fn full(&self, out: &mut String, spec: &'static ResourceSpec, record: &Record) {
        let _ = write!(out, "{{\"id\":{}", record.id);
        // A resource with a field named `url` (IX-API accounts) shows that field instead.
        if spec.field("url").is_none() {
            out.push_str(",\"url\":");
            self.write_url(out, spec, record.id);
        }
        out.push_str(",\"display_url\":");
        self.write_display_url(out, spec, record.id);
        out.push_str(",\"display\":");
        let display = record.display_with(spec, self.related);
        write_str(out, &display);
        for (field, value) in spec.fields.iter().zip(&record.values) {
            if !field.shown() {
                continue;
            }
            out.push(',');
            write_name(out, &self.names.of(field.name));
            out.push(':');
            if field.secret && !self.show_secrets.shows(spec, record) {
                out.push_str("null");
            } else if matches!(field.kind, Kind::DisplayCopy) {
                write_str(out, &display);
            } else if let Kind::Derived { derive, .. } = field.kind {
                write_derived(out, &derive(spec, record));
            } else if matches!(field.kind, Kind::GenericObject { .. }) {
                self.generic(out, spec, record);
            } else {
                self.value(out, &field.kind, value);
            }
        }
        out.push('}');
    }

    /// A representation limited to `names` (the brief or nested field set).
    pub fn subset(
        &self,
        out: &mut String,
        spec: &'static ResourceSpec,
        record: &Record,
        names: &[&str],
    ) {
        out.push('{');
        let mut first = true;
        for name in names {
            let (name, plain) = peering_domain::spec::member(name);
            key(out, &mut first, name);
            match name {
                "id" => {
                    let _ = write!(out, "{}", record.id);
                }
                "url" if spec.field("url").is_none() => self.write_url(out, spec, record.id),
                "display" => write_str(out, &record.display_with(spec, self.related)),
                other => match spec.index_of(other) {
                    // Nested forms stand for objects of other resources, whose permissions
                    // were not checked: they never show a secret.
                    Some(i) if spec.fields[i].secret => out.push_str("null"),
                    Some(i) if matches!(spec.fields[i].kind, Kind::DisplayCopy) => {
                        write_str(out, &record.display_with(spec, self.related))
                    }
                    Some(i) => match (&spec.fields[i].kind, &record.values[i]) {
                        (Kind::Choice { .. }, Value::Text(v)) if plain => write_str(out, v),
                        (Kind::Derived { derive, .. }, _) => {
                            write_derived(out, &derive(spec, record))
                        }
                        (kind, value) => self.value(out, kind, value),
                    },
                    None => out.push_str("null"),
                },
            }
        }
        out.push('}');
    }

    /// The brief form, or the full one for a resource that has none (jobs, as in the
    /// reference, whose plain viewsets ignore `brief`).
    pub fn brief(&self, out: &mut String, spec: &'static ResourceSpec, record: &Record) {
        if spec.brief.is_empty() {
            self.full(out, spec, record)
        } else {
            self.subset(out, spec, record, spec.brief)
        }
    }

    /// The full or brief form of one record.
    pub fn one(&self, out: &mut String, spec: &'static ResourceSpec, record: &Record, brief: bool) {
        if brief {
            self.brief(out, spec, record);
        } else {
            self.full(out, spec, record);
        }
    }

    /// The full or brief form of each record, as a JSON array.
    pub fn many(
        &self,
        out: &mut String,
        spec: &'static ResourceSpec,
        records: &[Record],
        brief: bool,
    ) {
        out.push('[');
        self.items(out, spec, records, brief);
        out.push(']');
    }

    /// [`Renderer::many`] without the brackets, for an array written in slices.
    pub fn items(
        &self,
        out: &mut String,
        spec: &'static ResourceSpec,
        records: &[Record],
        brief: bool,
    ) {
        for (i, r) in records.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.one(out, spec, r, brief);
        }
    }

    fn nested(&self, out: &mut String, spec: &'static ResourceSpec, id: i64) {
        match self.related.related(spec, id) {
            Some(r) => self.subset(out, spec, r, spec.nested),
            None => {
                let _ = write!(out, "{{\"id\":{id},\"url\":");
                self.write_url(out, spec, id);
                out.push('}');
            }
        }
    }

    /// The nested form of the object a generic relation names, or null when it is gone.
    fn generic(&self, out: &mut String, spec: &ResourceSpec, record: &Record) {
        match record.generic_target(spec) {
            Some((target, id)) if self.related.related(target, id).is_some() => {
                self.nested(out, target, id)
            }
            _ => out.push_str("null"),
        }
    }

    fn nested_list(&self, out: &mut String, spec: &'static ResourceSpec, ids: &[i64]) {
        out.push('[');
        for (i, id) in ids.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.nested(out, spec, *id);
        }
        out.push(']');
    }

    fn value(&self, out: &mut String, kind: &Kind, value: &Value) {
        match (kind, value) {
            (_, Value::Null) => out.push_str("null"),
            (Kind::DisplayCopy | Kind::Derived { .. }, _) => out.push_str("null"),
            (Kind::Choice { set, render }, Value::Text(v)) => match render {
                ChoiceRender::Object => {
                    out.push_str("{\"value\":");
                    write_str(out, v);
                    out.push_str(",\"label\":");
                    write_str(out, set.label(v).unwrap_or(v));
                    out.push('}');
                }
                ChoiceRender::Raw => write_str(out, v),
                ChoiceRender::RawInt => match v.parse::<i64>() {
                    Ok(i) => {
                        let _ = write!(out, "{i}");
                    }
                    Err(_) => write_str(out, v),
                },
            },
            (Kind::ForeignKey { target, .. }, Value::Int(id)) => self.nested(out, target(), *id),
            (Kind::ManyToMany { target, .. }, Value::Ids(ids)) => {
                self.nested_list(out, target(), ids)
            }
            (Kind::Tags, Value::Ids(ids)) => self.nested_list(out, &TAG, ids),
            (_, Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
            (_, Value::Int(i)) => {
                let _ = write!(out, "{i}");
            }
            (_, Value::Text(t)) => write_str(out, t),
            (_, Value::Json(j)) => out.push_str(&j.to_string()),
            (_, Value::Time(t)) => write_time(out, t),
            (_, Value::Ids(ids)) => {
                let _ = write!(out, "{ids:?}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped_as_json() {
        for s in [
            "plain",
            "quote \" and \\ back",
            "line\nbreak\ttab",
            "\u{1}ctl",
            "ünïcode ✓",
        ] {
            let mut out = String::new();
            write_str(&mut out, s);
            assert_eq!(serde_json::from_str::<String>(&out).unwrap(), s);
        }
    }

    /// The plain byte-by-byte escaping, as the oracle of the word-at-a-time one.
    fn write_str_bytewise(out: &mut String, s: &str) {
        out.push('"');
        for c in s.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }

    proptest::proptest! {
        // Text of any length and alignment, dense in the characters that need escaping.
        #[test]
        fn any_text_is_escaped_as_byte_by_byte(
            s in "[\\x00-\\x7f\"\\\\é✓\u{10348}]{0,40}",
            plain in "[a-zA-Z0-9 é✓]{0,24}",
        ) {
            for s in [s.clone(), format!("{plain}{s}"), format!("{s}{plain}"), format!("{plain}{s}{plain}")] {
                let mut fast = String::new();
                write_str(&mut fast, &s);
                let mut slow = String::new();
                write_str_bytewise(&mut slow, &s);
                proptest::prop_assert_eq!(&fast, &slow);
                proptest::prop_assert_eq!(serde_json::from_str::<String>(&fast).unwrap(), s);
            }
        }
    }

    #[test]
    fn times_have_microseconds_and_z() {
        let t = chrono::DateTime::parse_from_rfc3339("2026-11-21T23:43:19.517859Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        let mut out = String::new();
        write_time(&mut out, &t);
        assert_eq!(out, "\"2026-11-21T23:43:19.517859Z\"");
    }
}
