//! `POST …-peering-sessions/{id}/encrypt-password/`: the password encrypted with the
//! algorithm of the session's router's platform (`peering_app::sessions`).

use actix_web::{web, HttpResponse};
use peering_app::sessions::{encrypt_password as encrypt, Encryption};
use peering_domain::bodies::PasswordEncrypted;

use super::{typed_response, Call};
use crate::error::ApiError;

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
    let edits = state.edits.clone();
    match web::block(move || encrypt(&edits, spec, id, &ctx)).await?? {
        Encryption::NoSuchSession => Err(ApiError::NotFound),
        Encryption::RouterDoesNotEncrypt => Err(ApiError::Unavailable(
            "The session's router does not encrypt passwords: it needs encrypt_passwords and a platform with a password algorithm.".into(),
        )),
        Encryption::Encrypted => typed_response(&req, &PasswordEncrypted { encrypted: true }),
    }
}
