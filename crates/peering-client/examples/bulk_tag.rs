//! Tags every autonomous system whose name contains a text, in one bulk update: the ASes
//! are read page by page, and each one's tags are written back with the tag added.
//!
//! ```sh
//! cargo run -p peering-client --example bulk_tag -- http://127.0.0.1:8000 <token> gold "Net"
//! ```

use std::error::Error;

use futures_util::TryStreamExt;
use peering_client::{Client, Query};
use peering_domain::models::{AutonomousSystem, PatchAutonomousSystem, Tag};

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [base, token, tag, name] = args.as_slice() else {
        return Err("usage: bulk_tag BASE_URL TOKEN TAG_SLUG NAME_CONTAINS".into());
    };
    let client = Client::new(base)?.with_token(token.as_str());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let tagged = runtime.block_on(bulk_tag(&client, tag, name))?;
    println!("tagged {tagged} autonomous systems with {tag}");
    Ok(())
}

/// Adds the tag `slug` to every AS whose name contains `name` (case-insensitive) and lacks
/// it; how many were changed.
pub async fn bulk_tag(client: &Client, slug: &str, name: &str) -> Result<usize, Box<dyn Error>> {
    let tags = client
        .list(&Query::<Tag>::new().filter(|f| f.slug.eq(slug)))
        .await?;
    let tag = tags
        .results
        .into_iter()
        .next()
        .ok_or_else(|| format!("no tag has the slug {slug}"))?;
    let systems: Vec<AutonomousSystem> = client
        .stream(Query::<AutonomousSystem>::new().filter(|f| f.name.ic(name)))
        .try_collect()
        .await?;
    let changes: Vec<(i64, PatchAutonomousSystem)> = systems
        .iter()
        .filter(|system| system.tags.iter().all(|t| t.id != tag.id))
        .map(|system| {
            let mut ids: Vec<i64> = system.tags.iter().map(|t| t.id).collect();
            ids.push(tag.id);
            let patch = PatchAutonomousSystem {
                tags: Some(ids),
                ..Default::default()
            };
            (system.id, patch)
        })
        .collect();
    if changes.is_empty() {
        return Ok(0);
    }
    let changed = client.update_many::<AutonomousSystem>(&changes).await?;
    Ok(changed.len())
}
