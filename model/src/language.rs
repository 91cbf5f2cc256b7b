//! The languages of the game, as one type: parsed once where a request or a row
//! names one, and passed as it is from there.

use std::fmt;

/// A language of the game's sentences and interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize, strum::VariantArray)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    En,
    Es,
    Fr,
    It,
    Ru,
}

impl Language {
    /// Every language, in the order the interface lists them.
    pub const ALL: [Language; 5] = [Language::En, Language::Es, Language::Fr, Language::It, Language::Ru];

    /// Its ISO 639-1 code, as rows and addresses write it.
    pub const fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Es => "es",
            Language::Fr => "fr",
            Language::It => "it",
            Language::Ru => "ru",
        }
    }

    /// Its name in itself.
    pub const fn name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Es => "Español",
            Language::Fr => "Français",
            Language::It => "Italiano",
            Language::Ru => "Русский",
        }
    }

    /// The language whose code is `raw` (spaces around it ignored); `None` for any other.
    pub fn parse(raw: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|language| language.code() == raw.trim())
    }
}

crate::all_listed!(Language);

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language binds and reads as its code.
#[cfg(feature = "sqlx")]
mod stored {
    use sqlx::any::{Any, AnyTypeInfo};
    use sqlx::error::BoxDynError;
    use sqlx::{Database, Decode, Encode, Type};

    use super::Language;

    impl Type<Any> for Language {
        fn type_info() -> AnyTypeInfo {
            <String as Type<Any>>::type_info()
        }

        fn compatible(ty: &AnyTypeInfo) -> bool {
            <String as Type<Any>>::compatible(ty)
        }
    }

    impl<'q> Encode<'q, Any> for Language {
        fn encode_by_ref(&self, buf: &mut <Any as Database>::ArgumentBuffer<'q>) -> Result<sqlx::encode::IsNull, BoxDynError> {
            <&str as Encode<'q, Any>>::encode(self.code(), buf)
        }
    }

    impl<'r> Decode<'r, Any> for Language {
        fn decode(value: <Any as Database>::ValueRef<'r>) -> Result<Language, BoxDynError> {
            let code = <String as Decode<'r, Any>>::decode(value)?;
            Language::parse(&code).ok_or_else(|| format!("no language {code:?}").into())
        }
    }
}
