//! Per toolchain and package manager: the GitHub Action that sets it up and the dev-container
//! feature that installs it. One sorted table each, so adding a tool is one row.
//!
//! Action majors are the newest that the pinned actionlint (`.ci/validators`) knows the
//! inputs of, so the tests check every `with:` key the workflow uses.

/// How a toolchain is set up in Actions: `uses`, the input its version goes in, and inputs
/// it always needs.
pub struct SetupAction {
    pub uses: &'static str,
    pub version_input: &'static str,
    pub fixed: &'static [(&'static str, &'static str)],
    /// Set up even without a pinned version (the tool is not on the runner image and the
    /// action's default version is a sensible one).
    pub when_unpinned: bool,
}

/// Toolchain name (as detection reports it) → its setup action. Sorted by name.
const ACTIONS: &[(&str, SetupAction)] = &[
    (
        "bun",
        SetupAction { uses: "oven-sh/setup-bun@v2", version_input: "bun-version", fixed: &[], when_unpinned: true },
    ),
    ("dart", SetupAction { uses: "dart-lang/setup-dart@v1", version_input: "sdk", fixed: &[], when_unpinned: true }),
    (
        "deno",
        SetupAction { uses: "denoland/setup-deno@v2", version_input: "deno-version", fixed: &[], when_unpinned: true },
    ),
    (
        "dotnet",
        SetupAction {
            uses: "actions/setup-dotnet@v4",
            version_input: "dotnet-version",
            fixed: &[],
            when_unpinned: false,
        },
    ),
    (
        "flutter",
        SetupAction {
            uses: "subosito/flutter-action@v2",
            version_input: "flutter-version",
            fixed: &[],
            when_unpinned: true,
        },
    ),
    ("go", SetupAction { uses: "actions/setup-go@v5", version_input: "go-version", fixed: &[], when_unpinned: false }),
    (
        "haskell",
        SetupAction {
            uses: "haskell-actions/setup@v2",
            version_input: "ghc-version",
            fixed: &[],
            when_unpinned: false,
        },
    ),
    (
        "java",
        SetupAction {
            uses: "actions/setup-java@v4",
            version_input: "java-version",
            fixed: &[("distribution", "temurin")],
            when_unpinned: false,
        },
    ),
    (
        "node",
        SetupAction { uses: "actions/setup-node@v4", version_input: "node-version", fixed: &[], when_unpinned: false },
    ),
    (
        "php",
        SetupAction {
            uses: "shivammathur/setup-php@v2",
            version_input: "php-version",
            fixed: &[],
            when_unpinned: false,
        },
    ),
    (
        "python",
        SetupAction {
            uses: "actions/setup-python@v5",
            version_input: "python-version",
            fixed: &[],
            when_unpinned: false,
        },
    ),
    (
        "ruby",
        SetupAction { uses: "ruby/setup-ruby@v1", version_input: "ruby-version", fixed: &[], when_unpinned: false },
    ),
    (
        "rust",
        SetupAction {
            uses: "dtolnay/rust-toolchain@master",
            version_input: "toolchain",
            fixed: &[],
            when_unpinned: false,
        },
    ),
    (
        "swift",
        SetupAction {
            uses: "swift-actions/setup-swift@v2",
            version_input: "swift-version",
            fixed: &[],
            when_unpinned: false,
        },
    ),
    ("zig", SetupAction { uses: "mlugg/setup-zig@v2", version_input: "version", fixed: &[], when_unpinned: true }),
];

/// Erlang and Elixir share one action, which needs the OTP version whenever it runs.
pub const BEAM_ACTION: &str = "erlef/setup-beam@v1";

pub fn setup_action(toolchain: &str) -> Option<&'static SetupAction> {
    ACTIONS.binary_search_by(|(name, _)| name.cmp(&toolchain)).ok().map(|i| &ACTIONS[i].1)
}

/// Package manager → (`uses`, the input its version goes in). Managers not here are set
/// up by the install script (corepack for yarn, pip for poetry, …) or by their toolchain.
const MANAGER_ACTIONS: &[(&str, &str, &str)] = &[
    ("pdm", "pdm-project/setup-pdm@v4", "version"),
    ("pnpm", "pnpm/action-setup@v4", "version"),
    ("uv", "astral-sh/setup-uv@v6", "version"),
];

pub fn manager_action(manager: &str) -> Option<(&'static str, &'static str)> {
    MANAGER_ACTIONS
        .binary_search_by(|(name, ..)| name.cmp(&manager))
        .ok()
        .map(|i| (MANAGER_ACTIONS[i].1, MANAGER_ACTIONS[i].2))
}

/// Toolchain → the official dev-container feature that installs it (its `version` option
/// takes the pin). Sorted by name.
const FEATURES: &[(&str, &str)] = &[
    ("dotnet", "ghcr.io/devcontainers/features/dotnet:2"),
    ("go", "ghcr.io/devcontainers/features/go:1"),
    ("java", "ghcr.io/devcontainers/features/java:1"),
    ("node", "ghcr.io/devcontainers/features/node:1"),
    ("php", "ghcr.io/devcontainers/features/php:1"),
    ("python", "ghcr.io/devcontainers/features/python:1"),
    ("ruby", "ghcr.io/devcontainers/features/ruby:1"),
    ("rust", "ghcr.io/devcontainers/features/rust:1"),
];

pub fn feature(toolchain: &str) -> Option<&'static str> {
    FEATURES.binary_search_by(|(name, _)| name.cmp(&toolchain)).ok().map(|i| FEATURES[i].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(ACTIONS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(MANAGER_ACTIONS.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(FEATURES.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(setup_action("python").map(|a| a.uses), Some("actions/setup-python@v5"));
        assert!(setup_action("cobol").is_none());
        assert_eq!(manager_action("uv"), Some(("astral-sh/setup-uv@v6", "version")));
        assert_eq!(feature("go"), Some("ghcr.io/devcontainers/features/go:1"));
    }

    /// Every toolchain the tables name is one detection reports (findings.rs lists them).
    #[test]
    fn every_row_names_a_detected_toolchain() {
        const DETECTED: &[&str] = &[
            "node", "python", "rust", "go", "java", "kotlin", "ruby", "php", "elixir", "erlang", "dotnet", "deno",
            "bun", "swift", "dart", "flutter", "zig", "cpp", "haskell", "scala", "clojure",
        ];
        for name in ACTIONS.iter().map(|(n, _)| *n).chain(FEATURES.iter().map(|(n, _)| *n)) {
            assert!(DETECTED.contains(&name), "{name}");
        }
    }
}
