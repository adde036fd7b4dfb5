//! The Rust type of each field kind, as the API shows it and as a write gives it, and the
//! enums of choice sets.

use std::collections::BTreeMap;
use std::fmt::Write;

use peering_domain::choices::ChoiceSet;
use peering_domain::resources::ALL;
use peering_domain::spec::{ChoiceRender, Default, Field, Kind, Shown};
use peering_domain::ResourceSpec;

use super::names::{camel, type_name, variant};

/// The enum of a choice set, when fields show it as text (`RawInt` fields are numbers).
pub fn choice_enum(set: &ChoiceSet, render: ChoiceRender) -> Option<String> {
    (render != ChoiceRender::RawInt).then(|| camel(set.name))
}

/// The type of a field as the API shows it, before nullability.
fn shown_type(owner: &ResourceSpec, field: &Field) -> String {
    match field.kind {
        Kind::Choice { set, render } => match choice_enum(set, render) {
            Some(name) if render == ChoiceRender::Object => format!("Choice<{name}>"),
            Some(name) => name,
            None => "i64".into(),
        },
        Kind::ForeignKey { target, .. } => nested(owner, target()),
        Kind::ManyToMany { target, .. } => format!("Vec<{}>", nested(owner, target())),
        Kind::Tags => "Vec<NestedTag>".into(),
        Kind::GenericObject { .. } => "serde_json::Value".into(),
        Kind::DisplayCopy
        | Kind::Derived {
            shown: Shown::Text, ..
        } => "String".into(),
        Kind::Derived {
            shown: Shown::Bool, ..
        } => "bool".into(),
        Kind::Derived {
            shown: Shown::Json, ..
        } => "serde_json::Value".into(),
        Kind::ReverseCount { .. } => "i64".into(),
        _ => scalar(&field.kind),
    }
}

/// The type of a field as a write gives it, before optionality: related objects by id.
fn written_type(field: &Field) -> String {
    match field.kind {
        Kind::Choice { set, render } => choice_enum(set, render).unwrap_or_else(|| "i64".into()),
        Kind::ForeignKey { .. } => "i64".into(),
        Kind::ManyToMany { .. } | Kind::Tags => "Vec<i64>".into(),
        _ => scalar(&field.kind),
    }
}

/// The types shown and written alike.
fn scalar(kind: &Kind) -> String {
    match kind {
        Kind::Int { .. } => "i64",
        Kind::Bool => "bool",
        Kind::Uuid => "uuid::Uuid",
        Kind::Json { .. } => "serde_json::Value",
        Kind::Time => "Timestamp",
        Kind::Ip {
            host_only: true, ..
        } => "std::net::IpAddr",
        Kind::Ip { .. } => "ipnet::IpNet",
        Kind::ContentTypes => "Vec<String>",
        _ => "String",
    }
    .into()
}

/// The nested form of `target` inside an object of `owner` (boxed when it is the same
/// resource, so that the type has a size).
fn nested(owner: &ResourceSpec, target: &ResourceSpec) -> String {
    let name = format!("Nested{}", type_name(target));
    if std::ptr::eq(owner, target) {
        format!("Box<{name}>")
    } else {
        name
    }
}

/// Whether a JSON null stands for this field in its own type already.
fn null_is_a_value(field: &Field) -> bool {
    matches!(
        field.kind,
        Kind::Json { .. }
            | Kind::GenericObject { .. }
            | Kind::Derived {
                shown: Shown::Json,
                ..
            }
    )
}

/// The type of a field as the API shows it: optional when it may be null, or hidden from
/// callers who may not change the object.
pub fn shown(owner: &ResourceSpec, field: &Field) -> String {
    let base = shown_type(owner, field);
    if (field.nullable || field.secret) && !null_is_a_value(field) {
        format!("Option<{base}>")
    } else {
        base
    }
}

/// A brief or nested member shown as its plain value (`status=value`).
pub fn plain(field: &Field) -> String {
    let base = written_type(field);
    if field.nullable {
        format!("Option<{base}>")
    } else {
        base
    }
}

/// How a field of a write body is typed.
pub struct Written {
    pub ty: String,
    /// Absent from the body unless given (`None` is not sent).
    pub optional: bool,
}

/// A field of a create or replace body: required ones as they are (nullable ones may be
/// null), others optional, left to their defaults when absent.
pub fn written(field: &Field) -> Written {
    let base = written_type(field);
    if field.required && !field.write_only {
        let nullable = field.nullable && !null_is_a_value(field);
        return Written {
            ty: if nullable {
                format!("Option<{base}>")
            } else {
                base
            },
            optional: false,
        };
    }
    Written {
        ty: format!("Option<{base}>"),
        optional: true,
    }
}

/// A field of a partial update: absent, or a value; absent, null or a value if nullable.
pub fn patched(field: &Field) -> String {
    let base = written_type(field);
    if field.nullable && !null_is_a_value(field) {
        format!("Option<Option<{base}>>")
    } else {
        format!("Option<{base}>")
    }
}

/// A choice set shown as text: the index in `ALL` of the first resource using it, and
/// whether some field of it may be blank.
struct SetUse {
    set: &'static ChoiceSet,
    first_user: usize,
    blank: bool,
}

fn choice_sets() -> BTreeMap<&'static str, SetUse> {
    let mut sets = BTreeMap::new();
    for (index, spec) in ALL.iter().enumerate() {
        for field in spec.fields {
            let Kind::Choice { set, render } = field.kind else {
                continue;
            };
            if render == ChoiceRender::RawInt {
                continue;
            }
            let entry = sets.entry(set.name).or_insert(SetUse {
                set,
                first_user: index,
                blank: false,
            });
            entry.blank |= field.default == Default::Text("");
        }
    }
    sets
}

/// The enums of the choice sets, by the resource that first uses them.
pub fn choice_enums_by_first_user() -> BTreeMap<usize, String> {
    let mut by_user: BTreeMap<usize, String> = BTreeMap::new();
    for used in choice_sets().into_values() {
        let text = choice_enum_text(used.set, used.blank);
        by_user.entry(used.first_user).or_default().push_str(&text);
    }
    by_user
}

fn choice_enum_text(set: &ChoiceSet, blank: bool) -> String {
    let name = camel(set.name);
    let mut values: Vec<(&str, &str)> = set.choices.to_vec();
    if blank {
        values.push(("", ""));
    }
    let variants: std::collections::BTreeSet<String> =
        values.iter().map(|(value, _)| variant(value)).collect();
    assert_eq!(
        variants.len(),
        values.len(),
        "{}: two values make one variant name",
        set.name
    );
    let mut out = format!(
        "/// The choices of `{}`.\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]\n\
         pub enum {name} {{\n",
        set.name
    );
    for (value, label) in &values {
        let _ = writeln!(
            out,
            "/// {label:?}\n#[serde(rename = {value:?})]\n{},",
            variant(value)
        );
    }
    out.push_str("}\n\n");
    let _ = write!(out, "impl {name} {{\n/// The value as the API writes it.\npub fn as_str(self) -> &'static str {{\nmatch self {{\n");
    for (value, _) in &values {
        let _ = writeln!(out, "{name}::{} => {value:?},", variant(value));
    }
    out.push_str("}\n}\n\n/// The label the API shows beside the value.\npub fn label(self) -> &'static str {\nmatch self {\n");
    for (value, label) in &values {
        let _ = writeln!(out, "{name}::{} => {label:?},", variant(value));
    }
    out.push_str("}\n}\n}\n\n");
    let _ = write!(
        out,
        "impl ChoiceValue for {name} {{\nfn as_str(self) -> &'static str {{\n{name}::as_str(self)\n}}\n}}\n\n"
    );
    out
}
