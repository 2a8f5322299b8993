//! Secret values on the client (DESIGN.md §5): reading them, and where the API token lives.
//! Values stay in `secrecy` types; nothing here implements `Debug`/`Display` of a value.
