//! pydantic-settings' nested models: with `env_nested_delimiter="__"` in the settings class's
//! config, a field typed by a model (`db: Database`) is read field by field, each as the
//! field's variable, the delimiter and the model's field (`APP_DB__PASSWORD` under
//! `env_prefix="APP_"`), the prefix applied once at the front.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::Class;

/// How deep models nest before the walk stops (a model holding itself would never end).
pub const MAX_DEPTH: usize = 4;

/// The delimiter a settings class nests under and the classes of its file a field may be
/// typed by.
pub struct Nesting {
    pub delimiter: String,
    models: Vec<(String, Range<usize>)>,
}

impl Nesting {
    /// The nesting of the settings class `class` (its `env_nested_delimiter`), or `None` when
    /// it sets none: then a model field is one variable holding JSON.
    pub fn of(text: &str, class: &Class, classes: &[Class]) -> Option<Nesting> {
        static DELIMITER: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r#"(?-u:\b)env_nested_delimiter[[:space:]]*[=:][[:space:]]*['"]([^'"[:space:]]+)['"]"#)
                .expect("the env_nested_delimiter pattern is valid")
        });
        let delimiter = DELIMITER.captures(&text[class.body.clone()])?.get(1)?.as_str().to_string();
        let models = classes
            .iter()
            .filter(|model| model.name != class.name)
            .map(|model| (model.name.to_string(), model.body.clone()))
            .collect();
        Some(Nesting { delimiter, models })
    }

    /// The body of the model a field's `annotation` names (`Database`, `Optional[Database]`,
    /// `Database | None`), if the file defines it.
    pub fn model(&self, annotation: &str) -> Option<Range<usize>> {
        let bare = annotation.trim().trim_start_matches("Optional[").trim_end_matches(']');
        let bare = bare.split('|').map(str::trim).find(|part| *part != "None")?;
        let bare = bare.trim_matches(['"', '\'']);
        self.models.iter().find(|(name, _)| name == bare).map(|(_, body)| body.clone())
    }
}
