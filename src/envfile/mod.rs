//! The env contract for local runs (DESIGN.md §7): resolving `[env]` ([`resolve`]), env
//! files ([`write`]), and the environment and signals of the children ([`child`]).

pub mod child;
pub mod resolve;
pub mod write;

pub use child::ChildEnv;
pub use resolve::{Problem, Prompter, ResolveError, Resolved, resolve};
