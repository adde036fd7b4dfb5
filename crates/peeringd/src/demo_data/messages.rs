//! The demo's e-mail templates and webhooks. The e-mails use only the variables the
//! reference gives them: an autonomous system's (`generate-email/`, `send-email/`) see
//! `autonomous_system` and `affiliated_autonomous_systems`; a PeeringDB network's
//! (`peeringdb/networks/render-email/`) sees `autonomous_systems`, ours then the network.
//! The webhooks are examples, disabled, sending to example.net (RFC 2606) until someone
//! points them at a receiver and enables them.

use peering_domain::resources::{EMAIL, WEBHOOK};
use serde_json::{json, Value as Json};

use super::writer::Writer;

/// Who an e-mail template is written for: the context it expects.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Audience {
    /// One of our autonomous systems' peers (`autonomous_system`).
    AutonomousSystem,
    /// A PeeringDB network we have no autonomous system for (`autonomous_systems`).
    Network,
}

/// (name, audience, subject, template); rendered with `trim_blocks` and `lstrip_blocks`.
pub const EMAILS: &[(&str, Audience, &str, &str)] = &[
    (
        "Peering request",
        Audience::AutonomousSystem,
        "Peering between AS{{ affiliated_autonomous_systems[0].asn }} and AS{{ autonomous_system.asn }}",
        PEERING_REQUEST,
    ),
    (
        "Maintenance notice",
        Audience::AutonomousSystem,
        "Planned maintenance: AS{{ affiliated_autonomous_systems[0].asn }} sessions with AS{{ autonomous_system.asn }}",
        MAINTENANCE,
    ),
    (
        "Depeering notice",
        Audience::AutonomousSystem,
        "Ending our peering with AS{{ autonomous_system.asn }}",
        DEPEERING,
    ),
    (
        "New network",
        Audience::Network,
        "Peering AS{{ autonomous_systems[1].asn }} <> AS{{ autonomous_systems[0].asn }}",
        NEW_NETWORK,
    ),
];

/// Where PeeringDB lists both networks, and the addresses of theirs we have no session
/// with yet (the reference's `shared_ixps` and `missing_sessions`).
const PEERING_REQUEST: &str = "\
{% set us = affiliated_autonomous_systems[0] %}
Dear {{ autonomous_system.name }} peering team,

We are {{ us.name }}, AS{{ us.asn }}, and would like to peer with AS{{ autonomous_system.asn }}.
{% set shared = autonomous_system|shared_ixps(us) %}
{% if shared %}

PeeringDB lists both our networks at:
{% for ixp in shared %}
- {{ ixp.name }}: our addresses {{ ixp|local_ips|join(', ') }}
{% for record in autonomous_system|missing_sessions(us, ixp) %}
  no session yet with your {{ [record.ipaddr4, record.ipaddr6]|select|join(' and ') }}
{% endfor %}
{% endfor %}
{% else %}

We found no exchange where PeeringDB lists both our networks: where could we meet?
{% endif %}

Our IRR AS-SET is {{ us.irr_as_set }}; we announce up to {{ us.ipv4_max_prefixes }} IPv4 and {{ us.ipv6_max_prefixes }} IPv6 prefixes.

Kind regards,
{{ us.name }} peering team
";

/// The exchanges where the peer has sessions with us (`ixps`).
const MAINTENANCE: &str = "\
{% set us = affiliated_autonomous_systems[0] %}
Hello {{ autonomous_system.name }},

We will work on our routers next week. Our sessions with AS{{ autonomous_system.asn }} will go down briefly at:
{% for ixp in autonomous_system|ixps(us) %}
- {{ ixp.name }}
{% else %}
- none of our exchanges (we have no session with you at one)
{% endfor %}

Kind regards,
{{ us.name }} NOC
";

const DEPEERING: &str = "\
{% set us = affiliated_autonomous_systems[0] %}
Hello {{ autonomous_system.name }},

AS{{ us.asn }} will shut its sessions with AS{{ autonomous_system.asn }} down in 30 days{% if autonomous_system.irr_as_set %} and stop accepting {{ autonomous_system.irr_as_set }}{% endif %}.
{% set ixps = autonomous_system|ixps(us) %}
{% if ixps %}
This concerns our sessions at {{ ixps|map(attribute='name')|join(', ') }}.
{% endif %}

Kind regards,
{{ us.name }} peering team
";

/// For a network PeeringDB lists that we have no autonomous system for: its PeeringDB
/// record's fields (`autonomous_systems[1]`) and ours (`[0]`); the exchanges where
/// PeeringDB lists both (`shared_ixps`, which takes the record as the reference's does)
/// and its addresses there (`missing_sessions`).
const NEW_NETWORK: &str = "\
{% set us = autonomous_systems[0] %}
{% set network = autonomous_systems[1] %}
Dear {{ network.name }} peering team,

We are {{ us.name }}, AS{{ us.asn }}.
{% set shared = network|shared_ixps(us) %}
{% if shared %}
PeeringDB shows AS{{ network.asn }} at exchanges where we are:
{% for ixp in shared %}
- {{ ixp.name }}: our addresses {{ ixp|local_ips|join(', ') }}
{% for record in us|missing_sessions(network, ixp) %}
  and yours {{ [record.ipaddr4, record.ipaddr6]|select|join(' and ') }}
{% endfor %}
{% endfor %}
{% else %}
PeeringDB shows AS{{ network.asn }} at no exchange where we are yet: where could we meet?
{% endif %}
{% if network.policy_general %}
Your peering policy is {{ network.policy_general }}, and we would like to peer with you.
{% endif %}
We would configure your sessions with a limit of {{ network.info_prefixes4 }} IPv4 and {{ network.info_prefixes6 }} IPv6 prefixes{% if network.irr_as_set %}, filtered with {{ network.irr_as_set }}{% endif %}.

Best,
{{ us.name }} peering team
";

pub fn emails(w: &mut Writer) -> Result<Vec<i64>, String> {
    w.create(
        &EMAIL,
        EMAILS.iter().map(|(name, audience, subject, template)| {
            let comments = match audience {
                Audience::AutonomousSystem => "For an autonomous system: generate-email/",
                Audience::Network => "For a PeeringDB network: peeringdb/networks/render-email/",
            };
            json!({"name": name, "subject": subject, "template": template,
                   "jinja2_trim": true, "jinja2_lstrip": true, "comments": comments})
        }),
    )
}

/// Where the example webhooks would send (RFC 2606's example.net).
pub const WEBHOOK_URL: &str = "https://hooks.example.net/peeringd";

/// Two example webhooks, disabled: a chat message when a session changes, and a ticket when
/// a peer's autonomous system appears (not ours: `conditions`), signed with a secret.
pub fn webhooks(w: &mut Writer) -> Result<Vec<i64>, String> {
    let sessions = json!({
        "name": "Chat: session changes",
        "content_types": ["peering.internetexchangepeeringsession", "peering.directpeeringsession"],
        "type_create": true, "type_update": true, "type_delete": true,
        "payload_url": format!("{WEBHOOK_URL}/chat"), "enabled": false,
        "body_template": "{\"text\": \"{{ username }}: {{ event }} {{ model }} {{ data.display }}\"}",
    });
    let systems: Json = json!({
        "name": "Tickets: new peers",
        "content_types": ["peering.autonomoussystem"], "type_create": true,
        "payload_url": format!("{WEBHOOK_URL}/tickets?asn={{{{ data.asn }}}}"),
        "enabled": false, "secret": "demo-webhook-secret",
        "additional_headers": "X-Ticket-Queue: peering",
        "conditions": {"and": [{"attr": "affiliated", "value": false}]},
    });
    w.create(&WEBHOOK, [sessions, systems])
}
