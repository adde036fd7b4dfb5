//! The query of a list: typed filters of the model, free-text search, ordering and paging,
//! written as the query string the server reads.

use std::fmt;
use std::marker::PhantomData;

use peering_domain::models::filters::Condition;
use peering_domain::models::Model;

/// What a list asks for: `Query::<AutonomousSystem>::new().filter(|f| f.asn.gte(64500))`.
///
/// Conditions on different parameters must all hold; a parameter given several times means
/// one of its values (a tag given several times: all of them), as the server reads them.
pub struct Query<M> {
    conditions: Vec<Condition>,
    limit: Option<u64>,
    offset: Option<u64>,
    // `fn() -> M`: the query holds no `M`, so it is `Send` and `Sync` whatever `M` is.
    model: PhantomData<fn() -> M>,
}

impl<M: Model> Query<M> {
    /// Every object, in the resource's default order, in pages of the server's default size.
    pub fn new() -> Self {
        Query {
            conditions: Vec::new(),
            limit: None,
            offset: None,
            model: PhantomData,
        }
    }

    /// Adds a condition built from the model's typed filters:
    /// `.filter(|f| f.asn.gte(64500))`.
    pub fn filter(self, condition: impl FnOnce(M::Filters) -> Condition) -> Self {
        let made = condition(M::filters());
        self.condition(made)
    }

    /// Adds any parameter, typed or not (`Condition { param, value }`).
    pub fn condition(mut self, condition: Condition) -> Self {
        self.conditions.push(condition);
        self
    }

    /// Free-text search (`q`).
    pub fn search(self, text: &str) -> Self {
        self.param("q", text)
    }

    /// The order: field names separated by commas, `-` before one for descending.
    pub fn ordering(self, fields: &str) -> Self {
        self.param("ordering", fields)
    }

    /// The page size.
    pub fn limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }

    /// The index of the first object of the page.
    pub fn offset(mut self, offset: u64) -> Self {
        self.offset = Some(offset);
        self
    }

    fn param(self, name: &str, value: &str) -> Self {
        self.condition(Condition {
            param: name.to_string(),
            value: value.to_string(),
        })
    }
}

impl<M> Query<M> {
    /// The conditions given, in order.
    pub fn conditions(&self) -> &[Condition] {
        &self.conditions
    }

    /// The query string (without `?`), with `brief=true` when asked.
    pub fn to_query_string(&self, brief: bool) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        for c in &self.conditions {
            out.append_pair(&c.param, &c.value);
        }
        if let Some(limit) = self.limit {
            out.append_pair("limit", &limit.to_string());
        }
        if let Some(offset) = self.offset {
            out.append_pair("offset", &offset.to_string());
        }
        if brief {
            out.append_pair("brief", "true");
        }
        out.finish()
    }
}

impl<M: Model> Default for Query<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M> Clone for Query<M> {
    fn clone(&self) -> Self {
        Query {
            conditions: self.conditions.clone(),
            limit: self.limit,
            offset: self.offset,
            model: PhantomData,
        }
    }
}

impl<M> fmt::Debug for Query<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Query")
            .field("query", &self.to_query_string(false))
            .field("model", &std::any::type_name::<M>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use peering_domain::models::{AutonomousSystem, InternetExchangePeeringSession};

    use super::*;

    #[test]
    fn typed_filters_search_ordering_and_paging_become_the_query_string() {
        let query = Query::<AutonomousSystem>::new()
            .filter(|f| f.asn.gte(64500))
            .filter(|f| f.tag.has("core"))
            .filter(|f| f.name.ic("a&b c"))
            .search("text")
            .ordering("-asn,name")
            .limit(50)
            .offset(100);
        assert_eq!(
            query.to_query_string(false),
            "asn__gte=64500&tag=core&name__ic=a%26b+c&q=text&ordering=-asn%2Cname&limit=50&offset=100"
        );
        let sessions =
            Query::<InternetExchangePeeringSession>::new().filter(|f| f.autonomous_system_id.eq(3));
        assert_eq!(
            sessions.to_query_string(true),
            "autonomous_system_id=3&brief=true"
        );
    }
}
