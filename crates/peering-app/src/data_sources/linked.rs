//! A template written with a data file takes the file's text (the store's derive copies
//! it): that text must parse, as any template written does.

use peering_domain::input::{Draft, Input, Ref};
use peering_domain::resources::DATA_FILE;
use peering_domain::{FieldErrors, ResourceSpec, Value};
use peering_store::{Error, Store};

/// Refuses a draft whose data file holds a text that is not a template that parses.
pub fn check_data_file(store: &Store, spec: &ResourceSpec, draft: &Draft) -> Result<(), Error> {
    let Some(index) = spec.index_of("data_file") else {
        return Ok(());
    };
    let Some(Some(Input::Ref(Some(Ref::Id(id))))) = draft.inputs.get(index) else {
        return Ok(());
    };
    // A file that does not exist is refused by the store, as any reference.
    let Some((file, _)) = store.get(&DATA_FILE, *id)? else {
        return Ok(());
    };
    let refuse = |message: String| Err(Error::invalid(FieldErrors::single("data_file", message)));
    match file.get(&DATA_FILE, "data") {
        Value::Text(text) => match peering_render::check(text) {
            Ok(()) => Ok(()),
            Err(e) => {
                let at = e.line.map(|l| format!(" at line {l}")).unwrap_or_default();
                refuse(format!("Invalid template{at}: {}", e.message))
            }
        },
        _ => refuse("The data file is not text.".into()),
    }
}
