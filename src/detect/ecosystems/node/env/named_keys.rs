//! NestJS's `ConfigService` asked for a variable by a constant rather than a literal:
//! `config.get(GITHUB_CLIENT_SECRET_VAR)` with `const GITHUB_CLIENT_SECRET_VAR =
//! "GITHUB_CLIENT_SECRET"` in the file, or `config.getOrThrow(Env.JWT_SECRET)` with the
//! names in a class, enum or object of their own (`static readonly JWT_SECRET =
//! "JWT_SECRET"`) that the file imports by a relative path. The constant's value is read.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::code;
use crate::detect::ecosystems::ecosystem::{EnvRead, Need};
use crate::detect::sources::Sources;
use crate::rel_path::{RelPath, RelPathBuf};

/// The reads of `text` (the file `rel`) by a constant's name (see the module documentation).
pub fn reads(sources: &Sources, rel: &RelPath, text: &str) -> Vec<EnvRead> {
    static GET: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i-u:config)[[:word:]]*[[:space:]]*\.[[:space:]]*(get|getOrThrow)[[:space:]]*(?:<[^>()]*>)?\([[:space:]]*(?:([A-Z][[:word:]]*)\.)?([A-Z][A-Z0-9_]*)[[:space:]]*[,)]",
        )
        .expect("the ConfigService constant pattern is valid")
    });
    if !text.contains("@nestjs/config") {
        return Vec::new();
    }
    GET.captures_iter(text)
        .filter_map(|c| {
            let (method, constant, whole) = (c.get(1)?, c.get(3)?, c.get(0)?);
            let holder = match c.get(2) {
                None => std::borrow::Cow::Borrowed(text),
                Some(owner) if declares(text, owner.as_str()) => std::borrow::Cow::Borrowed(text),
                Some(owner) => std::borrow::Cow::Owned(imported_text(sources, rel, text, owner.as_str())?),
            };
            let name = constant_value(&holder, constant.as_str())?;
            let rest = code::rest_of_call(&text[whole.end() - 1..], &['"', '\'', '`']);
            // A `getOrThrow` in a `try` is caught, a `get` with a default has one: optional both.
            let need = match method.as_str() {
                "getOrThrow" if !code::in_try_block(text, whole.start()) => Need::Required,
                "getOrThrow" => Need::Optional,
                _ if code::has_another_argument(rest) => Need::Optional,
                _ => Need::Unstated,
            };
            Some(EnvRead::new(name, constant.start(), need, "ConfigService by a constant"))
        })
        .collect()
}

/// Whether `text` declares `owner` itself (`class Env`, `enum Env`, `const Env =`).
fn declares(text: &str, owner: &str) -> bool {
    Regex::new(&format!(r"(?-u:\b)(?:class|enum|const)[[:space:]]+{}(?-u:\b)", regex::escape(owner)))
        .is_ok_and(|declared| declared.is_match(text))
}

/// The text of the file `text` imports `owner` from by a relative path (`import { Env }
/// from "../env"`): the path as written with `.ts`, `.js` or `/index.ts` after it.
fn imported_text(sources: &Sources, rel: &RelPath, text: &str, owner: &str) -> Option<String> {
    let import = Regex::new(&format!(
        r#"import[[:space:]]*\{{[^}}]*(?-u:\b){}(?-u:\b)[^}}]*\}}[[:space:]]*from[[:space:]]*['"](\.[^'"]+)['"]"#,
        regex::escape(owner)
    ))
    .ok()?;
    let from = import.captures(text)?.get(1)?.as_str();
    let base: RelPathBuf = rel.parent().join_normalized(from)?;
    let repo = sources.repo();
    ["ts", "js", "mts"]
        .iter()
        .filter_map(|ext| RelPathBuf::new(format!("{base}.{ext}")).ok())
        .chain(["index.ts", "index.js"].iter().map(|index| base.join(RelPath::trusted(index))))
        .find(|candidate| repo.exists(candidate))
        .and_then(|file| repo.read(&file))
        .map(|text| text.to_string())
}

/// The variable name `constant` holds in `text`: `const X = "NAME"`, `static readonly X =
/// "NAME"`, an enum member `X = "NAME"` or an object's `X: "NAME"`; spelled like a variable.
fn constant_value(text: &str, constant: &str) -> Option<String> {
    let pattern =
        Regex::new(&format!(r#"(?m)(?:^|[[:space:]{{,])(?:(?:export[[:space:]]+)?(?:const|let|var)[[:space:]]+|(?:static[[:space:]]+)?readonly[[:space:]]+)?{}[[:space:]]*(?::[[:space:]]*string[[:space:]]*)?[=:][[:space:]]*['"`]([A-Z][A-Z0-9_]*)['"`]"#, regex::escape(constant)))
            .ok()?;
    let value = pattern.captures(text)?.get(1)?.as_str();
    code::is_upper_snake(value).then(|| value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constants_value_in_each_way_of_declaring_it() {
        let text = "export const GITHUB_SECRET_VAR = \"GITHUB_CLIENT_SECRET\";\nexport class Env {\n  static readonly JWT_SECRET = \"JWT_SECRET\";\n}\nexport enum Keys {\n  Stripe = \"STRIPE_API_KEY\",\n}\nexport const Names = { SMTP_PASS: \"SMTP_PASSWORD\", Mode: \"production\" };\n";
        assert_eq!(constant_value(text, "GITHUB_SECRET_VAR").as_deref(), Some("GITHUB_CLIENT_SECRET"));
        assert_eq!(constant_value(text, "JWT_SECRET").as_deref(), Some("JWT_SECRET"));
        assert_eq!(constant_value(text, "Stripe").as_deref(), Some("STRIPE_API_KEY"));
        assert_eq!(constant_value(text, "SMTP_PASS").as_deref(), Some("SMTP_PASSWORD"));
        assert_eq!(constant_value(text, "Mode"), None, "a value no variable is named");
        assert_eq!(constant_value(text, "MISSING"), None);
        assert!(declares(text, "Env") && declares(text, "Keys") && !declares(text, "Config"));
    }
}
