//! Creating, changing and deleting objects with the rules every write obeys, whoever asks:
//! the API, the command line, the import, the demo data and jobs all write through here.
//! The store checks what a row may hold; the rules kept here need more than the store
//! knows (a template parser, a password hasher, the settings).

use peering_domain::input::{Draft, Input, Ref};
use peering_domain::spec::{Default as FieldDefault, Kind, TextFormat};
use peering_domain::{FieldErrors, Record, ResourceSpec, Value};
use peering_store::{ChangeContext, Error, Related, Store};

use crate::data_sources::check_data_file;

/// The settings the write rules depend on.
#[derive(Debug, Clone, Copy)]
pub struct WriteRules {
    /// The fewest characters a password set through a write may have.
    pub min_password_length: usize,
}

/// Objects written under the write rules.
#[derive(Clone)]
pub struct Edits {
    store: Store,
    rules: WriteRules,
}

impl std::fmt::Debug for Edits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Edits").field("rules", &self.rules).finish()
    }
}

impl Edits {
    pub fn new(store: Store, rules: WriteRules) -> Edits {
        Edits { store, rules }
    }

    pub fn rules(&self) -> WriteRules {
        self.rules
    }

    /// The store written to, for the reads a use case makes before it writes.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Creates objects all-or-none; the first draft a rule refuses is named by its index.
    /// Blocks: passwords are hashed here, slowly on purpose.
    pub fn create(
        &self,
        spec: &'static ResourceSpec,
        mut drafts: Vec<Draft>,
        ctx: &ChangeContext,
    ) -> Result<(Vec<Record>, Related), Error> {
        for (index, draft) in drafts.iter_mut().enumerate() {
            admit(spec, draft, &self.rules).map_err(|e| e.at(index))?;
            check_data_file(&self.store, spec, draft).map_err(|e| e.at(index))?;
        }
        self.store.create(spec, drafts, ctx)
    }

    /// Updates objects all-or-none (unknown ids are skipped), the rules applied to what
    /// each draft sets.
    pub fn update(
        &self,
        spec: &'static ResourceSpec,
        mut work: Vec<(i64, Draft)>,
        ctx: &ChangeContext,
    ) -> Result<(Vec<Record>, Related), Error> {
        for (_, draft) in &mut work {
            admit(spec, draft, &self.rules)?;
            check_data_file(&self.store, spec, draft)?;
        }
        self.store.update(spec, work, ctx)
    }

    /// Deletes objects all-or-none.
    pub fn delete(
        &self,
        spec: &'static ResourceSpec,
        ids: &[i64],
        ctx: &ChangeContext,
    ) -> Result<(), Error> {
        self.store.delete(spec, ids, ctx)
    }
}

/// What a draft needs before the store takes it: every template it sets parses, and every
/// password it sets is long enough, then replaced by its hash.
pub fn admit(spec: &ResourceSpec, draft: &mut Draft, rules: &WriteRules) -> Result<(), Error> {
    check_templates(spec, draft)?;
    check_conditions(spec, draft)?;
    for (field, input) in spec.fields.iter().zip(draft.inputs.iter_mut()) {
        if !is_password(field.kind) {
            continue;
        }
        if let Some(Input::Value(Value::Text(plain))) = input {
            check_password(plain, rules)
                .map_err(|message| Error::invalid(FieldErrors::single(field.name, message)))?;
            *plain = peering_auth::password::hash(plain)
                .map_err(|e| Error::Backend(e.to_string().into()))?;
        }
    }
    Ok(())
}

fn is_password(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Text {
            format: TextFormat::Password,
            ..
        }
    )
}

/// Why a new password is refused, if it is.
pub fn check_password(plain: &str, rules: &WriteRules) -> Result<(), String> {
    let min = rules.min_password_length;
    if plain.chars().count() < min {
        return Err(format!(
            "This password is too short. It must contain at least {min} characters."
        ));
    }
    Ok(())
}

/// The hash to store for a new password, or why it is refused.
pub fn password_hash(plain: &str, rules: &WriteRules) -> Result<String, String> {
    check_password(plain, rules)?;
    peering_auth::password::hash(plain).map_err(|e| e.to_string())
}

/// A template that does not parse is refused, naming its line and the problem (the
/// reference stores it and fails when it is rendered).
fn check_templates(spec: &ResourceSpec, draft: &Draft) -> Result<(), Error> {
    let mut errors = FieldErrors::new();
    for (field, input) in spec.fields.iter().zip(&draft.inputs) {
        let Some(Input::Value(Value::Text(source))) = input else {
            continue;
        };
        if !field.template {
            continue;
        }
        if let Err(e) = peering_render::check(source) {
            let at = e.line.map(|l| format!(" at line {l}")).unwrap_or_default();
            errors.add(field.name, format!("Invalid template{at}: {}", e.message));
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::invalid(errors))
    }
}

/// A webhook's conditions that could not be evaluated are refused, as the reference
/// refuses them (its validation compiles them).
fn check_conditions(spec: &ResourceSpec, draft: &Draft) -> Result<(), Error> {
    if !std::ptr::eq(spec, &peering_domain::resources::WEBHOOK) {
        return Ok(());
    }
    let Some(index) = spec.fields.iter().position(|f| f.name == "conditions") else {
        return Ok(());
    };
    let Some(Some(Input::Value(Value::Json(conditions)))) = draft.inputs.get(index) else {
        return Ok(());
    };
    crate::webhooks::conditions::parse(conditions)
        .map(|_| ())
        .map_err(|message| Error::invalid(FieldErrors::single("conditions", message)))
}

/// A field that defaults to the user making the write (a journal entry's `created_by`)
/// takes that user when the draft leaves it out.
pub fn default_to_user(spec: &ResourceSpec, draft: &mut Draft, user: Option<i64>) {
    let Some(user) = user else {
        return;
    };
    for (field, input) in spec.fields.iter().zip(draft.inputs.iter_mut()) {
        if matches!(field.default, FieldDefault::CurrentUser) && input.is_none() {
            *input = Some(Input::Ref(Some(Ref::Id(user))));
        }
    }
}
