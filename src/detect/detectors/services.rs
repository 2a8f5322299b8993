//! Service names: the canonical product for an image reference.

/// `postgres:16-alpine`, `docker.io/library/postgres`, `bitnami/postgresql:15` → `postgres`.
pub fn canonical_service(image: &str) -> String {
    let without_digest = image.split('@').next().unwrap_or(image);
    let last = without_digest.rsplit('/').next().unwrap_or(without_digest);
    let repo = last.split(':').next().unwrap_or(last).to_ascii_lowercase();
    match repo.as_str() {
        "postgresql" | "postgis" => "postgres".into(),
        "mongo" => "mongodb".into(),
        "dynamodb-local" => "dynamodb".into(),
        _ => repo,
    }
}
