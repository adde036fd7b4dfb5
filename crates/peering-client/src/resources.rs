//! Reading and writing objects, generic over the model: lists (a page, brief, or every page
//! as a stream), one object, creations, changes and deletions, one at a time or in bulk.

use futures_util::stream::{self, Stream};
use peering_domain::models::{Editable, Model};
use reqwest::{Method, Url};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value as Json};

use crate::client::Client;
use crate::error::Error;
use crate::query::Query;

/// One page of a list, as the server answers it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Page<T> {
    /// How many objects match, on all pages.
    pub count: u64,
    /// The next page's URL, if there is one.
    pub next: Option<String>,
    /// The previous page's URL, if there is one.
    pub previous: Option<String>,
    pub results: Vec<T>,
}

/// No body: the type of `body` for calls that send none.
const NO_BODY: Option<&Json> = None;

impl Client {
    /// One page of `M`'s list.
    pub async fn list<M: Model>(&self, query: &Query<M>) -> Result<Page<M>, Error> {
        let url = self.list_url(query, false)?;
        self.call(Method::GET, url, NO_BODY).await
    }

    /// One page of `M`'s list, in the brief form.
    pub async fn list_brief<M: Model>(&self, query: &Query<M>) -> Result<Page<M::Brief>, Error> {
        let url = self.list_url(query, true)?;
        self.call(Method::GET, url, NO_BODY).await
    }

    /// The page a link of another page names (its `next` or `previous`), if the link is on
    /// the base URL's origin ([`Error::ForeignLink`] otherwise: the token is never sent
    /// elsewhere).
    pub async fn page<M: Model>(&self, link: &str) -> Result<Page<M>, Error> {
        let url = self.same_origin(link)?;
        self.call(Method::GET, url, NO_BODY).await
    }

    /// Every object of the list, page after page (each page asked when the previous one is
    /// used up, following the server's `next` links). A link to another origin than the
    /// base URL's is not followed: the stream ends with [`Error::ForeignLink`]. The stream
    /// ends after its first error.
    pub fn stream<M: Model>(
        &self,
        query: Query<M>,
    ) -> impl Stream<Item = Result<M, Error>> + Send + Unpin + 'static {
        let start = Pages {
            client: self.clone(),
            next: Some(self.list_url(&query, false)),
            items: Vec::new().into_iter(),
        };
        Box::pin(stream::unfold(Some(start), |state| async move {
            let mut pages = state?;
            loop {
                if let Some(item) = pages.items.next() {
                    return Some((Ok(item), Some(pages)));
                }
                let url = match pages.next.take()? {
                    Ok(url) => url,
                    Err(e) => return Some((Err(e), None)),
                };
                match pages
                    .client
                    .call::<Page<M>, _>(Method::GET, url, NO_BODY)
                    .await
                {
                    Ok(page) => {
                        pages.next = page.next.map(|link| pages.client.same_origin(&link));
                        pages.items = page.results.into_iter();
                    }
                    Err(e) => return Some((Err(e), None)),
                }
            }
        }))
    }

    /// The object `id`.
    pub async fn get<M: Model>(&self, id: i64) -> Result<M, Error> {
        let url = self.object(M::spec(), id)?;
        self.call(Method::GET, url, NO_BODY).await
    }

    /// Creates an object; the object as stored.
    pub async fn create<M: Editable>(&self, body: &M::Writable) -> Result<M, Error> {
        let url = self.collection(M::spec())?;
        self.call(Method::POST, url, Some(body)).await
    }

    /// Creates several objects at once (all or none); the objects as stored, in order.
    pub async fn create_many<M: Editable>(&self, bodies: &[M::Writable]) -> Result<Vec<M>, Error> {
        let url = self.collection(M::spec())?;
        self.call(Method::POST, url, Some(bodies)).await
    }

    /// Changes the fields `patch` gives of the object `id` (PATCH).
    pub async fn update<M: Editable>(&self, id: i64, patch: &M::Patch) -> Result<M, Error> {
        let url = self.object(M::spec(), id)?;
        self.call(Method::PATCH, url, Some(patch)).await
    }

    /// Replaces the object `id` with `body` (PUT): every required field is sent; the
    /// optional fields `body` leaves out keep their values, as on the server.
    pub async fn replace<M: Editable>(&self, id: i64, body: &M::Writable) -> Result<M, Error> {
        let url = self.object(M::spec(), id)?;
        self.call(Method::PUT, url, Some(body)).await
    }

    /// Changes several objects at once, each by its own patch (all or none); the objects
    /// as stored, in order.
    pub async fn update_many<M: Editable>(
        &self,
        changes: &[(i64, M::Patch)],
    ) -> Result<Vec<M>, Error> {
        let body = changes
            .iter()
            .map(|(id, patch)| with_id(*id, patch))
            .collect::<Result<Vec<_>, _>>()?;
        let url = self.collection(M::spec())?;
        self.call(Method::PATCH, url, Some(&body)).await
    }

    /// Deletes the object `id` (and what the server deletes with it).
    pub async fn delete<M: Model>(&self, id: i64) -> Result<(), Error> {
        let url = self.object(M::spec(), id)?;
        self.send(Method::DELETE, url, NO_BODY).await.map(drop)
    }

    /// Deletes several objects at once (all or none).
    pub async fn delete_many<M: Model>(&self, ids: &[i64]) -> Result<(), Error> {
        let body: Vec<Json> = ids.iter().map(|id| json!({ "id": id })).collect();
        let url = self.collection(M::spec())?;
        self.send(Method::DELETE, url, Some(&body)).await.map(drop)
    }

    fn list_url<M>(&self, query: &Query<M>, brief: bool) -> Result<Url, Error>
    where
        M: Model,
    {
        let mut url = self.collection(M::spec())?;
        let text = query.to_query_string(brief);
        if !text.is_empty() {
            url.set_query(Some(&text));
        }
        Ok(url)
    }
}

/// The pages of a stream: where the next one is, and what is left of the current one.
struct Pages<M> {
    client: Client,
    next: Option<Result<Url, Error>>,
    items: std::vec::IntoIter<M>,
}

/// A patch as the item of a bulk update: its JSON object with the object's `id`.
fn with_id<P: Serialize>(id: i64, patch: &P) -> Result<Json, Error> {
    match serde_json::to_value(patch) {
        Ok(Json::Object(mut fields)) => {
            fields.insert("id".to_string(), Json::from(id));
            Ok(Json::Object(fields))
        }
        Ok(other) => Err(Error::Body(format!(
            "a patch must be an object, not {other}"
        ))),
        Err(e) => Err(Error::Body(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use peering_domain::models::PatchAutonomousSystem;

    use super::*;

    #[test]
    fn bulk_patches_carry_their_ids() {
        let patch = PatchAutonomousSystem {
            name: Some("Renamed".into()),
            ..Default::default()
        };
        assert_eq!(
            with_id(7, &patch).unwrap(),
            json!({"name": "Renamed", "id": 7})
        );
        assert!(with_id(7, &3).is_err());
    }
}
