//! Choice sets: the allowed values of choice fields and their labels.

/// A fixed set of `(value, label)` pairs, in the reference system's order.
#[derive(Debug)]
pub struct ChoiceSet {
    /// The set's name as declared (`SESSION_STATUS`), from which typed code names its enum.
    pub name: &'static str,
    pub choices: &'static [(&'static str, &'static str)],
    pub values: &'static [&'static str],
}

impl ChoiceSet {
    pub fn label(&self, value: &str) -> Option<&'static str> {
        self.choices
            .iter()
            .find(|(v, _)| *v == value)
            .map(|(_, l)| *l)
    }

    pub fn contains(&self, value: &str) -> bool {
        self.values.contains(&value)
    }
}

macro_rules! choice_set {
    ($name:ident, [$(($v:literal, $l:literal)),+ $(,)?]) => {
        pub static $name: ChoiceSet = ChoiceSet {
            name: stringify!($name),
            choices: &[$(($v, $l)),+],
            values: &[$($v),+],
        };
    };
}

choice_set!(
    COMMUNITY_TYPE,
    [("egress", "Egress"), ("ingress", "Ingress")]
);
choice_set!(
    ROUTING_POLICY_TYPE,
    [
        ("export-policy", "Export"),
        ("import-policy", "Import"),
        ("import-export-policy", "Import+Export"),
    ]
);
choice_set!(IP_FAMILY, [("0", "All"), ("4", "IPv4"), ("6", "IPv6")]);
choice_set!(
    OBJECT_CHANGE_ACTION,
    [
        ("create", "Created"),
        ("update", "Updated"),
        ("delete", "Deleted")
    ]
);
choice_set!(
    JOURNAL_ENTRY_KIND,
    [
        ("info", "Info"),
        ("success", "Success"),
        ("warning", "Warning"),
        ("danger", "Danger")
    ]
);
choice_set!(
    JOB_STATUS,
    [
        ("pending", "Pending"),
        ("running", "Running"),
        ("completed", "Completed"),
        ("errored", "Errored"),
        ("failed", "Failed")
    ]
);
choice_set!(
    COLOUR,
    [
        ("aa1409", "Dark Red"),
        ("f44336", "Red"),
        ("e91e63", "Pink"),
        ("ffe4e1", "Rose"),
        ("ff66ff", "Fuchsia"),
        ("9c27b0", "Purple"),
        ("673ab7", "Dark Purple"),
        ("3f51b5", "Indigo"),
        ("2196f3", "Blue"),
        ("03a9f4", "Light Blue"),
        ("00bcd4", "Cyan"),
        ("009688", "Teal"),
        ("00ffff", "Aqua"),
        ("2f6a31", "Dark Green"),
        ("4caf50", "Green"),
        ("8bc34a", "Light Green"),
        ("cddc39", "Lime"),
        ("ffeb3b", "Yellow"),
        ("ffc107", "Amber"),
        ("ff9800", "Orange"),
        ("ff5722", "Dark Orange"),
        ("795548", "Brown"),
        ("c0c0c0", "Light Grey"),
        ("9e9e9e", "Grey"),
        ("607d8b", "Dark Grey"),
        ("111111", "Black"),
        ("ffffff", "White"),
    ]
);

choice_set!(
    BGP_GROUP_STATUS,
    [
        ("enabled", "Enabled"),
        ("pre-maintenance", "Pre-maintenance"),
        ("maintenance", "Maintenance"),
        ("post-maintenance", "Post-maintenance"),
        ("disabled", "Disabled"),
    ]
);
choice_set!(
    DEVICE_STATUS,
    [
        ("enabled", "Enabled"),
        ("pre-maintenance", "Pre-maintenance"),
        ("maintenance", "Maintenance"),
        ("post-maintenance", "Post-maintenance"),
        ("disabled", "Disabled"),
    ]
);
choice_set!(
    PASSWORD_ALGORITHM,
    [
        ("cisco-type7", "Cisco Type 7"),
        ("juniper-type9", "Juniper Type 9")
    ]
);
choice_set!(
    CONNECTION_STATUS,
    [
        ("enabled", "Enabled"),
        ("pre-maintenance", "Pre-maintenance"),
        ("maintenance", "Maintenance"),
        ("post-maintenance", "Post-maintenance"),
        ("disabled", "Disabled"),
    ]
);
choice_set!(
    BGP_SESSION_STATUS,
    [
        ("requested", "Requested"),
        ("provisioning", "Provisioning"),
        ("enabled", "Enabled"),
        ("pre-maintenance", "Pre-maintenance"),
        ("maintenance", "Maintenance"),
        ("post-maintenance", "Post-maintenance"),
        ("disabled", "Disabled"),
        ("decommissioning", "Decommissioning"),
        ("decommissioned", "Decommissioned"),
    ]
);
choice_set!(
    BGP_STATE,
    [
        ("idle", "Idle"),
        ("connect", "Connect"),
        ("active", "Active"),
        ("opensent", "OpenSent"),
        ("openconfirm", "OpenConfirm"),
        ("established", "Established"),
    ]
);
choice_set!(
    HTTP_METHOD,
    [
        ("GET", "GET"),
        ("POST", "POST"),
        ("PUT", "PUT"),
        ("PATCH", "PATCH"),
        ("DELETE", "DELETE"),
    ]
);
choice_set!(
    PEERINGDB_VISIBILITY,
    [
        ("Private", "Private"),
        ("Users", "Users"),
        ("Public", "Public")
    ]
);
choice_set!(DATA_SOURCE_TYPE, [("local", "Local"), ("git", "Git")]);
choice_set!(
    DATA_SOURCE_STATUS,
    [
        ("new", "New"),
        ("queued", "Queued"),
        ("synchronising", "Synchronising"),
        ("pushing", "Pushing"),
        ("completed", "Completed"),
        ("failed", "Failed")
    ]
);
