//! Readers for the platform's documented quirks (docs/platform.md, "Data conventions"): ids that come
//! as a JSON number or as a numeric string, `expires_in` likewise, and decimal amounts that come
//! as a number or as text. Writers send a JSON number, as the seed's types say.

use serde::de::{self, Deserializer, Visitor};
use serde::{Serialize, Serializer};
use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

/// An integer type the readers take as a JSON number, a whole float below 9e15 in size, or
/// numeric text.
pub trait QuirkInt: Sized + Serialize + FromStr {
    /// What a reader expects, for the error message.
    const EXPECTING: &'static str;
    fn from_u64(v: u64) -> Result<Self, &'static str>;
    fn from_i64(v: i64) -> Result<Self, &'static str>;
    /// A whole number as this type, if it is in range.
    fn from_whole(v: f64) -> Option<Self>;
}

impl QuirkInt for u64 {
    const EXPECTING: &'static str = "a non-negative integer or a numeric string";
    fn from_u64(v: u64) -> Result<Self, &'static str> {
        Ok(v)
    }
    fn from_i64(v: i64) -> Result<Self, &'static str> {
        u64::try_from(v).map_err(|_| "a negative number where an id was expected")
    }
    fn from_whole(v: f64) -> Option<Self> {
        (0.0..9.0e15).contains(&v).then_some(v as u64)
    }
}

impl QuirkInt for i64 {
    const EXPECTING: &'static str = "an integer or a numeric string";
    fn from_u64(v: u64) -> Result<Self, &'static str> {
        i64::try_from(v).map_err(|_| "integer too large")
    }
    fn from_i64(v: i64) -> Result<Self, &'static str> {
        Ok(v)
    }
    fn from_whole(v: f64) -> Option<Self> {
        (v.abs() < 9.0e15).then_some(v as i64)
    }
}

/// `#[serde(with = "int_or_string")]` for integer ids and counters (`u64`), and for signed
/// values such as Unix timestamps (`i64`).
pub mod int_or_string {
    use super::*;

    pub fn serialize<T: QuirkInt, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        v.serialize(s)
    }

    pub fn deserialize<'de, T: QuirkInt, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        d.deserialize_any(IntVisitor(PhantomData))
    }

    struct IntVisitor<T>(PhantomData<T>);

    impl<T: QuirkInt> Visitor<'_> for IntVisitor<T> {
        type Value = T;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(T::EXPECTING)
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
            T::from_u64(v).map_err(E::custom)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
            T::from_i64(v).map_err(E::custom)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
            let whole = if v.fract() == 0.0 {
                T::from_whole(v)
            } else {
                None
            };
            whole.ok_or_else(|| E::custom("a fractional number where an integer was expected"))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            v.trim()
                .parse()
                .map_err(|_| E::custom(format!("{v:?} is not a numeric string")))
        }
    }
}

/// The name the timestamps of the contract use: the same reader and writer as
/// [`int_or_string`], at `i64`.
pub use int_or_string as signed_int_or_string;

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
            Ok(float_text(v))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
    }
}

/// A JSON number's text as serde_json writes it: the shortest digits that read back the same
/// number ("25.5", "100.0"). Not `f64`'s own `Display`, whose formatting code would come into
/// the console's wasm beside serde_json's (about 4 KB compressed, on the way to home's answer).
fn float_text(v: f64) -> String {
    serde_json::Number::from_f64(v)
        .map(|n| n.to_string())
        .unwrap_or_default()
}

/// Decimal amounts documented as numbers (eGift price bounds, team balance): read a number or a
/// string into decimal text, write a JSON number. Never an `f64` in between on the way in for
/// strings; a JSON number's own digits are kept.
pub mod decimal_number {
    use super::*;

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
    fn a_json_number_keeps_digits_that_read_back_the_same() {
        let whole: Ids = serde_json::from_str(r#"{"id": 1, "scim": 1.0, "price": 100.0}"#).unwrap();
        assert_eq!(whole.price.as_deref(), Some("100.0"));
        assert_eq!(whole.scim, "1.0");
        let cents: Ids = serde_json::from_str(r#"{"id": 1, "scim": "1", "price": 0.1}"#).unwrap();
        assert_eq!(cents.price.as_deref(), Some("0.1"));
        let int: Ids = serde_json::from_str(r#"{"id": 1, "scim": "1", "price": 100}"#).unwrap();
        assert_eq!(int.price.as_deref(), Some("100"));
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

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Stamp(#[serde(with = "super::signed_int_or_string")] i64);

    #[derive(Serialize, Deserialize, Debug, PartialEq)]
    struct Id(#[serde(with = "super::int_or_string")] u64);

    /// Each reader's refusals, by message: the unsigned and the signed one share one visitor.
    #[test]
    fn unsigned_and_signed_readers_refuse_what_their_type_cannot_hold() {
        let id_error = |json: &str| serde_json::from_str::<Id>(json).unwrap_err().to_string();
        let stamp_error = |json: &str| serde_json::from_str::<Stamp>(json).unwrap_err().to_string();
        assert!(id_error("-1").contains("a negative number where an id was expected"));
        assert!(id_error("1.5").contains("a fractional number where an integer was expected"));
        assert!(id_error("9e15").contains("a fractional number where an integer was expected"));
        assert!(id_error("true").contains("a non-negative integer or a numeric string"));
        assert!(stamp_error("18446744073709551615").contains("integer too large"));
        assert!(stamp_error("-2.5").contains("a fractional number where an integer was expected"));
        assert!(stamp_error("true").contains("an integer or a numeric string"));
        assert!(stamp_error("\"soon\"").contains("\"soon\" is not a numeric string"));
        assert_eq!(serde_json::from_str::<Stamp>("-3.0").unwrap(), Stamp(-3));
        assert_eq!(
            serde_json::from_str::<Stamp>("\" -7 \"").unwrap(),
            Stamp(-7)
        );
        assert_eq!(serde_json::from_str::<Id>("42.0").unwrap(), Id(42));
        assert_eq!(serde_json::to_string(&Stamp(-9)).unwrap(), "-9");
    }
}
