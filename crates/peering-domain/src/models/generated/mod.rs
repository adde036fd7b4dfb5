//! Written by `cargo xtask codegen` from the declarations in `resources/`; do not edit.

mod autonomous_system;
pub use autonomous_system::*;
mod bgp_group;
pub use bgp_group::*;
mod community;
pub use community::*;
mod internet_exchange;
pub use internet_exchange::*;
mod connection;
pub use connection::*;
mod bfd;
pub use bfd::*;
mod internet_exchange_peering_session;
pub use internet_exchange_peering_session::*;
mod direct_peering_session;
pub use direct_peering_session::*;
mod router;
pub use router::*;
mod routing_policy;
pub use routing_policy::*;
mod relationship;
pub use relationship::*;
mod platform;
pub use platform::*;
mod configuration;
pub use configuration::*;
mod contact_role;
pub use contact_role::*;
mod contact;
pub use contact::*;
mod email;
pub use email::*;
mod contact_assignment;
pub use contact_assignment::*;
mod config_context;
pub use config_context::*;
mod config_context_assignment;
pub use config_context_assignment::*;
mod export_template;
pub use export_template::*;
mod webhook;
pub use webhook::*;
mod ix_api;
pub use ix_api::*;
mod tag;
pub use tag::*;
mod object_change;
pub use object_change::*;
mod journal_entry;
pub use journal_entry::*;
mod job;
pub use job::*;
mod data_source;
pub use data_source::*;
mod data_file;
pub use data_file::*;
mod user;
pub use user::*;
mod group;
pub use group::*;
mod pdb_organization;
pub use pdb_organization::*;
mod pdb_campus;
pub use pdb_campus::*;
mod pdb_facility;
pub use pdb_facility::*;
mod pdb_internet_exchange;
pub use pdb_internet_exchange::*;
mod pdb_internet_exchange_facility;
pub use pdb_internet_exchange_facility::*;
mod pdb_i_x_lan;
pub use pdb_i_x_lan::*;
mod pdb_i_x_lan_prefix;
pub use pdb_i_x_lan_prefix::*;
mod pdb_network;
pub use pdb_network::*;
mod pdb_network_contact;
pub use pdb_network_contact::*;
mod pdb_network_facility;
pub use pdb_network_facility::*;
mod pdb_network_i_x_lan;
pub use pdb_network_i_x_lan::*;
mod pdb_synchronisation;
pub use pdb_synchronisation::*;
mod pdb_hidden_peer;
pub use pdb_hidden_peer::*;

/// Calls `$callback!` with the path of every model type, in `resources::ALL`'s order.
#[macro_export]
macro_rules! for_each_model {
    ($callback:ident) => {
        $callback!(
            $crate::models::AutonomousSystem,
            $crate::models::BgpGroup,
            $crate::models::Community,
            $crate::models::InternetExchange,
            $crate::models::Connection,
            $crate::models::Bfd,
            $crate::models::InternetExchangePeeringSession,
            $crate::models::DirectPeeringSession,
            $crate::models::Router,
            $crate::models::RoutingPolicy,
            $crate::models::Relationship,
            $crate::models::Platform,
            $crate::models::Configuration,
            $crate::models::ContactRole,
            $crate::models::Contact,
            $crate::models::Email,
            $crate::models::ContactAssignment,
            $crate::models::ConfigContext,
            $crate::models::ConfigContextAssignment,
            $crate::models::ExportTemplate,
            $crate::models::Webhook,
            $crate::models::IxApi,
            $crate::models::Tag,
            $crate::models::ObjectChange,
            $crate::models::JournalEntry,
            $crate::models::Job,
            $crate::models::DataSource,
            $crate::models::DataFile,
            $crate::models::User,
            $crate::models::Group,
            $crate::models::PdbOrganization,
            $crate::models::PdbCampus,
            $crate::models::PdbFacility,
            $crate::models::PdbInternetExchange,
            $crate::models::PdbInternetExchangeFacility,
            $crate::models::PdbIXLan,
            $crate::models::PdbIXLanPrefix,
            $crate::models::PdbNetwork,
            $crate::models::PdbNetworkContact,
            $crate::models::PdbNetworkFacility,
            $crate::models::PdbNetworkIXLan,
            $crate::models::PdbSynchronisation,
            $crate::models::PdbHiddenPeer
        );
    };
}
