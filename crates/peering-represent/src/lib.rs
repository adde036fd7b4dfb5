//! Objects as the API shows them, apart from HTTP: their complete, brief and nested
//! representations written straight into JSON text (`objects.rs`), the OPTIONS description
//! of a resource (`options.rs`), and the window a list asks for with its `next` and
//! `previous` links (`page.rs`). It knows the domain and nothing else: related objects come
//! through the domain's `RelatedLookup`, and what a caller may do as plain answers.

pub mod objects;
pub mod options;
pub mod page;

pub use objects::{write_str, Renderer, SecretView};
