//! A BGP session's password encrypted on request, with the algorithm of its router's
//! platform.

use peering_domain::input::Draft;
use peering_domain::resources::{CONNECTION, DIRECT_PEERING_SESSION, PLATFORM, ROUTER};
use peering_domain::ResourceSpec;
use peering_store::{ChangeContext, Error, Store};

use crate::edits::Edits;

/// What asking to encrypt a session's password did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encryption {
    NoSuchSession,
    /// The session's router does not encrypt: it needs `encrypt_passwords` and a platform
    /// with a password algorithm.
    RouterDoesNotEncrypt,
    Encrypted,
}

/// Encrypts the password of session `id` of `spec` (a direct or an exchange session).
pub fn encrypt_password(
    edits: &Edits,
    spec: &'static ResourceSpec,
    id: i64,
    ctx: &ChangeContext,
) -> Result<Encryption, Error> {
    let store = edits.store();
    if store.get(spec, id)?.is_none() {
        return Ok(Encryption::NoSuchSession);
    }
    if encrypting_router(store, spec, id)?.is_none() {
        return Ok(Encryption::RouterDoesNotEncrypt);
    }
    // Rewriting the session runs its derivation, which encrypts the password.
    edits.update(spec, vec![(id, Draft::empty(spec))], ctx)?;
    Ok(Encryption::Encrypted)
}

/// The session's router, when it encrypts passwords and its platform has an algorithm.
fn encrypting_router(
    store: &Store,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<Option<i64>, Error> {
    let Some((session, _)) = store.get(spec, id)? else {
        return Ok(None);
    };
    let router = if spec.table == DIRECT_PEERING_SESSION.table {
        session.get(spec, "router").as_int()
    } else {
        match session.get(spec, "ixp_connection").as_int() {
            Some(c) => store
                .get(&CONNECTION, c)?
                .and_then(|(c, _)| c.get(&CONNECTION, "router").as_int()),
            None => None,
        }
    };
    let Some((router, _)) = router.map(|r| store.get(&ROUTER, r)).transpose()?.flatten() else {
        return Ok(None);
    };
    if router.get(&ROUTER, "encrypt_passwords").as_bool() != Some(true) {
        return Ok(None);
    }
    let algorithm = match router.get(&ROUTER, "platform").as_int() {
        Some(p) => store
            .get(&PLATFORM, p)?
            .map(|(p, _)| p.text(&PLATFORM, "password_algorithm").to_string()),
        None => None,
    };
    Ok(algorithm.filter(|a| !a.is_empty()).map(|_| router.id))
}
