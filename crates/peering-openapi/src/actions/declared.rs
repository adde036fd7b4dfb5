//! The declarations of every action: its resource, name, scope, method, body, answers and
//! what its caller needs. One table, read by peering-api's routes (which hold the handlers)
//! and by the OpenAPI document alike.

use peering_domain::resources::{
    AUTONOMOUS_SYSTEM, BGP_GROUP, DIRECT_PEERING_SESSION, EXPORT_TEMPLATE, INTERNET_EXCHANGE,
    INTERNET_EXCHANGE_PEERING_SESSION, PDB_FACILITY, PDB_NETWORK, PDB_NETWORK_IXLAN,
    PDB_SYNCHRONISATION, ROUTER,
};
use peering_domain::ResourceSpec;

use peering_domain::permission::Action as Permission;
use peering_domain::resources::EMAIL;

use super::{Action, Answer, Grant, Needs, Scope};

/// Polling a router logs in to it with its stored credentials and writes the sessions'
/// states: it needs the router's change permission and the sessions'.
const POLL_ROUTER: &[Grant] = &[
    Grant::On(Permission::Change, &ROUTER),
    Grant::On(Permission::Change, &DIRECT_PEERING_SESSION),
    Grant::On(Permission::Change, &INTERNET_EXCHANGE_PEERING_SESSION),
];

const QUERY_NONE: &[(&str, &str)] = &[];
const FORMAT_TEXT: &[(&str, &str)] = &[(
    "format",
    "`text` answers with the configuration itself (as does `Accept: text/plain`) instead of a job.",
)];

const JOB_ACCEPTED: (u16, &str, Answer) = (202, "The job enqueued.", Answer::Job);
const TEMPLATE_FAILED: (u16, &str, Answer) = (
    400,
    "The template failed (a detail saying what went wrong, and where), or the body is invalid.",
    Answer::Schema("ObjectBadRequest"),
);

fn internet_exchange() -> &'static ResourceSpec {
    &INTERNET_EXCHANGE
}

fn autonomous_system() -> &'static ResourceSpec {
    &AUTONOMOUS_SYSTEM
}

fn network_ixlan() -> &'static ResourceSpec {
    &PDB_NETWORK_IXLAN
}

fn facility() -> &'static ResourceSpec {
    &PDB_FACILITY
}

/// Every action, by resource.
pub static ACTIONS: &[Action] = &[
    Action {
        spec: &ROUTER,
        name: "configuration",
        scope: Scope::Object,
        method: "GET",
        summary: "Render the router's configuration: a job, or the text itself with `?format=text`",
        query: FORMAT_TEXT,
        body: None,
        answers: &[
            (
                200,
                "The configuration, with `?format=text` or `Accept: text/plain`.",
                Answer::Text,
            ),
            JOB_ACCEPTED,
            TEMPLATE_FAILED,
        ],
        needs: Needs::Hold(&[Grant::Named("peering.view_router_configuration")]),
    },
    Action {
        spec: &ROUTER,
        name: "poll-bgp-sessions",
        scope: Scope::Object,
        method: "POST",
        summary: "Poll the router's BGP sessions (a job)",
        query: QUERY_NONE,
        body: None,
        answers: &[JOB_ACCEPTED],
        needs: Needs::Hold(POLL_ROUTER),
    },
    Action {
        spec: &ROUTER,
        name: "test-napalm-connection",
        scope: Scope::Object,
        method: "GET",
        summary: "Test the connection to the router (a job)",
        query: QUERY_NONE,
        body: None,
        answers: &[JOB_ACCEPTED],
        needs: Needs::Hold(&[Grant::On(Permission::Change, &ROUTER)]),
    },
    Action {
        spec: &ROUTER,
        name: "configure",
        scope: Scope::Collection,
        method: "POST",
        summary: "Push rendered configurations to routers (a job per router)",
        query: QUERY_NONE,
        body: Some("RoutersToConfigure"),
        answers: &[(202, "A job per router.", Answer::Jobs)],
        needs: Needs::Hold(&[
            Grant::Named("peering.deploy_router_configuration"),
            Grant::On(Permission::Change, &ROUTER),
        ]),
    },
    Action {
        spec: &ROUTER,
        name: "confirm-configuration",
        scope: Scope::Object,
        method: "POST",
        summary: "Keep a configuration committed with `confirm_within`, before the router rolls it back",
        query: QUERY_NONE,
        body: None,
        answers: &[(200, "The router keeps it.", Answer::Schema("Detail"))],
        needs: Needs::Hold(&[
            Grant::Named("peering.deploy_router_configuration"),
            Grant::On(Permission::Change, &ROUTER),
        ]),
    },
    Action {
        spec: &AUTONOMOUS_SYSTEM,
        name: "generate-email",
        scope: Scope::Object,
        method: "POST",
        summary: "Render an e-mail template for the autonomous system",
        query: QUERY_NONE,
        body: Some("EmailToRender"),
        answers: &[
            (200, "The e-mail rendered.", Answer::Schema("RenderedEmail")),
            TEMPLATE_FAILED,
        ],
        needs: Needs::Read(&[&AUTONOMOUS_SYSTEM, &EMAIL]),
    },
    Action {
        spec: &AUTONOMOUS_SYSTEM,
        name: "send-email",
        scope: Scope::Object,
        method: "POST",
        summary: "Send an e-mail template, rendered for the autonomous system, to its contacts or the recipients given (a job; a journal entry records it)",
        query: QUERY_NONE,
        body: Some("EmailToSend"),
        answers: &[
            JOB_ACCEPTED,
            (
                400,
                "The body is invalid: no such template, an address that is not one, no recipients.",
                Answer::Schema("ObjectBadRequest"),
            ),
        ],
        // The reference's e-mail form needs this permission alone.
        needs: Needs::Hold(&[Grant::Named("peering.send_email")]),
    },
    Action {
        spec: &AUTONOMOUS_SYSTEM,
        name: "as-set-prefixes",
        scope: Scope::Object,
        method: "GET",
        summary: "The prefixes stored for the autonomous system's AS-SET",
        query: QUERY_NONE,
        body: None,
        answers: &[(
            200,
            "The stored prefixes by family.",
            Answer::Schema("Prefixes"),
        )],
        needs: Needs::Read(&[&AUTONOMOUS_SYSTEM]),
    },
    Action {
        spec: &AUTONOMOUS_SYSTEM,
        name: "shared-ixps",
        scope: Scope::Object,
        method: "GET",
        summary: "Exchanges shared with the caller's affiliated autonomous system",
        query: QUERY_NONE,
        body: None,
        answers: &[(
            200,
            "The exchanges shared.",
            Answer::ListOf("NestedInternetExchange"),
        )],
        needs: Needs::Read(&[&AUTONOMOUS_SYSTEM, &INTERNET_EXCHANGE]),
    },
    Action {
        spec: &AUTONOMOUS_SYSTEM,
        name: "shared-facilities",
        scope: Scope::Object,
        method: "GET",
        summary: "Facilities where PeeringDB lists both this network and the caller's affiliated one",
        query: QUERY_NONE,
        body: None,
        answers: &[(200, "The facilities shared.", Answer::Objects(facility))],
        needs: Needs::Read(&[&AUTONOMOUS_SYSTEM, &PDB_FACILITY]),
    },
    Action {
        spec: &AUTONOMOUS_SYSTEM,
        name: "sync-with-peeringdb",
        scope: Scope::Object,
        method: "POST",
        summary: "Copy name, IRR AS-SET and max prefixes from PeeringDB, where their sync flags are set",
        query: QUERY_NONE,
        body: None,
        answers: &[
            (
                200,
                "The autonomous system as it now is (a private number is left alone).",
                Answer::Object(autonomous_system),
            ),
            (204, "PeeringDB has no network with this number.", Answer::Empty),
        ],
        needs: Needs::Hold(&[Grant::On(Permission::Change, &AUTONOMOUS_SYSTEM)]),
    },
    Action {
        spec: &AUTONOMOUS_SYSTEM,
        name: "refresh-prefixes",
        scope: Scope::Object,
        method: "POST",
        summary: "Ask the IRR for the autonomous system's prefixes through bgpq4 and store them (a job)",
        query: QUERY_NONE,
        body: None,
        answers: &[JOB_ACCEPTED],
        needs: Needs::Hold(&[Grant::On(Permission::Change, &AUTONOMOUS_SYSTEM)]),
    },
    Action {
        spec: &INTERNET_EXCHANGE,
        name: "link-to-peeringdb",
        scope: Scope::Object,
        method: "POST",
        summary: "Link the exchange's connections, then the exchange, to their PeeringDB records",
        query: QUERY_NONE,
        body: None,
        answers: &[(
            200,
            "The exchange, linked.",
            Answer::Object(internet_exchange),
        )],
        needs: Needs::Hold(&[Grant::On(Permission::Change, &INTERNET_EXCHANGE)]),
    },
    Action {
        spec: &INTERNET_EXCHANGE,
        name: "available-peers",
        scope: Scope::Object,
        method: "GET",
        summary: "PeeringDB's networks on the exchange's LAN with an address no session uses yet",
        query: QUERY_NONE,
        body: None,
        answers: &[(
            200,
            "PeeringDB's records of them, by AS number (not paginated).",
            Answer::Objects(network_ixlan),
        )],
        needs: Needs::Read(&[&INTERNET_EXCHANGE, &PDB_NETWORK_IXLAN]),
    },
    import_sessions(
        "import-sessions",
        "Create the sessions the connected routers run here, and the autonomous systems they need (a job)",
    ),
    import_sessions(
        "import-peeringdb-sessions",
        "Create the sessions of the available peers PeeringDB lists, and the autonomous systems they need (a job)",
    ),
    Action {
        spec: &INTERNET_EXCHANGE,
        name: "prefixes",
        scope: Scope::Object,
        method: "GET",
        summary: "The prefixes PeeringDB lists for the exchange's LAN",
        query: QUERY_NONE,
        body: None,
        answers: &[(
            200,
            "The prefixes by family; a key only for a family that has some.",
            Answer::Schema("ExchangePrefixes"),
        )],
        needs: Needs::Read(&[&INTERNET_EXCHANGE]),
    },
    Action {
        spec: &PDB_SYNCHRONISATION,
        name: "statistics",
        scope: Scope::Under("cache"),
        method: "GET",
        summary: "How many objects of each type the local PeeringDB copy holds (staff only)",
        query: QUERY_NONE,
        body: None,
        answers: &[(
            200,
            "The counts.",
            Answer::Schema("CacheStatistics"),
        )],
        needs: Needs::Staff { write: false },
    },
    Action {
        spec: &PDB_SYNCHRONISATION,
        name: "update-local",
        scope: Scope::Under("cache"),
        method: "POST",
        summary: "Synchronise the local PeeringDB copy, then the peering data from it (a job; staff only)",
        query: QUERY_NONE,
        body: None,
        answers: &[JOB_ACCEPTED],
        needs: Needs::Staff { write: true },
    },
    Action {
        spec: &PDB_SYNCHRONISATION,
        name: "clear-local",
        scope: Scope::Under("cache"),
        method: "POST",
        summary: "Empty the local PeeringDB copy (staff only)",
        query: QUERY_NONE,
        body: None,
        answers: &[(200, "The copy is empty.", Answer::Schema("CacheCleared"))],
        needs: Needs::Staff { write: true },
    },
    Action {
        spec: &PDB_NETWORK,
        name: "render-email",
        scope: Scope::Collection,
        method: "POST",
        summary: "Render an e-mail template for a PeeringDB network from one of our autonomous systems",
        query: QUERY_NONE,
        body: Some("NetworkEmailToRender"),
        answers: &[
            (200, "The e-mail rendered.", Answer::Schema("RenderedEmail")),
            TEMPLATE_FAILED,
        ],
        needs: Needs::Read(&[&PDB_NETWORK, &EMAIL, &AUTONOMOUS_SYSTEM]),
    },
    Action {
        spec: &EXPORT_TEMPLATE,
        name: "render",
        scope: Scope::Object,
        method: "GET",
        summary: "Render the export template over all its objects (a job)",
        query: QUERY_NONE,
        body: None,
        answers: &[JOB_ACCEPTED],
        needs: Needs::Hold(&[Grant::On(Permission::View, &EXPORT_TEMPLATE)]),
    },
    Action {
        spec: &EXPORT_TEMPLATE,
        name: "render-synchronous",
        scope: Scope::Object,
        method: "GET",
        summary: "Render the export template over all its objects",
        query: QUERY_NONE,
        body: None,
        answers: &[
            (
                200,
                "The export rendered.",
                Answer::Schema("RenderedExport"),
            ),
            TEMPLATE_FAILED,
        ],
        needs: Needs::Hold(&[Grant::On(Permission::View, &EXPORT_TEMPLATE)]),
    },
    encrypt_password(&DIRECT_PEERING_SESSION),
    encrypt_password(&INTERNET_EXCHANGE_PEERING_SESSION),
    poll_routers_of(
        &AUTONOMOUS_SYSTEM,
        "Poll the sessions with this autonomous system: a job per router that holds some",
    ),
    poll_routers_of(
        &BGP_GROUP,
        "Poll the group's sessions: a job per router that holds some",
    ),
    poll_routers_of(
        &INTERNET_EXCHANGE,
        "Poll the exchange's sessions: a job per router connected to it",
    ),
    poll_session(&DIRECT_PEERING_SESSION),
    poll_session(&INTERNET_EXCHANGE_PEERING_SESSION),
    super::data_sources::synchronise("synchronise"),
    super::data_sources::synchronise("sync"),
];

/// `encrypt-password`, the same on either kind of session.
const fn encrypt_password(spec: &'static ResourceSpec) -> Action {
    Action {
        spec,
        name: "encrypt-password",
        scope: Scope::Object,
        method: "POST",
        summary: "Encrypt the session's password with its router's platform algorithm",
        query: QUERY_NONE,
        body: None,
        answers: PASSWORD_ENCRYPTED,
        needs: Needs::Hold(&[Grant::OnReached(Permission::Change)]),
    }
}

const PASSWORD_ENCRYPTED: &[(u16, &str, Answer)] = &[(
    200,
    "The password is encrypted.",
    Answer::Schema("PasswordEncrypted"),
)];

/// `poll-bgp-sessions` of an object whose sessions several routers may hold.
/// An import of sessions at an exchange, as a job: the routers' or PeeringDB's.
const fn import_sessions(name: &'static str, summary: &'static str) -> Action {
    Action {
        spec: &INTERNET_EXCHANGE,
        name,
        scope: Scope::Object,
        method: "POST",
        summary,
        query: QUERY_NONE,
        body: None,
        answers: &[JOB_ACCEPTED],
        needs: Needs::Hold(ADD_SESSIONS),
    }
}

/// What an import of sessions needs: adding exchange sessions.
const ADD_SESSIONS: &[Grant] = &[Grant::On(
    Permission::Add,
    &INTERNET_EXCHANGE_PEERING_SESSION,
)];

const fn poll_routers_of(spec: &'static ResourceSpec, summary: &'static str) -> Action {
    Action {
        spec,
        name: "poll-bgp-sessions",
        scope: Scope::Object,
        method: "POST",
        summary,
        query: QUERY_NONE,
        body: None,
        answers: JOBS_PER_ROUTER,
        needs: Needs::Hold(POLL_ROUTER),
    }
}

const JOBS_PER_ROUTER: &[(u16, &str, Answer)] =
    &[(202, "A job per router (maybe none).", Answer::Jobs)];

/// `poll`, the same on either kind of session.
const fn poll_session(spec: &'static ResourceSpec) -> Action {
    Action {
        spec,
        name: "poll",
        scope: Scope::Object,
        method: "POST",
        summary: "Poll the session's router now and record what it reports",
        query: QUERY_NONE,
        body: None,
        answers: POLLED,
        needs: Needs::Hold(POLL_SESSION),
    }
}

/// Polling a session logs in to its router and writes the session.
const POLL_SESSION: &[Grant] = &[
    Grant::OnReached(Permission::Change),
    Grant::On(Permission::Change, &ROUTER),
];

const POLLED: &[(u16, &str, Answer)] = &[(200, "What the poll updated.", Answer::Schema("Detail"))];
