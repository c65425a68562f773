//! The two scopes the platform knows, as a tiny bit set.

/// A subset of `scim marketplace`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scopes {
    pub scim: bool,
    pub marketplace: bool,
}

impl Scopes {
    pub const SCIM: Scopes = Scopes {
        scim: true,
        marketplace: false,
    };
    pub const ALL: Scopes = Scopes {
        scim: true,
        marketplace: true,
    };

    /// A space-separated scope parameter. Omitted or blank means `scim` (docs/platform.md); an
    /// unknown scope word is an error naming it.
    pub fn parse(param: Option<&str>) -> Result<Scopes, String> {
        let Some(param) = param.filter(|p| !p.trim().is_empty()) else {
            return Ok(Scopes::SCIM);
        };
        let mut s = Scopes::default();
        for word in param.split(' ').filter(|w| !w.is_empty()) {
            match word {
                "scim" => s.scim = true,
                "marketplace" => s.marketplace = true,
                other => return Err(format!("Unknown scope `{other}`.")),
            }
        }
        Ok(s)
    }

    pub fn is_subset_of(self, other: Scopes) -> bool {
        (!self.scim || other.scim) && (!self.marketplace || other.marketplace)
    }

    /// Words for the consent page: what each scope lets the application do.
    pub fn describe(self) -> Vec<(&'static str, &'static str)> {
        let mut v = Vec::new();
        if self.scim {
            v.push((
                "scim",
                "Provision users: list, create and update users, their roles and teams, and read organization data.",
            ));
        }
        if self.marketplace {
            v.push(("marketplace", "Browse the marketplace product catalog."));
        }
        v
    }
}

impl std::fmt::Display for Scopes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.scim, self.marketplace) {
            (true, true) => f.write_str("scim marketplace"),
            (true, false) => f.write_str("scim"),
            (false, true) => f.write_str("marketplace"),
            (false, false) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        assert_eq!(Scopes::parse(None), Ok(Scopes::SCIM));
        assert_eq!(Scopes::parse(Some("  ")), Ok(Scopes::SCIM));
        assert_eq!(Scopes::parse(Some("marketplace scim")), Ok(Scopes::ALL));
        assert_eq!(Scopes::ALL.to_string(), "scim marketplace");
        assert!(Scopes::parse(Some("scim admin")).is_err());
        assert!(Scopes::SCIM.is_subset_of(Scopes::ALL));
        assert!(!Scopes::ALL.is_subset_of(Scopes::SCIM));
    }
}
