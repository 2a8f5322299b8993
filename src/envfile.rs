//! The env contract for local runs (DESIGN.md §7): resolving `[env]`, and env files.
