//! Image references: the canonical product an image is (`bitnami/postgresql:15` → postgres),
//! its tag, and whether it is a backing service the tests need (a database, a broker, an
//! emulator) rather than the app itself, a proxy or an admin UI.

/// `postgres:16-alpine`, `docker.io/library/postgres`, `bitnami/postgresql:15` → `postgres`.
///
/// Registry host, namespace, tag and digest are stripped; well-known product images that are
/// published under another repository name are mapped to the product (`mongo` → `mongodb`,
/// `amazon/dynamodb-local` → `dynamodb`, `mcr.microsoft.com/mssql/server` → `mssql`,
/// `confluentinc/cp-kafka` → `kafka`, `redis/redis-stack` → `redis`, …).
pub fn canonical_service(image: &str) -> String {
    let image = image.trim().to_ascii_lowercase();
    let without_digest = image.split('@').next().unwrap_or(&image);
    let mut parts: Vec<&str> = without_digest.split('/').filter(|p| !p.is_empty()).collect();
    // The tag follows the last `:` of the last component (a registry port has its own `/`).
    if let Some(last) = parts.last_mut() {
        *last = last.split(':').next().unwrap_or(last);
    }
    // A first component with a `.` or `:` (or `localhost`) is a registry host.
    if parts.len() > 1 && (parts[0].contains('.') || parts[0].contains(':') || parts[0] == "localhost") {
        parts.remove(0);
    }
    if parts.first() == Some(&"library") && parts.len() > 1 {
        parts.remove(0);
    }
    let path = parts.join("/");
    if let Some(&(_, product)) = BY_PATH.iter().find(|(p, _)| *p == path) {
        return product.into();
    }
    let last = parts.last().copied().unwrap_or_default();
    if let Some(&(_, product)) = BY_NAME.iter().find(|(n, _)| *n == last) {
        return product.into();
    }
    if let Some(&(_, product)) = BY_NAME_PREFIX.iter().find(|(prefix, _)| last.starts_with(prefix)) {
        return product.into();
    }
    // A product's own build with a variant word (`postgres-ssl`, `redis-alpine`,
    // `test-openldap`), not a tool around it (`postgres-exporter`, `redis-commander`).
    let words: Vec<&str> = last.split('-').collect();
    let mut products = words.iter().filter(|w| is_backing_service(w));
    if words.len() > 1
        && let (Some(product), None) = (products.next(), products.next())
        && !words.iter().any(|w| TOOLS_AROUND_A_PRODUCT.contains(w))
    {
        return product.to_string();
    }
    // The product's own namespace with a build named for how it runs (`greenmail/standalone`,
    // `foo/server`): the namespace is the product.
    if let [.., namespace, _] = parts.as_slice()
        && ["standalone", "server", "local", "community", "oss"].contains(&last)
        && is_backing_service(namespace)
    {
        return namespace.to_string();
    }
    last.to_string()
}

/// The backing service a container runs: its image's product, or, for an image that names
/// no product (`redislabs/client-libs-test`, a client library's own server build), the
/// product its service is named for (`redis:`). An image that names a product and is not
/// it (`redis-commander`) is a tool beside it, whatever its name.
pub fn backing_product(image: &str, service_name: &str) -> Option<String> {
    let product = canonical_service(image);
    if is_backing_service(&product) {
        return Some(product);
    }
    let path = image.split(['@', ':']).next().unwrap_or(image).to_ascii_lowercase();
    let names_a_product = path.split(['/', '-', '_', '.']).any(is_backing_service);
    let named_for = canonical_service(service_name);
    (!names_a_product && is_backing_service(&named_for)).then_some(named_for)
}

/// Whether `word` makes `<product>-<word>` a tool beside a product (`exporter`, `admin`, `ui`).
pub fn is_tool_around_a_product(word: &str) -> bool {
    TOOLS_AROUND_A_PRODUCT.contains(&word)
}

/// Words that make `<product>-<word>` a tool beside the product rather than the product.
const TOOLS_AROUND_A_PRODUCT: &[&str] = &[
    "exporter",
    "backup",
    "backups",
    "operator",
    "admin",
    "ui",
    "web",
    "commander",
    "insight",
    "proxy",
    "bouncer",
    "client",
    "cli",
    "dashboard",
    "monitor",
    "migrate",
    "migrations",
    "init",
    "setup",
    "sidecar",
    "connector",
    "browser",
    "manager",
];

/// Images published under a generic repository name, matched on the full path.
const BY_PATH: &[(&str, &str)] = &[
    ("mssql/server", "mssql"),
    ("mssql/rhel/server", "mssql"),
    ("azure-sql-edge", "mssql"),
    ("azure-sql-edge/azure-sql-edge", "mssql"),
    ("azure-storage/azurite", "azurite"),
    ("oracle/database", "oracle"),
    ("apache/kafka", "kafka"),
    ("apache/kafka-native", "kafka"),
    ("apache/pulsar", "pulsar"),
    ("apache/activemq-artemis", "activemq"),
    ("apache/solr", "solr"),
    ("temporalio/auto-setup", "temporal"),
    ("temporalio/server", "temporal"),
    ("google/cloud-sdk", "gcloud-emulator"),
    ("fsouza/fake-gcs-server", "fake-gcs-server"),
];

/// Repository names (the last path component) that name a product differently.
const BY_NAME: &[(&str, &str)] = &[
    ("postgresql", "postgres"),
    ("postgis", "postgres"),
    ("pgvector", "postgres"),
    ("timescaledb", "postgres"),
    ("timescaledb-ha", "postgres"),
    ("postgresql-repmgr", "postgres"),
    ("mongo", "mongodb"),
    ("mongodb-community-server", "mongodb"),
    ("dynamodb-local", "dynamodb"),
    ("redis-stack", "redis"),
    ("redis-stack-server", "redis"),
    ("redis-cluster", "redis"),
    ("mysql-server", "mysql"),
    ("percona-server", "mysql"),
    ("cp-kafka", "kafka"),
    ("cp-server", "kafka"),
    ("cp-zookeeper", "zookeeper"),
    ("cp-schema-registry", "schema-registry"),
    ("clickhouse-server", "clickhouse"),
    ("cockroach", "cockroachdb"),
    ("nats-streaming", "nats"),
    ("rabbitmq-management", "rabbitmq"),
    ("elasticmq-native", "elasticmq"),
    ("scylla", "scylladb"),
    ("memcache", "memcached"),
    ("oracle-xe", "oracle"),
    ("oracle-free", "oracle"),
    ("dragonfly", "dragonfly"),
    ("eclipse-mosquitto", "mosquitto"),
];

/// Repository names whose variants share a prefix (`standalone-chrome-debug`, `oracle-xe-11g`).
const BY_NAME_PREFIX: &[(&str, &str)] = &[
    ("standalone-chrome", "selenium"),
    ("standalone-firefox", "selenium"),
    ("standalone-edge", "selenium"),
    ("oracle-xe", "oracle"),
    ("oracle-18-xe", "oracle"),
    ("mssql-server", "mssql"),
];

/// Products that run beside the app for its tests: data stores, brokers, caches, search,
/// object stores, mail catchers, cloud emulators, browsers. Proxies, admin UIs and dashboards
/// (nginx, traefik, adminer, pgadmin, grafana, …) are not here: tests do not need them.
const BACKING_SERVICES: &[&str] = &[
    "activemq",
    "arangodb",
    "azurite",
    "beanstalkd",
    "cassandra",
    "chroma",
    "clickhouse",
    "cockroachdb",
    "consul",
    "couchbase",
    "couchdb",
    "dragonfly",
    "dynamodb",
    "elasticmq",
    "elasticsearch",
    "emqx",
    "etcd",
    "fake-gcs-server",
    "gotenberg",
    "greenmail",
    "httpbin",
    "inbucket",
    "influxdb",
    "kafka",
    "keycloak",
    "keydb",
    "localstack",
    "mailcatcher",
    "maildev",
    "mailhog",
    "mailpit",
    "mariadb",
    "meilisearch",
    "memcached",
    "memgraph",
    "milvus",
    "minio",
    "mockserver",
    "mongodb",
    "mosquitto",
    "mssql",
    "mysql",
    "nats",
    "neo4j",
    "openldap",
    "opensearch",
    "oracle",
    "postgres",
    "pulsar",
    "qdrant",
    "questdb",
    "rabbitmq",
    "ravendb",
    "redis",
    "redpanda",
    "schema-registry",
    "scylladb",
    "selenium",
    "smtp4dev",
    "solr",
    "surrealdb",
    "temporal",
    "tika",
    "toxiproxy",
    "typesense",
    "valkey",
    "vault",
    "weaviate",
    "wiremock",
    "zookeeper",
];

/// The tag of an image reference (`python:3.12-slim` → `3.12-slim`), "" when it has none.
pub fn tag(image: &str) -> &str {
    image.rsplit('/').next().and_then(|last| last.split_once(':')).map(|(_, tag)| tag).unwrap_or_default()
}

/// True when `canonical` (a [`canonical_service`] name) is a service tests run against.
pub fn is_backing_service(canonical: &str) -> bool {
    BACKING_SERVICES.binary_search(&canonical).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_registry_namespace_tag_and_digest() {
        for (image, want) in [
            ("postgres", "postgres"),
            ("postgres:16-alpine", "postgres"),
            ("docker.io/library/postgres:16", "postgres"),
            ("library/redis", "redis"),
            ("localhost:5000/redis:7", "redis"),
            ("ghcr.io/acme/tools/minio:latest", "minio"),
            ("mysql@sha256:0123abcd", "mysql"),
            ("MySQL:8", "mysql"),
            ("quay.io/minio/minio:RELEASE.2024", "minio"),
            // A variant build is the product; a tool named after it is not.
            ("ghcr.io/railwayapp-templates/postgres-ssl:18", "postgres"),
            ("acme/redis-alpine", "redis"),
            ("prometheuscommunity/postgres-exporter", "postgres-exporter"),
            ("rediscommander/redis-commander", "redis-commander"),
        ] {
            assert_eq!(canonical_service(image), want, "{image}");
        }
    }

    #[test]
    fn maps_products_published_under_other_names() {
        for (image, want) in [
            ("bitnami/postgresql:15", "postgres"),
            ("postgis/postgis:16-3.4", "postgres"),
            ("pgvector/pgvector:pg16", "postgres"),
            ("mongo:7", "mongodb"),
            ("amazon/dynamodb-local:2.0.0", "dynamodb"),
            ("mcr.microsoft.com/mssql/server:2022-latest", "mssql"),
            ("mcr.microsoft.com/azure-sql-edge", "mssql"),
            ("bitnami/redis", "redis"),
            ("redis/redis-stack:latest", "redis"),
            ("docker.elastic.co/elasticsearch/elasticsearch:8.13.0", "elasticsearch"),
            ("opensearchproject/opensearch:2", "opensearch"),
            ("confluentinc/cp-kafka:7.6.0", "kafka"),
            ("confluentinc/cp-zookeeper:7.6.0", "zookeeper"),
            ("bitnami/kafka:3.7", "kafka"),
            ("localstack/localstack:3", "localstack"),
            ("axllent/mailpit", "mailpit"),
            ("mailhog/mailhog", "mailhog"),
            ("mysql/mysql-server:5.7", "mysql"),
            ("clickhouse/clickhouse-server:24", "clickhouse"),
            ("cockroachdb/cockroach:v23.2.0", "cockroachdb"),
            ("selenium/standalone-chrome-debug", "selenium"),
            ("gvenzl/oracle-xe:21-slim", "oracle"),
            ("mcr.microsoft.com/azure-storage/azurite", "azurite"),
            ("schickling/beanstalkd", "beanstalkd"),
            ("valkey/valkey:8", "valkey"),
            ("docker.io/greenmail/standalone:2.1.11", "greenmail"),
            ("rroemhild/test-openldap", "openldap"),
            ("acme/ci-redis-cluster", "redis"),
            ("oliver006/redis_exporter", "redis_exporter"),
        ] {
            assert_eq!(canonical_service(image), want, "{image}");
        }
    }

    #[test]
    fn tells_backing_services_from_other_images() {
        for image in [
            "postgres:16",
            "amazon/dynamodb-local",
            "memcached:1.6-alpine",
            "axllent/mailpit",
            "apache/tika:latest",
            "eclipse-mosquitto:2",
        ] {
            assert!(is_backing_service(&canonical_service(image)), "{image}");
        }
        for image in ["nginx:alpine", "traefik:v3", "adminer", "dpage/pgadmin4", "grafana/grafana", "ghcr.io/acme/app"]
        {
            assert!(!is_backing_service(&canonical_service(image)), "{image}");
        }
    }

    #[test]
    fn an_image_that_names_no_product_runs_what_its_service_is_named_for() {
        assert_eq!(backing_product("redislabs/client-libs-test:8.2.0", "redis").as_deref(), Some("redis"));
        assert_eq!(backing_product("postgres:17", "db").as_deref(), Some("postgres"));
        // A tool around a product is not that product, whatever its service is called.
        assert_eq!(backing_product("rediscommander/redis-commander", "redis"), None);
        assert_eq!(backing_product("ghcr.io/acme/app:1", "api"), None);
    }

    #[test]
    fn backing_list_is_sorted_for_binary_search() {
        assert!(BACKING_SERVICES.windows(2).all(|w| w[0] < w[1]));
    }
}
