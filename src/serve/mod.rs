//! `hanzo-env serve`: a local, durable, sealed implementation of the API (DESIGN.md §8).
