//! Readers for the platform's documented quirks (docs/platform.md, "Data conventions"): ids that come
//! as a JSON number or as a numeric string, `expires_in` likewise, and decimal amounts that come
//! as a number or as text. Writers send a JSON number, as the seed's types say.

use serde::de::{self, Deserializer, Visitor};
use serde::Serializer;
use std::fmt;

/// `#[serde(with = "int_or_string")]` for integer ids and counters.
pub mod int_or_string {
    use super::*;

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(*v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        d.deserialize_any(IntVisitor)
    }

    struct IntVisitor;

    impl Visitor<'_> for IntVisitor {
        type Value = u64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a non-negative integer or a numeric string")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom("a negative number where an id was expected"))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
            if v.fract() == 0.0 && (0.0..9.0e15).contains(&v) {
                Ok(v as u64)
            } else {
                Err(E::custom(
                    "a fractional number where an integer was expected",
                ))
            }
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<u64, E> {
            v.trim()
                .parse()
                .map_err(|_| E::custom(format!("{v:?} is not a numeric string")))
        }
    }
}

/// Like [`int_or_string`] for signed values such as Unix timestamps.
pub mod signed_int_or_string {
    use super::*;

    pub fn serialize<S: Serializer>(v: &i64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(*v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
        d.deserialize_any(SignedVisitor)
    }

    struct SignedVisitor;

    impl Visitor<'_> for SignedVisitor {
        type Value = i64;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an integer or a numeric string")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<i64, E> {
            i64::try_from(v).map_err(|_| E::custom("integer too large"))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<i64, E> {
            Ok(v)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<i64, E> {
            if v.fract() == 0.0 && v.abs() < 9.0e15 {
                Ok(v as i64)
            } else {
                Err(E::custom(
                    "a fractional number where an integer was expected",
                ))
            }
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<i64, E> {
            v.trim()
                .parse()
                .map_err(|_| E::custom(format!("{v:?} is not a numeric string")))
        }
    }
}

/// SCIM ids are JSON strings; a reader also takes a number and keeps its digits as text.
pub mod string_or_int {
    use super::*;

    pub fn serialize<S: Serializer>(v: &str, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        d.deserialize_any(TextVisitor)
    }

    pub(crate) struct TextVisitor;

    impl Visitor<'_> for TextVisitor {
        type Value = String;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string or a number")
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
    }
}

/// Decimal amounts documented as numbers (eGift price bounds, team balance): read a number or a
/// string into decimal text, write a JSON number. Never an `f64` in between on the way in for
/// strings; a JSON number's own digits are kept.
pub mod decimal_number {
    use super::*;
    use serde::Serialize;

    pub fn serialize<S: Serializer>(v: &str, s: S) -> Result<S::Ok, S::Error> {
        let n: serde_json::Number = v
            .parse()
            .map_err(|_| serde::ser::Error::custom(format!("{v:?} is not a decimal number")))?;
        n.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
        d.deserialize_any(string_or_int::TextVisitor)
    }

    /// The same for `Option<String>`, where JSON `null` means absent.
    pub mod option {
        use super::*;
        use serde::Deserialize;

        pub fn serialize<S: Serializer>(v: &Option<String>, s: S) -> Result<S::Ok, S::Error> {
            match v {
                Some(text) => super::serialize(text, s),
                None => s.serialize_none(),
            }
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
            #[derive(Deserialize)]
            struct Wrap(#[serde(deserialize_with = "super::deserialize")] String);
            Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
        }
    }
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Ids {
        #[serde(with = "super::int_or_string")]
        id: u64,
        #[serde(with = "super::string_or_int")]
        scim: String,
        #[serde(with = "super::decimal_number::option", default)]
        price: Option<String>,
    }

    #[test]
    fn ids_read_numbers_and_numeric_strings() {
        let a: Ids = serde_json::from_str(r#"{"id": 7, "scim": 12, "price": 25.5}"#).unwrap();
        let b: Ids = serde_json::from_str(r#"{"id": "7", "scim": "12", "price": "25.5"}"#).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.price.as_deref(), Some("25.5"));
    }

    #[test]
    fn ids_refuse_non_numeric_text() {
        assert!(serde_json::from_str::<Ids>(r#"{"id": "seven", "scim": "1"}"#).is_err());
        assert!(serde_json::from_str::<Ids>(r#"{"id": -1, "scim": "1"}"#).is_err());
    }

    #[test]
    fn writers_send_numbers() {
        let v = Ids {
            id: 3,
            scim: "9".into(),
            price: Some("10.00".into()),
        };
        let json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["id"], 3);
        assert_eq!(json["scim"], "9");
        assert!(json["price"].is_number());
        let null_price: Ids =
            serde_json::from_str(r#"{"id": 1, "scim": "1", "price": null}"#).unwrap();
        assert_eq!(null_price.price, None);
    }
}
