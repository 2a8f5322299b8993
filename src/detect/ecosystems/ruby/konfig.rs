//! Konfig (the `konfig-config` gem): `Konfig::Schema.draw do group :main_db do string :password
//! … end end` declares each setting, and its environment source reads it from the group's and
//! the attribute's names upper-cased and joined with `_` (`MAIN_DB_PASSWORD`). Konfig hands
//! back `nil` for a missing value, so every attribute is optional; an `integer`, `float` or
//! `boolean` attribute, or one declared `array`, types a setting.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

const VIA: &str = "Konfig schema attribute";

pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static GROUP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*group[ \t]+:([a-z_][a-z0-9_]*)[ \t]+do\b").expect("the Konfig group pattern is valid")
    });
    static ATTRIBUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^[ \t]*(string|integer|float|boolean)[ \t]+:([a-z_][a-z0-9_]*)")
            .expect("the Konfig attribute pattern is valid")
    });
    static ARRAY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)(?:^[ \t]*array[ \t]*$|array:[ \t]*true)").expect("the Konfig array pattern is valid")
    });
    let Some(draw) = text.find("Konfig::Schema.draw") else { return Vec::new() };
    let text_after = &text[draw..];
    let groups: Vec<(usize, &str)> =
        GROUP.captures_iter(text_after).filter_map(|c| Some((c.get(0)?.start(), c.get(1)?.as_str()))).collect();
    let attributes: Vec<_> = ATTRIBUTE.captures_iter(text_after).collect();
    let mut found = Vec::new();
    for (i, c) in attributes.iter().enumerate() {
        let (Some(whole), Some(kind), Some(name)) = (c.get(0), c.get(1), c.get(2)) else { continue };
        // Groups hold attributes only: an attribute is the last group's before it.
        let Some((_, group)) = groups.iter().rev().find(|(at, _)| *at < whole.start()) else { continue };
        let next = [attributes.get(i + 1).and_then(|n| n.get(0)).map(|m| m.start())]
            .into_iter()
            .flatten()
            .chain(groups.iter().map(|(at, _)| *at).filter(|at| *at > whole.start()))
            .min()
            .unwrap_or(text_after.len());
        let declaration = &text_after[whole.start()..next];
        let setting = kind.as_str() != "string" || ARRAY.is_match(declaration);
        let variable = format!("{group}_{}", name.as_str()).to_ascii_uppercase();
        found.push(EnvRead::new(variable, draw + name.start(), Need::Optional, VIA).typed_setting(setting));
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_and_attribute_names_joined() {
        let text = "ConfigSchema = Konfig::Schema.draw do\n  group :main_db do\n    string :host do\n      default \"localhost\"\n    end\n    integer :port do\n      default 3306\n    end\n    string :password do\n      description \"The MariaDB password\"\n    end\n  end\n\n  group :rails do\n    string :secret_key\n    string :trusted_proxies do\n      array\n    end\n  end\nend\n";
        let found: Vec<(String, bool)> = reads(text).into_iter().map(|r| (r.name, r.setting)).collect();
        assert_eq!(
            found,
            [
                ("MAIN_DB_HOST".into(), false),
                ("MAIN_DB_PORT".into(), true),
                ("MAIN_DB_PASSWORD".into(), false),
                ("RAILS_SECRET_KEY".into(), false),
                ("RAILS_TRUSTED_PROXIES".into(), true),
            ]
        );
        assert!(reads("group :db do\n  string :password\nend\n").is_empty());
    }
}
