//! Env files by their names: a project's `.env` files and the templates committed beside
//! them. The walk needs to know the templates, which a `.env.*` pattern may match.

/// Dotenv files: `.env` and `.env.*` (a committed `.env`, `.env.test` or `.env.example`; a
/// gitignored one is never walked), and example files under other names (`example.env`,
/// `env.sample`, `sample.env`, `env.template`, `server.env.example`) — ending in `.env` or
/// in the marker, so that `env.example.js` is code. `.env-template` and `env_sample` are spelled
/// so too.
pub fn is_env_file(name: &str) -> bool {
    let name = &*dotted(name);
    if name == ".env" || name.starts_with(".env.") {
        return true;
    }
    // Cheap refusal first: this runs for every file of the tree.
    if !name.as_bytes().windows(3).any(|w| w.eq_ignore_ascii_case(b"env")) {
        return false;
    }
    let lower = name.to_ascii_lowercase();
    let parts: Vec<&str> = lower.split('.').collect();
    let ends_right = parts.last().is_some_and(|last| *last == "env" || EXAMPLE_MARKERS.contains(last));
    ends_right && parts.contains(&"env") && is_example(name)
}

const EXAMPLE_MARKERS: &[&str] = &["example", "sample", "template", "tmpl", "tpl", "dist", "defaults", "default"];

/// Whether `name` is an env file's template (`.env.sample`, `.env.example`): committed for
/// others to copy, so a `.env.*` pattern meant for the local env files that also matches it
/// leaves it in every clone.
pub fn is_env_template(name: &str) -> bool {
    is_env_file(name) && is_example(name)
}

/// An env file that lists what to set (`.env.example`, `env.sample`) rather than values.
pub fn is_example(name: &str) -> bool {
    dotted(name).to_ascii_lowercase().split('.').any(|p| EXAMPLE_MARKERS.contains(&p))
}

/// `name` with a `-` or `_` right after a leading `env`/`.env` read as a dot (`.env-template`
/// is `.env.template`).
fn dotted(name: &str) -> std::borrow::Cow<'_, str> {
    for lead in [".env-", ".env_", "env-", "env_"] {
        if name.len() > lead.len() && name.as_bytes()[..lead.len()].eq_ignore_ascii_case(lead.as_bytes()) {
            let cut = lead.len() - 1;
            return format!("{}.{}", &name[..cut], &name[cut + 1..]).into();
        }
    }
    name.into()
}
