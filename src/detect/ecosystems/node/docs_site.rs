//! Whether a folder named like a documentation site (`website/`, `docs/`) holds one, or an
//! app of the project that happens to be called so: a package whose manifest depends on no
//! site generator is code the project deploys, and its reads are the app's.

use crate::detect::repo::Repo;
use crate::rel_path::RelPath;

/// Packages that build a documentation site.
const SITE_GENERATORS: &[&str] = &[
    "@docusaurus/core",
    "vitepress",
    "vuepress",
    "nextra",
    "@astrojs/starlight",
    "docsify",
    "fumadocs-core",
    "mintlify",
    "@storybook/",
    "gatsby-theme-docz",
    "typedoc",
];

/// Whether `dir` holds a `package.json` that depends on no site generator.
pub fn is_app_package(repo: &Repo, dir: &str) -> bool {
    let path = format!("{dir}/package.json");
    let Ok(manifest) = RelPath::new(&path) else { return false };
    if !repo.exists(manifest) {
        return false;
    }
    let Some(text) = repo.read(manifest) else { return false };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
    let depends_on = |generator: &str| {
        ["dependencies", "devDependencies"].iter().filter_map(|k| json[k].as_object()).any(|deps| {
            deps.keys()
                .any(|name| if generator.ends_with('/') { name.starts_with(generator) } else { name == generator })
        })
    };
    !SITE_GENERATORS.iter().any(|generator| depends_on(generator))
}
