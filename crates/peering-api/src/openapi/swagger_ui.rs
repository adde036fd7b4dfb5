//! Swagger UI at `/api/schema/swagger-ui/`, its files compiled into the binary.
//!
//! The files are vendored from `swagger-ui-dist` (see `assets/swagger-ui/README.md`); the
//! page is ours, so it always loads our document and nothing from elsewhere.

use actix_web::http::header::{CacheControl, CacheDirective, ContentType};
use actix_web::{web, HttpRequest, HttpResponse};

use crate::error::ApiError;

/// Where the UI is served.
pub const UI: &str = "/api/schema/swagger-ui/";

const INDEX: &str = r##"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>peeringd API</title>
<link rel="stylesheet" href="swagger-ui.css">
<link rel="icon" type="image/png" href="favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="swagger-ui-bundle.js"></script>
<script src="swagger-initializer.js"></script>
</body>
</html>
"##;

/// Starts the UI on our document; a file of its own, as the pages' policy allows no inline
/// script.
const INITIALIZER: &str = r##"window.ui = SwaggerUIBundle({
  url: "BASE/api/schema/",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
"##;

/// `(name, content type, bytes)` of every file besides the page.
const FILES: &[(&str, &str, &[u8])] = &[
    (
        "swagger-ui-bundle.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/swagger-ui/swagger-ui-bundle.js"),
    ),
    (
        "swagger-ui.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/swagger-ui/swagger-ui.css"),
    ),
    (
        "favicon-32x32.png",
        "image/png",
        include_bytes!("../../assets/swagger-ui/favicon-32x32.png"),
    ),
];

async fn index() -> HttpResponse {
    HttpResponse::Ok()
        .content_type(ContentType::html())
        .body(INDEX)
}

/// The start-up script, pointed at the document under the base path.
async fn initializer(req: HttpRequest) -> HttpResponse {
    let script = INITIALIZER.replacen("BASE", crate::respond::base_path(&req), 1);
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .body(script)
}

async fn file(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let (_, content_type, bytes) = FILES
        .iter()
        .find(|(n, _, _)| *n == name.as_str())
        .ok_or(ApiError::NotFound)?;
    // A day: the files change only with the binary.
    Ok(HttpResponse::Ok()
        .content_type(*content_type)
        .insert_header(CacheControl(vec![CacheDirective::MaxAge(86_400)]))
        .body(*bytes))
}

/// Registers the page and its files, in a scope of their own: a pattern with a variable
/// runs a regular expression over the path of every request tried against it, which a
/// scope's fixed prefix spares the requests outside it (`crate::routes_below`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        crate::routes_below(UI.trim_end_matches('/'))
            .route("/", web::get().to(index))
            .route("/index.html", web::get().to(index))
            .route("/swagger-initializer.js", web::get().to(initializer))
            .route("/{name}", web::get().to(file)),
    );
}
