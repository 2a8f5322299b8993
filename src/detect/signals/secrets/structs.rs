//! The structs a settings library fills from the environment, put together over the project
//! (see [`Ecosystem::settings_structs`]): where a file has the library fill a struct
//! (`envconfig.Process("gotrue", config)`), the struct may be defined in another package, and
//! its fields of other structs' types read those structs' fields under longer prefixes
//! (`GOTRUE_EXTERNAL_GITHUB_SECRET`).
//!
//! [`Ecosystem::settings_structs`]: crate::detect::ecosystems::ecosystem::Ecosystem::settings_structs

use std::collections::HashMap;

use crate::detect::ecosystems::ecosystem::{EnvRead, FieldKeys, Need, SettingsRoot, SettingsStruct};
use crate::rel_path::RelPath;
use std::collections::HashSet;

/// How deep structs nest before the walk stops (a struct holding itself would never end).
const MAX_DEPTH: usize = 8;
/// At most this many variables come from one filled struct.
const MAX_FIELDS: usize = 2000;

/// A struct a file defines, with the line of each of its fields.
pub(super) struct Defined {
    pub settings: SettingsStruct,
    pub lines: Vec<usize>,
}

/// Every variable the `roots` fill, as a read with the file and line of its field, under the
/// `project_prefix` where the library reads so ([`EnvRead::unprefixed`]) — a root set up in
/// another file under that file's `root_prefix`, and not at all without one; none a settings file
/// `given` a value (upper case) — the file gives the field one. A struct name defined in
/// several files (Go's packages each have a `Config`) is the one in the folder of the file that
/// names it, else the first's (the scan goes configuration first).
pub(super) fn filled<'a>(
    roots: &[(&RelPath, SettingsRoot)],
    defined: &'a [(&'a RelPath, Defined)],
    decoders: &HashSet<&str>,
    given: &HashSet<String>,
    (project_prefix, root_prefix): (&str, Option<&str>),
) -> Vec<(&'a RelPath, EnvRead, usize)> {
    // A type that parses its own value is one variable, not a struct of them.
    let mut by_name: ByName = HashMap::new();
    for (rel, d) in defined.iter().filter(|(_, d)| !decoders.contains(d.settings.name.as_str())) {
        by_name.entry(d.settings.name.as_str()).or_default().push((*rel, d));
    }
    let mut found = Vec::new();
    for (near, root) in roots {
        let prefix = match &root.prefix_constant {
            None if root.unprefixed => match root_prefix {
                Some(prefix) => prefix.trim_end_matches('_'),
                None => continue,
            },
            None => root.prefix.as_str(),
            Some((owner, constant)) => {
                let Some((_, defined)) = nearest(&by_name, owner, near) else { continue };
                let Some((_, value)) = defined.settings.constants.iter().find(|(name, _)| name == constant) else {
                    continue;
                };
                value.as_str()
            }
        };
        let Some(definition) = in_module(&by_name, &root.ty, near, root.module.as_deref()) else { continue };
        walk(&by_name, root.keys, definition, prefix, 0, &mut found);
    }
    found.retain(|(_, read, _)| !given.contains(&read.name.to_ascii_uppercase()));
    for (_, read, _) in found.iter_mut().filter(|(_, read, _)| read.unprefixed) {
        read.name.insert_str(0, project_prefix);
    }
    found
}

/// Each struct name's definitions, in scan order.
type ByName<'a> = HashMap<&'a str, Vec<(&'a RelPath, &'a Defined)>>;

/// The definition of `ty` in `near`'s folder, else the first.
fn nearest<'a>(by_name: &ByName<'a>, ty: &str, near: &RelPath) -> Option<(&'a RelPath, &'a Defined)> {
    let all = by_name.get(ty)?;
    all.iter().find(|(rel, _)| rel.parent() == near.parent()).or(all.first()).copied()
}

/// The definition of `ty` in the file or folder named `module` (`core.rs`, `cli/mod.rs`),
/// else as [`nearest`].
fn in_module<'a>(
    by_name: &ByName<'a>,
    ty: &str,
    near: &RelPath,
    module: Option<&str>,
) -> Option<(&'a RelPath, &'a Defined)> {
    let named = |rel: &RelPath| {
        let stem = rel.file_name().rsplit_once('.').map_or(rel.file_name(), |(stem, _)| stem);
        let stem = if matches!(stem, "mod" | "lib") { rel.parent().file_name() } else { stem };
        module == Some(stem) || module == Some(rel.parent().file_name())
    };
    let all = by_name.get(ty)?;
    all.iter().find(|(rel, _)| named(rel)).copied().or_else(|| nearest(by_name, ty, near))
}

/// The variables the struct `defined` in `rel` holds under `prefix`.
fn walk<'a>(
    by_name: &ByName<'a>,
    keys: FieldKeys,
    (rel, defined): (&'a RelPath, &'a Defined),
    prefix: &str,
    depth: usize,
    found: &mut Vec<(&'a RelPath, EnvRead, usize)>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    for (field, &line) in defined.settings.fields.iter().zip(&defined.lines) {
        if found.len() >= MAX_FIELDS {
            return;
        }
        // envconfig's `required` and `default` tags are its own: viper leaves every key optional;
        // a `[Required]` property stops the app only where the binding validates it.
        let (key, need, via) = match keys {
            FieldKeys::Envconfig => (field.key.clone(), field.need, "envconfig.Process field"),
            FieldKeys::Serde => (field.key.clone(), field.need, "envy field"),
            FieldKeys::Mapstructure { .. } => match &field.mapped_key {
                Some(key) => (key.to_ascii_uppercase(), Need::Unstated, "viper Unmarshal field"),
                None => continue,
            },
            FieldKeys::Options { validated } => {
                let need = if field.need == Need::Required && !validated { Need::Unstated } else { field.need };
                let via =
                    if need == Need::Required { "validated [Required] property" } else { "options class property" };
                (field.key.clone(), need, via)
            }
        };
        let options = matches!(keys, FieldKeys::Options { .. });
        // viper puts `_` after its prefix whatever the replacer says of the key's dots.
        let joiner = match keys {
            FieldKeys::Options { .. } => "__",
            FieldKeys::Serde => "",
            FieldKeys::Mapstructure { double: true } if depth > 0 => "__",
            _ => "_",
        };
        // Upper case loses a field name's words (`PasswordEncryptionKey`): judged as written.
        let written_secret = matches!(keys, FieldKeys::Mapstructure { .. })
            && field.mapped_key.as_deref().is_some_and(super::looks_like_secret);
        let name = match (prefix.is_empty(), key.is_empty()) {
            (_, true) => prefix.to_string(),
            (true, false) => key.clone(),
            (false, false) => format!("{prefix}{joiner}{key}"),
        };
        if field.embedded || by_name.contains_key(field.ty.as_str()) {
            if let Some(nested) = nearest(by_name, &field.ty, rel) {
                walk(by_name, keys, nested, &name, depth + 1, found);
            }
        } else if !name.is_empty() {
            // A bound property the app does not insist on is like any configuration key: a
            // variable only where the project spells it (an options class often holds keys
            // nothing sets) — unless it names a credential, which the binding reads as surely
            // as any; all are under the project's `AddEnvironmentVariables("APP_")`.
            let read = if options && need != Need::Required && !super::looks_like_secret(&name) {
                EnvRead::derived(name, field.at, need, via)
            } else {
                EnvRead::new(name, field.at, need, via)
            };
            let read = read.typed_setting(field.setting).marked_secret(written_secret).without_prefix(options);
            found.push((rel, read, line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::ecosystems::ecosystem::SettingsField;
    use crate::rel_path::rel;

    fn defined(name: &str, key: &str) -> Defined {
        let field = SettingsField {
            key: key.into(),
            mapped_key: None,
            ty: "String".into(),
            embedded: false,
            need: Need::Optional,
            setting: false,
            at: 0,
        };
        Defined {
            settings: SettingsStruct { name: name.into(), fields: vec![field], constants: vec![] },
            lines: vec![3],
        }
    }

    #[test]
    fn a_struct_imported_from_a_module_is_that_module_s() {
        // Three crates' `Env`: the call in `bin/periphery` imports `config::periphery::Env`.
        let defined = [
            (rel!("client/src/config/cli/mod.rs"), defined("Env", "CLI_SECRET")),
            (rel!("client/src/config/core.rs"), defined("Env", "CORE_PASSWORD")),
            (rel!("client/src/config/periphery.rs"), defined("Env", "PERIPHERY_PASSKEY")),
        ];
        let call = rel!("bin/periphery/src/config.rs");
        let names = |module: Option<&str>| -> Vec<String> {
            let root =
                SettingsRoot { module: module.map(str::to_string), ..SettingsRoot::new("", "Env", FieldKeys::Serde) };
            filled(&[(call, root)], &defined, &HashSet::new(), &HashSet::new(), ("", None))
                .into_iter()
                .map(|(_, read, _)| read.name)
                .collect()
        };
        assert_eq!(names(Some("periphery")), ["PERIPHERY_PASSKEY"]);
        assert_eq!(names(Some("cli")), ["CLI_SECRET"]);
        assert_eq!(names(None), ["CLI_SECRET"], "else the first defined");
    }
}
