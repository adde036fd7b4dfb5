//! `POST …-peering-sessions/{id}/encrypt-password/`: the password encrypted with the
//! algorithm of the session's router's platform.

use actix_web::{web, HttpResponse};
use peering_domain::bodies::PasswordEncrypted;
use peering_domain::input::Draft;
use peering_domain::resources::{CONNECTION, DIRECT_PEERING_SESSION, PLATFORM, ROUTER};
use peering_domain::ResourceSpec;
use peering_store::Store;

use super::{typed_response, Call};
use crate::error::ApiError;

/// The session's router, when it encrypts passwords and its platform has an algorithm.
fn encrypting_router(
    store: &Store,
    spec: &'static ResourceSpec,
    id: i64,
) -> Result<Option<i64>, peering_store::Error> {
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

pub async fn encrypt_password(call: Call) -> Result<HttpResponse, ApiError> {
    let Call {
        req,
        state,
        caller,
        id,
        spec,
        ..
    } = call;
    let ctx = crate::resource::change_context(&req, &caller);
    let store = state.store.clone();
    let encrypted = web::block(move || {
        if store.get(spec, id)?.is_none() {
            return Ok(None);
        }
        if encrypting_router(&store, spec, id)?.is_none() {
            return Ok(Some(false));
        }
        // Rewriting the session runs its derivation, which encrypts the password.
        let draft = Draft::empty(spec);
        store.update(spec, vec![(id, draft)], &ctx)?;
        Ok::<_, peering_store::Error>(Some(true))
    })
    .await??;
    match encrypted {
        None => Err(ApiError::NotFound),
        Some(false) => Err(ApiError::Unavailable(
            "The session's router does not encrypt passwords: it needs encrypt_passwords and a platform with a password algorithm.".into(),
        )),
        Some(true) => typed_response(&req, &PasswordEncrypted { encrypted: true }),
    }
}
