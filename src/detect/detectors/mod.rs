//! Detectors, one file per ecosystem or signal, run in the order of [`ALL`].
//! Each is a small pure function over the [`Repo`] view that appends to [`Findings`].

pub mod ci;
pub mod clojure;
pub mod compose;
pub mod cpp;
pub mod dart;
pub mod deno;
pub mod devcontainer;
pub mod dotnet;
pub mod eco;
pub mod elixir;
pub mod go;
pub mod haskell;
pub mod java;
pub mod nix;
pub mod node;
pub mod php;
pub mod python;
pub mod ruby;
pub mod rust;
pub mod scala;
pub mod secrets;
pub mod services;
pub mod swift;
pub mod tasks;
pub mod toolversions;
pub mod zig;

use crate::detect::{Findings, Repo};

/// A detector: reads what it needs from the repo, reports what it found.
pub type Detector = fn(&Repo, &mut Findings);

/// Every detector, in the order their findings are merged (toolchains before tools that
/// use them, languages before the signals that refer to them).
pub const ALL: &[(&str, Detector)] = &[
    ("toolversions", toolversions::detect),
    ("nix", nix::detect),
    ("devcontainer", devcontainer::detect),
    ("node", node::detect),
    ("deno", deno::detect),
    ("python", python::detect),
    ("rust", rust::detect),
    ("go", go::detect),
    ("java", java::detect),
    ("ruby", ruby::detect),
    ("php", php::detect),
    ("elixir", elixir::detect),
    ("dotnet", dotnet::detect),
    ("swift", swift::detect),
    ("dart", dart::detect),
    ("zig", zig::detect),
    ("cpp", cpp::detect),
    ("haskell", haskell::detect),
    ("scala", scala::detect),
    ("clojure", clojure::detect),
    ("compose", compose::detect),
    ("ci", ci::detect),
    ("tasks", tasks::detect),
    ("secrets", secrets::detect),
];
