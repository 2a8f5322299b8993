//! The one reader of version pins and constraints, for every file that states a version:
//! version files, manifests, CI inputs, images, version-manager pins. Ordering is the
//! `versions` crate's (`1.10` after `1.9`), so every caller compares the same way.
//!
//! - [`pin`]: a version that pins something, as a version file or CI input states it:
//!   `20`, `v20.11.1` (the `v` dropped: `v20.11.0` and `20.11.0` are one pin), `=3.12`,
//!   `3.12.x` (→ `3.12`), `17.0.2+8`, `1.16.0-otp-26`. Channels (`stable`, `lts/*`, `node`),
//!   ranges (`^20`, `>=3.11`, `18 || 20`) and anything else pin nothing.
//! - [`floor`]: the lowest version a constraint accepts (`^8.3` → 8.3, `>=3.0 <4` → 3.0).
//! - [`first`]: the first dotted number in a string (`temurin-17.0.2` → 17.0.2).

use std::cmp::Ordering;

/// A version that pins something (see the module documentation). Made only by
/// [`Pin::parse`], so whatever carries one carries a checked version: digits, dots and a
/// plain suffix, nothing a shell or a YAML file could read as more.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pin(String);

impl Pin {
    /// The pin `text` states, `None` when it pins nothing (a channel, a range, a word).
    pub fn parse(text: &str) -> Option<Pin> {
        let v = text.trim().trim_matches(['"', '\'']).trim();
        let v = v.strip_prefix("==").or_else(|| v.strip_prefix('=')).unwrap_or(v).trim();
        let v = v.strip_prefix('v').unwrap_or(v);
        let v = v.strip_suffix(".*").or_else(|| v.strip_suffix(".x")).or_else(|| v.strip_suffix(".X")).unwrap_or(v);
        let (numbers, suffix) = match v.find(['-', '+']) {
            Some(at) => v.split_at(at),
            None => (v, ""),
        };
        let numeric = !numbers.is_empty()
            && numbers.split('.').count() <= 4
            && numbers.split('.').all(|part| !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()));
        let suffix_ok = suffix.chars().all(|c| c.is_ascii_alphanumeric() || "-+._".contains(c));
        (numeric && suffix_ok).then(|| Pin(v.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The dotted number alone (`17.0.2+8` → `17.0.2`).
    pub fn numeric(&self) -> &str {
        self.0.split(['-', '+']).next().unwrap_or_default()
    }

    /// The first number (`20.11.1` → 20); one past `u32` (no real version) saturates.
    pub fn major(&self) -> u32 {
        self.part(0).unwrap_or(u32::MAX)
    }

    /// The second number (`3.12` → 12), when the pin has one.
    pub fn minor(&self) -> Option<u32> {
        self.part(1)
    }

    fn part(&self, index: usize) -> Option<u32> {
        self.numeric().split('.').nth(index).map(|n| n.parse().unwrap_or(u32::MAX))
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// A pin reads as the text it was checked as (`pin.starts_with("3.")`, `version.as_deref()`).
impl std::ops::Deref for Pin {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl serde::Serialize for Pin {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl std::fmt::Display for Pin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The pin `text` states as text (see [`Pin::parse`]), `None` otherwise.
pub fn pin(text: &str) -> Option<String> {
    Pin::parse(text).map(Pin::into_string)
}

/// Only the dotted number of a pin (`17.0.2+8` → `17.0.2`); `None` when `text` pins nothing.
pub fn numeric_pin(text: &str) -> Option<String> {
    Pin::parse(text).map(|pin| pin.numeric().to_string())
}

/// The first dotted number in `s` (`temurin-17.0.2` → `17.0.2`, `ruby-3.2.2p53` → `3.2.2`).
pub fn first(s: &str) -> Option<String> {
    let start = s.find(|c: char| c.is_ascii_digit())?;
    let rest = &s[start..];
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(rest.len());
    let v = rest[..end].trim_end_matches('.');
    (!v.is_empty()).then(|| v.to_string())
}

/// Compare two versions as numbers (`1.10` > `1.9`); text that is no version sorts first.
pub fn cmp(a: &str, b: &str) -> Ordering {
    match (versions::Versioning::new(a), versions::Versioning::new(b)) {
        (Some(a), Some(b)) => a.cmp(&b),
        (a, b) => a.is_some().cmp(&b.is_some()),
    }
}

/// The lowest of the pins among `values` (a CI matrix: the floor the project still supports).
pub fn lowest<'a>(values: impl IntoIterator<Item = &'a String>) -> Option<String> {
    values.into_iter().filter_map(|v| pin(v)).min_by(|a, b| cmp(a, b))
}

/// The `(version, evidence)` with the highest version; the first of equals.
pub fn newest(found: impl IntoIterator<Item = (String, String)>) -> Option<(String, String)> {
    found.into_iter().fold(None, |best, (v, source)| match best {
        Some(kept) if !cmp(&v, &kept.0).is_gt() => Some(kept),
        _ => Some((v, source)),
    })
}

/// The lowest version a constraint accepts: `^8.3` → 8.3, `~> 1.15` → 1.15,
/// `>=3.0.0 <4.0.0` → 3.0.0, `8.2.*` → 8.2, `[17,22)` → 17. With alternatives the lowest
/// one of the newest major: `^8.1|^8.2|^8.3` → 8.1 (what the project still supports, so what
/// its lock file was resolved for), but `^7.4 || ^8.0` → 8.0, as an older major is one a fresh
/// setup often cannot get any more (PHP 7, Ruby 2).
pub fn floor(constraint: &str) -> Option<String> {
    let floors: Vec<String> =
        constraint.split('|').filter(|alt| !alt.trim().is_empty()).filter_map(alternative_floor).collect();
    let newest_major = floors.iter().map(|v| major(v)).max()?;
    floors.into_iter().filter(|v| major(v) == newest_major).min_by(|a, b| cmp(a, b))
}

/// The lowest version any alternative of a constraint accepts: `^18.18 || ^20.9 || >=21.1` →
/// 18.18. For a runtime that keeps old majors working (Node), where [`floor`]'s newest-major
/// rule would ask for a newer one than the project needs.
pub fn lowest_floor(constraint: &str) -> Option<String> {
    constraint.split('|').filter(|alt| !alt.trim().is_empty()).filter_map(alternative_floor).min_by(|a, b| cmp(a, b))
}

/// A version's leading number (`8` of `8.1.2`); 0 when it has none.
fn major(version: &str) -> u64 {
    version.split('.').next().and_then(|m| m.parse().ok()).unwrap_or(0)
}

fn alternative_floor(alt: &str) -> Option<String> {
    let alt = alt.trim();
    // Maven/NuGet ranges: `[17,22)`, `(1.8,]`, `[3.3.1,)`; an empty lower bound has no floor.
    if let Some(range) = alt.strip_prefix(['[', '(']) {
        let lower = range.split(',').next().unwrap_or_default();
        return first(lower);
    }
    let mut rest = alt;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let op = rest[..at].trim_end();
        let excluded = op.ends_with('<') || op.ends_with("<=") || op.ends_with("!=");
        let version = first(&rest[at..])?;
        if !excluded {
            return Some(version);
        }
        rest = &rest[at + version.len()..];
    }
    None
}

/// A semver range that pins a major (or more): `20`, `20.x`, `^20.11.0` → `20`, `~20.11` →
/// `20.11`, `=20.11.1`. Floors (`>=20`), unions and anything wider are not pins.
pub fn semver_pin(range: &str) -> Option<String> {
    let range = range.trim();
    if let Some(rest) = range.strip_prefix('^') {
        return Pin::parse(rest).map(|pin| pin.numeric().split('.').next().unwrap_or_default().to_string());
    }
    if let Some(rest) = range.strip_prefix('~') {
        return numeric_pin(rest.trim_start_matches('>')).map(|v| v.split('.').take(2).collect::<Vec<_>>().join("."));
    }
    numeric_pin(range)
}

/// The first line of a version file that is neither blank nor a comment.
pub fn first_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pin_is_made_only_from_a_version_and_knows_its_parts() {
        let pin = Pin::parse(" v20.11.1 ").expect("a pin");
        assert_eq!((pin.as_str(), pin.major(), pin.minor()), ("20.11.1", 20, Some(11)));
        let pin = Pin::parse("17.0.2+8").expect("a pin");
        assert_eq!(
            (pin.numeric(), pin.major(), pin.minor(), pin.to_string().as_str()),
            ("17.0.2", 17, Some(0), "17.0.2+8")
        );
        assert_eq!(Pin::parse("'9.0'").map(|p| p.major()), Some(9));
        assert_eq!(Pin::parse("3.12.x").map(|p| (p.major(), p.minor())), Some((3, Some(12))));
        assert_eq!(Pin::parse("22").map(|p| p.minor()), Some(None));
        assert_eq!(Pin::parse("99999999999").map(|p| p.major()), Some(u32::MAX));
        for nothing in ["lts/*", "^20", ">=3.11", "stable", "20; rm -rf /", "1.2.3.4.5", "", "v"] {
            assert_eq!(Pin::parse(nothing), None, "{nothing}");
        }
    }

    #[test]
    fn pins() {
        for (text, want) in [
            ("20", "20"),
            ("v20.11.0", "20.11.0"),
            ("20.11.0", "20.11.0"),
            ("20.x", "20"),
            ("==3.12.*", "3.12"),
            ("'3.12'", "3.12"),
            ("17.0.2+8", "17.0.2+8"),
            ("1.16.0-otp-26", "1.16.0-otp-26"),
            ("=1.96.0", "1.96.0"),
        ] {
            assert_eq!(pin(text).as_deref(), Some(want), "{text}");
        }
        for text in [">=20", "lts/*", "^3.11", "stable", "", "20 || 22", "node", "nightly", "3.12rc1", "^1"] {
            assert_eq!(pin(text), None, "{text}");
        }
        assert_eq!(numeric_pin("17.0.2+8").as_deref(), Some("17.0.2"));
    }

    #[test]
    fn orders_numerically() {
        assert!(cmp("1.10", "1.9").is_gt());
        assert!(cmp("8.10", "8.3").is_gt());
        assert!(cmp("1.18", "1.20").is_lt());
        let values = ["8.4", "8.10", "8.3", "nightly"].map(String::from);
        assert_eq!(lowest(&values).as_deref(), Some("8.3"));
        let found = [("17".to_string(), "a".to_string()), ("21".into(), "b".into()), ("21".into(), "c".into())];
        assert_eq!(newest(found), Some(("21".into(), "b".into())));
    }

    #[test]
    fn floors() {
        assert_eq!(floor("^8.3").as_deref(), Some("8.3"));
        assert_eq!(floor("~> 1.15").as_deref(), Some("1.15"));
        assert_eq!(floor(">=3.0.0 <4.0.0").as_deref(), Some("3.0.0"));
        assert_eq!(floor("<4.0.0 >=3.2.0").as_deref(), Some("3.2.0"));
        assert_eq!(floor("8.2.*").as_deref(), Some("8.2"));
        assert_eq!(floor("[17,22)").as_deref(), Some("17"));
        assert_eq!(floor("(,11]"), None);
        assert_eq!(floor("^7.4 || ^8.0").as_deref(), Some("8.0"));
        assert_eq!(floor("^7.4|^8.0").as_deref(), Some("8.0"));
        // Alternatives within one major: the lowest; across majors: the newest major's lowest.
        assert_eq!(floor("^8.1|^8.2|^8.3").as_deref(), Some("8.1"));
        assert_eq!(floor("^8.3 || ^8.1").as_deref(), Some("8.1"));
        assert_eq!(floor("^7.2 || ^8.2 || ^8.0").as_deref(), Some("8.0"));
        assert_eq!(floor(">= 2.7, < 4 | >= 3.1").as_deref(), Some("3.1"));
        assert_eq!(floor("*"), None);
        assert_eq!(lowest_floor("^18.18 || ^20.9 || >=21.1").as_deref(), Some("18.18"));
        assert_eq!(lowest_floor(">=22.12.0").as_deref(), Some("22.12.0"));
        assert_eq!(lowest_floor("<20"), None);
        assert_eq!(first("temurin-17.0.2").as_deref(), Some("17.0.2"));
        assert_eq!(first("ruby-3.2.2p53").as_deref(), Some("3.2.2"));
    }

    #[test]
    fn semver_ranges_that_pin() {
        assert_eq!(semver_pin("^20.11.0").as_deref(), Some("20"));
        assert_eq!(semver_pin("~20.11").as_deref(), Some("20.11"));
        assert_eq!(semver_pin("20.x").as_deref(), Some("20"));
        assert_eq!(semver_pin(">=20.0.0"), None);
        assert_eq!(semver_pin("18 || 20"), None);
    }

    proptest::proptest! {
        /// Version text is input: the readers answer something or nothing, never panic.
        #[test]
        fn readers_never_panic(text in "\\PC{0,40}", other in "[0-9.vx*^~<>=| -]{0,20}") {
            let _ = pin(&text);
            let _ = floor(&text);
            let _ = first(&text);
            let _ = semver_pin(&other);
            let _ = cmp(&text, &other);
        }
    }
}
