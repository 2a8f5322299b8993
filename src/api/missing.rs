//! "No environment named X": the refusal for a repo name the org does not have, with the
//! org's closest names. A domain error, so the exit-code map above it can name it.

use crate::diagnostic::{Diagnostic, Exit};
use crate::text::printable_line;

/// What a command says when the repo it names has no environment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// A read, or a delete: nothing there to act on.
    Read,
    /// A secret write: it would create the environment (`--create` allows that).
    Write,
}

/// The org has no environment under the name a command was given.
#[derive(Debug, thiserror::Error)]
#[error("no environment named {} in this org{}", printable_line(repo), did_you_mean(suggestions))]
pub struct NoEnvironment {
    pub repo: String,
    /// The org's names closest to `repo`.
    pub suggestions: Vec<String>,
    pub missing: Missing,
}

impl Diagnostic for NoEnvironment {
    fn exit(&self) -> Exit {
        Exit::Remote
    }
    fn hint(&self) -> Option<String> {
        Some(match self.missing {
            Missing::Read => {
                "`hanzo-env list` shows the org's environments; --repo and --org choose another".to_string()
            }
            Missing::Write => format!(
                "save its environment first (`hanzo-env save` in its checkout), or pass --create to set secrets on \
                 {} before anything is saved",
                printable_line(&self.repo)
            ),
        })
    }
}

/// The "no environment named X" refusal, with the closest of `known`.
pub fn no_environment(repo: &str, known: &[String], missing: Missing) -> NoEnvironment {
    let suggestions = closest(repo, known).into_iter().map(str::to_string).collect();
    NoEnvironment { repo: repo.to_string(), suggestions, missing }
}

fn did_you_mean(suggestions: &[String]) -> String {
    if suggestions.is_empty() {
        return String::new();
    }
    let names: Vec<String> = suggestions.iter().map(|n| printable_line(n).into_owned()).collect();
    format!("; did you mean {}?", names.join(" or "))
}

/// Up to three of `known` that look like `name` (a typo, another letter case), closest first.
pub fn closest<'a>(name: &str, known: &'a [String]) -> Vec<&'a str> {
    let lower = name.to_lowercase();
    let mut scored: Vec<(f64, &str)> = known
        .iter()
        .map(|candidate| (strsim::jaro_winkler(&lower, &candidate.to_lowercase()), candidate.as_str()))
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_names_are_suggested() {
        let known: Vec<String> = ["site", "api", "website", "Shop"].iter().map(|s| s.to_string()).collect();
        assert_eq!(closest("sitte", &known), ["site"]);
        assert_eq!(closest("shop", &known), ["Shop"]);
        assert!(closest("zzz", &known).is_empty());
        let err = no_environment("sitte", &known, Missing::Write);
        assert_eq!(err.to_string(), "no environment named sitte in this org; did you mean site?");
        assert!(err.hint().unwrap().contains("--create"));
        assert_eq!(err.exit(), Exit::Remote);
    }
}
