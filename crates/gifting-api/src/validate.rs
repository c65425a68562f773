//! Input rules the console checks before sending and the sandbox enforces on arrival.

use crate::enums::Role;

/// Why an email address is refused, in words for the field's error message.
pub fn email(address: &str) -> Result<(), String> {
    let address = address.trim();
    if address.is_empty() {
        return Err("Enter an email address.".into());
    }
    if address.len() > 254 {
        return Err("An email address has at most 254 characters.".into());
    }
    let Some((local, domain)) = address.rsplit_once('@') else {
        return Err("An email address needs an @, like name@example.com.".into());
    };
    if local.is_empty() || local.len() > 64 {
        return Err("The part before the @ must have 1 to 64 characters.".into());
    }
    let local_ok = local.split('.').all(|atom| {
        !atom.is_empty()
            && atom
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~-".contains(c))
    });
    if !local_ok {
        return Err("The part before the @ has a character an address cannot have.".into());
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let labels_ok = labels.len() >= 2
        && labels.iter().all(|label| {
            (1..=63).contains(&label.len())
                && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !label.starts_with('-')
                && !label.ends_with('-')
        });
    let tld_ok = labels
        .last()
        .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    if !labels_ok || !tld_ok {
        return Err("The part after the @ must be a domain, like example.com.".into());
    }
    Ok(())
}

/// A role a client may set: one of sender, manager, admin.
pub fn role(text: &str) -> Result<Role, String> {
    Role::parse_known(text)
        .ok_or_else(|| format!("{text:?} is not a role: use sender, manager or admin."))
}

/// A required text field: not blank, at most `max` characters.
pub fn required_text(label: &str, value: &str, max: usize) -> Result<(), String> {
    let value = value.trim();
    if value.is_empty() {
        Err(format!("Enter a {}.", label.to_lowercase()))
    } else if value.chars().count() > max {
        Err(format!("{label} has at most {max} characters."))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_deliverable_looking_addresses() {
        for ok in [
            "admin@example.com",
            "first.last+tag@sub.example.org",
            "o'brien@example.co.uk",
            "x@a-b.io",
        ] {
            assert!(email(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn refuses_what_a_mail_server_would() {
        for bad in [
            "",
            "plain",
            "@example.com",
            "a@",
            "a@example",
            "a..b@example.com",
            ".a@example.com",
            "a b@example.com",
            "a@-example.com",
            "a@example.c0m",
            "a@exa_mple.com",
            "<script>@example.com",
        ] {
            assert!(email(bad).is_err(), "{bad}");
        }
        assert!(email(&format!("{}@example.com", "a".repeat(65))).is_err());
    }

    #[test]
    fn roles_and_required_text() {
        assert_eq!(role("manager"), Ok(Role::Manager));
        assert!(role("Manager").is_err());
        assert!(role("owner").is_err());
        assert!(required_text("First name", "  ", 100).is_err());
        assert!(required_text("First name", "Ada", 100).is_ok());
        assert!(required_text("First name", &"x".repeat(101), 100).is_err());
    }
}
