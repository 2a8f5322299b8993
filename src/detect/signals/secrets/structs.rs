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
/// `project_prefix` where the library reads so ([`EnvRead::unprefixed`]); none a settings file
/// `given` a value (upper case) — the file gives the field one. A struct name defined in
/// several files (Go's packages each have a `Config`) is the one in the folder of the file that
/// names it, else the first's (the scan goes configuration first).
pub(super) fn filled<'a>(
    roots: &[(&RelPath, SettingsRoot)],
    defined: &'a [(&'a RelPath, Defined)],
    decoders: &HashSet<&str>,
    given: &HashSet<String>,
    project_prefix: &str,
) -> Vec<(&'a RelPath, EnvRead, usize)> {
    // A type that parses its own value is one variable, not a struct of them.
    let mut by_name: ByName = HashMap::new();
    for (rel, d) in defined.iter().filter(|(_, d)| !decoders.contains(d.settings.name.as_str())) {
        by_name.entry(d.settings.name.as_str()).or_default().push((*rel, d));
    }
    let mut found = Vec::new();
    for (near, root) in roots {
        let prefix = match &root.prefix_constant {
            None => root.prefix.as_str(),
            Some((owner, constant)) => {
                let Some((_, defined)) = nearest(&by_name, owner, near) else { continue };
                let Some((_, value)) = defined.settings.constants.iter().find(|(name, _)| name == constant) else {
                    continue;
                };
                value.as_str()
            }
        };
        walk(&by_name, root.keys, (&root.ty, near), prefix, 0, &mut found);
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

/// The variables struct `ty`, as named in file `near`, holds under `prefix`.
fn walk<'a>(
    by_name: &ByName<'a>,
    keys: FieldKeys,
    (ty, near): (&str, &RelPath),
    prefix: &str,
    depth: usize,
    found: &mut Vec<(&'a RelPath, EnvRead, usize)>,
) {
    let Some((rel, defined)) = nearest(by_name, ty, near) else { return };
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
            walk(by_name, keys, (&field.ty, rel), &name, depth + 1, found);
        } else if !name.is_empty() {
            // A bound property the app does not insist on is like any configuration key: a
            // variable only where the project spells it (an options class often holds keys
            // nothing sets); all are under the project's `AddEnvironmentVariables("APP_")`.
            let read = if options && need != Need::Required {
                EnvRead::derived(name, field.at, need, via)
            } else {
                EnvRead::new(name, field.at, need, via)
            };
            let read = read.typed_setting(field.setting).marked_secret(written_secret).without_prefix(options);
            found.push((rel, read, line));
        }
    }
}
