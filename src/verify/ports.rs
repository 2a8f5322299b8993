//! The loopback ports verify waits for: which port a service listens on, and whether
//! something answers there.

use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use crate::envfile::child::signals;

/// Whether something accepts connections on the loopback `port` right now.
pub(super) fn answers(port: u16) -> bool {
    TcpStream::connect_timeout(&SocketAddr::from((Ipv4Addr::LOCALHOST, port)), Duration::from_millis(500)).is_ok()
}

/// `postgres:5432 redis:6379`.
pub(super) fn describe_services(services: &[(String, u16)]) -> String {
    services.iter().map(|(name, port)| format!("{name}:{port}")).collect::<Vec<_>>().join(" ")
}

/// Wait until something accepts connections on the loopback `port`, or `deadline`.
/// Returns how long it took (`Err` when it never opened).
pub fn wait_for_port(port: u16, deadline: Instant) -> Result<Duration, Duration> {
    let began = Instant::now();
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    loop {
        if TcpStream::connect_timeout(&address, Duration::from_millis(250)).is_ok() {
            return Ok(began.elapsed());
        }
        if Instant::now() >= deadline || signals::received().is_some() {
            return Err(began.elapsed());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The loopback port to wait for: the host port the compose file or CI job publishes for the
/// service's own port (`5433:5432` for postgres), else its default port.
pub fn service_port(service: &str, published: &[String]) -> Option<u16> {
    let default = default_port(service);
    let mapped = published.iter().find_map(|mapping| {
        let (host, container) = mapping.rsplit_once(':')?;
        let container = container.split('/').next()?.parse::<u16>().ok()?;
        let host = host.parse::<u16>().ok()?;
        (Some(container) == default || published.len() == 1).then_some(host)
    });
    mapped.or(default)
}

/// The port a service listens on by default, for the canonical names detection uses.
pub fn default_port(service: &str) -> Option<u16> {
    Some(match service {
        "postgres" | "timescaledb" | "pgvector" => 5432,
        "mysql" | "mariadb" | "percona" => 3306,
        "redis" | "valkey" | "keydb" | "dragonfly" => 6379,
        "mongodb" => 27017,
        "rabbitmq" => 5672,
        "kafka" | "redpanda" => 9092,
        "zookeeper" => 2181,
        "elasticsearch" | "opensearch" => 9200,
        "minio" => 9000,
        "memcached" => 11211,
        "nats" => 4222,
        "cassandra" | "scylla" => 9042,
        "clickhouse" => 8123,
        "couchdb" => 5984,
        "neo4j" => 7687,
        "influxdb" => 8086,
        "etcd" => 2379,
        "consul" => 8500,
        "vault" => 8200,
        "localstack" => 4566,
        "dynamodb" => 8000,
        "mssql" | "sqlserver" => 1433,
        "meilisearch" => 7700,
        "typesense" => 8108,
        "qdrant" => 6333,
        "mailhog" | "mailpit" => 1025,
        "azurite" => 10000,
        "selenium" => 4444,
        "temporal" => 7233,
        _ => return None,
    })
}
