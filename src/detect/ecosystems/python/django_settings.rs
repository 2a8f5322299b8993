//! Django's settings modules: `manage.py` names the one development runs
//! (`os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site.settings.local")`). The other
//! modules of that settings package, but those it imports, are other deployments' (a
//! `cabotage.py` or `heroku.py` beside `local.py` and `base.py`): a deployment gives what they
//! read, so none of it is required to develop.

use std::sync::{Arc, LazyLock};

use regex::Regex;

use crate::detect::sources::Sources;
use crate::rel_path::RelPath;

/// The texts of the project's settings modules: `settings.py`, and the modules of a
/// `settings/` or `conf/` package (with its `includes/`), where Django projects configure it
/// (`manage.py` may name the module through a helper of the project).
pub fn settings_texts(sources: &Sources) -> Vec<Arc<str>> {
    let repo = sources.repo();
    let in_package = |dir: &str| dir.split('/').any(|part| part == "settings" || part == "conf");
    repo.files()
        .filter(|file| file.name().ends_with(".py") && file.is_own())
        .filter(|file| file.name() == "settings.py" || in_package(file.dir()))
        .take(MAX_SETTINGS_MODULES)
        .filter_map(|file| repo.read(file.path()))
        .collect()
}

/// Settings modules read at most: a project has a handful.
const MAX_SETTINGS_MODULES: usize = 64;

static DEFAULT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"setdefault\([[:space:]]*["']DJANGO_SETTINGS_MODULE["'][[:space:]]*,[[:space:]]*["']([[:word:].]+)["']"#,
    )
    .expect("the DJANGO_SETTINGS_MODULE pattern is valid")
});

/// Whether `rel` is a settings module of the package `manage.py` takes development's from,
/// other than that module and the modules it imports.
pub fn is_another_deployments(sources: &Sources, rel: &RelPath) -> bool {
    let Some(stem) = rel.file_name().strip_suffix(".py") else { return false };
    if stem == "__init__" || rel.parent().split('/').next_back().is_none_or(|d| d != "settings") {
        return false;
    }
    let repo = sources.repo();
    for manage in repo.named("manage.py") {
        let Some(text) = repo.read(manage) else { continue };
        let Some(module) = DEFAULT.captures(&text).and_then(|c| c.get(1)) else { continue };
        let Some((package, development)) = module.as_str().rsplit_once('.') else { continue };
        let dir = manage.parent().join_normalized(&package.replace('.', "/")).unwrap_or_default();
        if dir.as_str() != rel.parent() || development == stem {
            continue;
        }
        // `from .base import *`, `from site.settings.base import *`: what development builds on.
        let development_text = repo.read(dir.join(RelPath::trusted(&format!("{development}.py")))).unwrap_or_default();
        let imported = [format!(".{stem} import"), format!("import {stem}")];
        return !imported.iter().any(|i| development_text.contains(i.as_str()));
    }
    false
}
