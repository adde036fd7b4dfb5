//! The structs of one resource: as shown (full, brief, nested) and as written (create or
//! replace, partial update).

use std::fmt::Write;

use peering_domain::names::to_reference;
use peering_domain::spec::{member, Field, Kind};
use peering_domain::ResourceSpec;

use super::names::{field_ident, type_name};
use super::types;

/// Every form of the resource at `index` of `resources::ALL`.
pub fn resource(index: usize, spec: &'static ResourceSpec) -> String {
    let name = type_name(spec);
    let mut out = shown_struct(spec, &name);
    let same_forms = spec.brief == spec.nested;
    let brief = if spec.brief.is_empty() {
        name.clone()
    } else {
        if !same_forms {
            out.push_str(&member_struct(
                spec,
                &format!("Brief{name}"),
                spec.brief,
                "brief form",
            ));
        }
        format!("Brief{name}")
    };
    out.push_str(&member_struct(
        spec,
        &format!("Nested{name}"),
        spec.nested,
        "form nested in other objects",
    ));
    if same_forms && !spec.brief.is_empty() {
        let _ = write!(
            out,
            "/// The brief form, which is the nested form.
pub type Brief{name} = Nested{name};

"
        );
    }
    out.push_str(&super::filters::filters_struct(spec, &name));
    let _ = write!(
        out,
        "impl Model for {name} {{\ntype Brief = {brief};\ntype Filters = {name}Filters;\n\
         fn spec() -> &'static ResourceSpec {{\nALL[{index}]\n}}\n\
         fn filters() -> {name}Filters {{\n{name}Filters::ALL\n}}\n\
         fn id(&self) -> i64 {{\nself.id\n}}\n}}\n\n"
    );
    if spec.writes.edits() {
        out.push_str(&writable_struct(index, spec, &name));
        out.push_str(&patch_struct(spec, &name));
        let _ = write!(
            out,
            "impl Editable for {name} {{\ntype Writable = Writable{name};\ntype Patch = Patch{name};\n}}\n\n"
        );
    }
    out
}

/// Serde attributes of a field: the reference's spelling of its name is read too.
fn alias(field: &Field) -> String {
    let reference = to_reference(field.name);
    if reference == field.name {
        String::new()
    } else {
        format!("#[serde(alias = {reference:?})]\n")
    }
}

fn doc(field: &Field) -> String {
    let text = if field.help.is_empty() {
        field.label
    } else {
        field.help
    };
    format!("/// {}\n", text.replace('\n', " "))
}

fn shown_struct(spec: &'static ResourceSpec, name: &str) -> String {
    let mut out = format!(
        "/// {} {}, as the API shows it.\n\
         #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]\npub struct {name} {{\n\
         pub id: i64,\n",
        article(spec.verbose_name),
        spec.verbose_name
    );
    if spec.field("url").is_none() {
        out.push_str("pub url: String,\n");
    }
    out.push_str("pub display_url: String,\npub display: String,\n");
    for field in spec.fields.iter().filter(|f| f.shown()) {
        let _ = writeln!(
            out,
            "{}{}pub {}: {},",
            doc(field),
            alias(field),
            field_ident(field.name),
            types::shown(spec, field)
        );
    }
    out.push_str("}\n\n");
    out
}

fn article(noun: &str) -> &'static str {
    match noun.chars().next() {
        Some('a' | 'e' | 'i' | 'o' | 'u' | 'A' | 'E' | 'I' | 'O' | 'U') => "An",
        _ => "A",
    }
}

/// A form limited to `members` (brief or nested).
fn member_struct(spec: &'static ResourceSpec, name: &str, members: &[&str], what: &str) -> String {
    let mut out = format!(
        "/// The {what} of {} {}.\n\
         #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]\npub struct {name} {{\n",
        article(spec.verbose_name).to_lowercase(),
        spec.verbose_name
    );
    for member_name in members {
        let (field_name, plain) = member(member_name);
        let ty = member_type(spec, field_name, plain);
        let _ = writeln!(out, "pub {}: {ty},", field_ident(field_name));
    }
    out.push_str("}\n\n");
    out
}

fn member_type(spec: &'static ResourceSpec, name: &str, plain: bool) -> String {
    match (name, spec.field(name)) {
        ("id", _) => "i64".into(),
        ("url" | "display_url" | "display", None) => "String".into(),
        (_, Some(field)) if field.secret => format!("Option<{}>", types::plain(field)),
        (_, Some(field)) if matches!(field.kind, Kind::DisplayCopy) => "String".into(),
        (_, Some(field)) if plain => types::plain(field),
        (_, Some(field)) => types::shown(spec, field),
        // A member the resource has no field for is shown as null.
        (_, None) => "Option<serde_json::Value>".into(),
    }
}

/// Fields a client may write.
fn writable_fields(spec: &ResourceSpec) -> impl Iterator<Item = &'static Field> {
    spec.fields.iter().filter(|f| f.writable())
}

const SKIP_ABSENT: &str = "#[serde(default, skip_serializing_if = \"Option::is_none\")]\n";

fn writable_struct(index: usize, spec: &'static ResourceSpec, name: &str) -> String {
    let mut fields = String::new();
    let mut required = Vec::new();
    let mut init = String::new();
    for field in writable_fields(spec) {
        let written = types::written(field);
        let ident = field_ident(field.name);
        let skip = if written.optional { SKIP_ABSENT } else { "" };
        let _ = writeln!(
            fields,
            "{}{}{skip}pub {ident}: {},",
            doc(field),
            alias(field),
            written.ty
        );
        if written.optional {
            let _ = writeln!(init, "{ident}: None,");
        } else {
            required.push(format!("{ident}: {}", written.ty));
            let _ = writeln!(init, "{ident},");
        }
    }
    // A body every field of which is optional is also its own default.
    let default = if required.is_empty() { ", Default" } else { "" };
    format!(
        "/// The body that creates or replaces {article} {noun}.\n\
         #[derive(Debug, Clone{default}, PartialEq, Serialize, Deserialize)]\n\
         pub struct Writable{name} {{\n{fields}}}\n\n\
         impl Writable{name} {{\n\
         /// A body with the required fields; the others are left to their defaults.\n\
         #[allow(clippy::too_many_arguments)]\n\
         pub fn new({params}) -> Self {{\nSelf {{\n{init}}}\n}}\n}}\n\n\
         impl Writable for Writable{name} {{\n\
         fn spec() -> &'static ResourceSpec {{\nALL[{index}]\n}}\n}}\n\n",
        article = article(spec.verbose_name).to_lowercase(),
        noun = spec.verbose_name,
        params = required.join(", "),
    )
}

fn patch_struct(spec: &'static ResourceSpec, name: &str) -> String {
    let mut fields = String::new();
    for field in writable_fields(spec) {
        let ty = types::patched(field);
        let read_null = if ty.starts_with("Option<Option<") {
            "#[serde(default, skip_serializing_if = \"Option::is_none\", deserialize_with = \"crate::models::nullable\")]\n"
        } else {
            SKIP_ABSENT
        };
        let _ = writeln!(
            fields,
            "{}{}{read_null}pub {}: {ty},",
            doc(field),
            alias(field),
            field_ident(field.name)
        );
    }
    format!(
        "/// The body of a partial update of {} {}: only the fields given change.\n\
         #[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]\n\
         pub struct Patch{name} {{\n{fields}}}\n\n",
        article(spec.verbose_name).to_lowercase(),
        spec.verbose_name
    )
}
