//! What the tests of the render's limits share: an empty dataset, a render of a bare
//! template, and a list nested by a loop.
#![allow(dead_code)]

use std::sync::Arc;

use peering_render::TemplateValue;
use peering_render::{render, Bounds, Dataset, MemorySource, RenderError, Secrets, Template};

pub fn data() -> Arc<Dataset> {
    Dataset::new(Box::new(MemorySource::new()), Secrets::all())
}

/// `source` rendered with no context over an empty dataset.
pub fn run(source: &str, bounds: &Bounds) -> Result<String, RenderError> {
    let template = Template {
        source,
        trim: false,
        lstrip: false,
    };
    render(&template, TemplateValue::from(()), &data(), bounds)
}

/// A list nested as many levels as `iterable` has items, built by a loop, then used by
/// `then`.
pub fn nested(iterable: &str, then: &str) -> String {
    format!(
        "{{%- set ns = namespace(x=[]) -%}}{{%- for i in {iterable} -%}}\
         {{%- set ns.x = [ns.x] -%}}{{%- endfor -%}}{then}"
    )
}
