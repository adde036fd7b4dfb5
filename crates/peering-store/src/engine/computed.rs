//! The SQL of the values computed when an object is read (`Field::computed`): each is an
//! expression over the object's row, aliased `o`, that both databases evaluate alike. They
//! go in the select list and, for filters, in the WHERE clause, so a filter and the value
//! shown can never disagree.

use peering_domain::spec::Computed;
use peering_domain::ResourceSpec;

/// PeeringDB lists the session's address for the session's autonomous system. Addresses
/// compare by their sort keys, which the copy and the sessions write alike (and index).
const SESSION_IN_PEERINGDB: &str = "EXISTS (SELECT 1 FROM peeringdb_network_ixlans pn \
     JOIN autonomous_systems pa ON pa.asn = pn.asn \
     WHERE pa.id = o.autonomous_system_id \
     AND (pn.ipaddr4_key = o.ip_address_key OR pn.ipaddr6_key = o.ip_address_key))";

/// See `Computed::SessionAbandoned`. The session's own state is checked first, so that
/// the subquery runs only for idle and active sessions (both databases stop an `AND` at
/// its first false term); never NULL.
const SESSION_ABANDONED: &str = "(COALESCE(o.bgp_state, '') IN ('idle', 'active') \
     AND EXISTS (SELECT 1 FROM connections ac \
     JOIN autonomous_systems aa ON aa.id = o.autonomous_system_id \
     LEFT JOIN routers ar ON ar.id = ac.router_id \
     WHERE ac.id = o.ixp_connection_id \
     AND ac.extdb_netixlan IS NOT NULL \
     AND (ar.id IS NULL OR ar.poll_bgp_sessions_state = TRUE) \
     AND EXISTS (SELECT 1 FROM peeringdb_networks an WHERE an.asn = aa.asn) \
     AND NOT EXISTS (SELECT 1 FROM peeringdb_network_ixlans ax WHERE ax.asn = aa.asn \
     AND (ax.ipaddr4_key = o.ip_address_key OR ax.ipaddr6_key = o.ip_address_key))))";

/// The data of the config contexts assigned to an object of content type `{}`, in order,
/// put together as a JSON array (each is stored as JSON text); NULL when none is. Both
/// databases have `string_agg` with its own `ORDER BY`.
const ASSIGNED_CONTEXTS: &str = "(SELECT '[' || string_agg(cc.data, ',' \
     ORDER BY ca.weight, cc.name, ca.id) || ']' \
     FROM config_context_assignments ca JOIN config_contexts cc ON cc.id = ca.config_context_id \
     WHERE ca.content_type = '{}' AND ca.object_id = o.id)";

/// The SQL expression of a computed value of `spec`'s objects (built once per resource,
/// and kept as long as the process).
pub(crate) fn expression(spec: &ResourceSpec, what: Computed) -> &'static str {
    match what {
        Computed::SessionInPeeringDb => SESSION_IN_PEERINGDB,
        Computed::SessionAbandoned => SESSION_ABANDONED,
        Computed::AssignedContexts => Box::leak(
            ASSIGNED_CONTEXTS
                .replace("{}", &spec.content_type())
                .into_boxed_str(),
        ),
    }
}
