//! The reference's later layout in the document: every operation of a resource that moved
//! (`resources::ALIASES`) is described again at its 1.9/1.10 path, with its own operation
//! id and its application's tag, so that clients generated from either layout work.

use peering_domain::resources::ALIASES;

use super::v3;

/// Copies each moved resource's path items (collection, detail, actions) to its alias.
pub(super) fn describe(doc: &mut v3::OpenAPI) {
    for alias in ALIASES {
        let from = format!("/api/{}/{}/", alias.spec.app, alias.spec.path);
        let to = format!("/api/{}/{}/", alias.app, alias.path);
        let old_id = format!("{}_{}_", alias.spec.app, alias.spec.path.replace('-', "_"));
        let new_id = format!("{}_{}_", alias.app, alias.path.replace('-', "_"));
        let copies: Vec<(String, v3::ReferenceOr<v3::PathItem>)> = doc
            .paths
            .paths
            .iter()
            .filter_map(|(path, item)| {
                let rest = path.strip_prefix(&from)?;
                let mut item = item.clone();
                if let v3::ReferenceOr::Item(item) = &mut item {
                    for op in operations(item) {
                        rename(op, &old_id, &new_id, alias.app);
                    }
                }
                Some((format!("{to}{rest}"), item))
            })
            .collect();
        doc.paths.paths.extend(copies);
    }
}

fn operations(item: &mut v3::PathItem) -> impl Iterator<Item = &mut v3::Operation> {
    [
        item.get.as_mut(),
        item.put.as_mut(),
        item.post.as_mut(),
        item.delete.as_mut(),
        item.options.as_mut(),
        item.head.as_mut(),
        item.patch.as_mut(),
        item.trace.as_mut(),
    ]
    .into_iter()
    .flatten()
}

fn rename(op: &mut v3::Operation, old_id: &str, new_id: &str, app: &str) {
    if let Some(id) = &op.operation_id {
        if let Some(rest) = id.strip_prefix(old_id) {
            op.operation_id = Some(format!("{new_id}{rest}"));
        }
    }
    op.tags = vec![app.to_string()];
}
