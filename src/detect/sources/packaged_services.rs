//! Backing services without Docker: which distribution package provides a product, the port
//! its image listens on, and the arguments its stock helper (`src/plan/helpers/`) takes to
//! start it as a daemon configured from what the compose file or CI job gives the container
//! (user, password, database name, published port), so the tests connect to it as they would
//! to the container. A leaf: no ecosystem names, no findings.
//!
//! Decisions:
//! - Debian and Ubuntu (`apt-get`, root or passwordless `sudo`): elsewhere the install prints
//!   one line naming the packages it needs, and the start one line per service it cannot
//!   start. Nothing prompts: `DEBIAN_FRONTEND=noninteractive`, `-y`, `sudo -n`.
//! - postgres → `postgresql`: one cluster per port (`pg_createcluster`, `pg_ctlcluster`);
//!   with no password known (none given, or a CI secret), loopback connections are trusted,
//!   so whatever password the tests send is accepted.
//! - mysql, mariadb → `mariadb-server` (Debian has no MySQL; MariaDB speaks its protocol),
//!   one server per machine, answering a second service's port too (its `extra_port`: CI
//!   jobs that test against MySQL and MariaDB at once); root keeps its socket login and gets the password the image
//!   would give it. redis, valkey → `redis-server` (Valkey is not packaged in Debian 12 or
//!   Ubuntu 24.04; it speaks Redis' protocol), without persistence. memcached → `memcached`.
//!   rabbitmq → `rabbitmq-server`, one node per machine, its user set at its first boot.
//! - mongodb, elasticsearch, opensearch and the rest: no Debian or Ubuntu package (MongoDB
//!   and Elasticsearch left over their licences; OpenSearch was never packaged), so Docker only.
//! - Servers listen on loopback only. A port that already answers is left alone.
//! - Every value from a compose file or CI job is untrusted: shell-quoted as an argument of a
//!   function, never part of the code; values with control characters are left out. SQL is
//!   built in the shell with quotes doubled and fed to the client on stdin, the Redis password
//!   goes in through its config on stdin: no password is ever an argument of a process.

use crate::evidence::Evidence;
use crate::warning::Warning;
use std::collections::BTreeMap;

use crate::detect::sources::images::tag;
pub use crate::plan::render::{DockerUp, ServiceCall};

/// A service product the distributions package.
#[derive(Debug)]
pub struct Product {
    /// The canonical names it serves ([`crate::detect::sources::images::canonical_service`]).
    names: &'static [&'static str],
    /// The Debian/Ubuntu package.
    pub package: &'static str,
    /// The port its image listens on: the container side of a `ports:` mapping.
    pub port: u16,
    /// One server per machine (it is configured through the package's own files), answering
    /// at most this many ports: definitions on further ports are left to Docker. `None`: one
    /// server per port.
    pub ports_per_machine: Option<usize>,
    /// Each definition's user and database can be added to a server already started on its
    /// port (what a CI job's service says beside the compose file's).
    pub accounts: bool,
    /// Its command-line clients: a CI step that runs one before the tests prepares the
    /// server (roles, schemas), so start runs it too.
    clients: &'static [&'static str],
    /// Its stock helper is `hanzo_<helper>` (`src/plan/helpers/`), started as
    /// `hanzo_service <helper> PORT ARG…`.
    helper: &'static str,
    /// The helper's arguments after the port, unquoted.
    arguments: fn(&Definition, &mut Vec<Warning>) -> Vec<String>,
}

/// What the compose file or CI job says about one service.
#[derive(Debug, Clone, Copy)]
pub struct Definition<'a> {
    pub product: &'a str,
    pub image: Option<&'a str>,
    /// Published ports as `HOST:CONTAINER`.
    pub ports: &'a [String],
    pub env: &'a BTreeMap<String, String>,
    /// Where it is defined, for warnings.
    pub source: &'a Evidence,
}

impl Definition<'_> {
    /// The host port published for `container`, else `container` itself (a port only the
    /// compose network sees is served on the same port here).
    fn host_port(&self, container: u16) -> u16 {
        self.ports
            .iter()
            .filter_map(|mapping| mapping.split_once(':'))
            .find(|(_, inner)| inner.parse() == Ok(container))
            .and_then(|(host, _)| host.parse().ok())
            .unwrap_or(container)
    }

    /// The first of `keys` the environment sets; a value with control characters is left out
    /// with a warning (it would break the line it is written on).
    fn setting(&self, keys: &[&str], warnings: &mut Vec<Warning>) -> Option<String> {
        // Empty is unset: the images' entrypoints fall back to their defaults alike.
        let (key, value) = keys.iter().find_map(|k| self.env.get(*k).filter(|v| !v.is_empty()).map(|v| (*k, v)))?;
        if value.chars().any(char::is_control) {
            warnings.push(Warning::at(
                self.source,
                format!("{key} holds control characters; left out of the start without Docker"),
            ));
            return None;
        }
        Some(value.clone())
    }
}

/// A native start of one service: the call of its product's helper.
#[derive(Debug, Clone)]
pub struct NativeStart {
    pub product: &'static Product,
    /// The product as the definition names it (`mariadb`, `valkey`).
    pub service: String,
    pub port: u16,
    /// The helper's arguments, the port first (`5433 app secret app`), unquoted.
    pub args: Vec<String>,
    /// Where the service is defined.
    pub source: Evidence,
}

impl NativeStart {
    /// The plan's call of it.
    pub fn call(&self) -> ServiceCall {
        ServiceCall { product: self.product.helper, args: self.args.clone(), source: self.source.clone() }
    }
}

/// Whether `program` is the command-line client of a product served here (`psql`).
pub fn is_client(program: &str) -> bool {
    PRODUCTS.iter().any(|p| p.clients.contains(&program))
}

/// The product that serves `product` from a distribution package, if any.
pub fn native(product: &str) -> Option<&'static Product> {
    PRODUCTS.iter().find(|p| p.names.contains(&product))
}

impl Product {
    /// Its canonical name (`mysql` for mysql and mariadb).
    pub fn name(&self) -> &'static str {
        self.names[0]
    }

    /// The call that starts `definition` without Docker.
    pub fn start(&'static self, definition: &Definition, warnings: &mut Vec<Warning>) -> NativeStart {
        let port = definition.host_port(self.port);
        let mut args = vec![port.to_string()];
        args.extend((self.arguments)(definition, warnings));
        NativeStart {
            product: self,
            service: definition.product.to_string(),
            port,
            args,
            source: definition.source.clone(),
        }
    }
}

const PRODUCTS: &[Product] = &[
    Product {
        names: &["postgres"],
        package: "postgresql",
        port: 5432,
        ports_per_machine: None,
        accounts: true,
        clients: &["psql"],
        helper: "postgres",
        arguments: postgres_arguments,
    },
    Product {
        names: &["mysql", "mariadb"],
        package: "mariadb-server",
        port: 3306,
        ports_per_machine: Some(2),
        accounts: false,
        clients: &["mysql", "mariadb"],
        helper: "mysql",
        arguments: mysql_arguments,
    },
    Product {
        names: &["redis", "valkey"],
        package: "redis-server",
        port: 6379,
        ports_per_machine: None,
        accounts: false,
        clients: &["redis-cli", "valkey-cli"],
        helper: "redis",
        arguments: redis_arguments,
    },
    Product {
        names: &["memcached"],
        package: "memcached",
        port: 11211,
        ports_per_machine: None,
        accounts: false,
        clients: &[],
        helper: "memcached",
        arguments: |_, _| Vec::new(),
    },
    Product {
        names: &["rabbitmq"],
        package: "rabbitmq-server",
        port: 5672,
        ports_per_machine: Some(1),
        accounts: false,
        clients: &[],
        helper: "rabbitmq",
        arguments: rabbitmq_arguments,
    },
];

/// USER PASSWORD DATABASE as the postgres image (or Bitnami's) reads them.
fn postgres_arguments(d: &Definition, warnings: &mut Vec<Warning>) -> Vec<String> {
    let user = d.setting(&["POSTGRES_USER", "POSTGRESQL_USERNAME"], warnings).unwrap_or_else(|| "postgres".into());
    let password = d.setting(&["POSTGRES_PASSWORD", "POSTGRESQL_PASSWORD"], warnings).unwrap_or_default();
    let database = d.setting(&["POSTGRES_DB", "POSTGRESQL_DATABASE"], warnings).unwrap_or_else(|| user.clone());
    vec![user, password, database]
}

/// DATABASE USER PASSWORD [ROOT_PASSWORD] as the mysql and mariadb images (or Bitnami's) read
/// them: the root password when one is given; a random one leaves root to its socket login;
/// none known (an empty one allowed, or one from a file or secret detection cannot read) is
/// an empty one, the way CI services usually run it.
fn mysql_arguments(d: &Definition, warnings: &mut Vec<Warning>) -> Vec<String> {
    let database = d.setting(&["MARIADB_DATABASE", "MYSQL_DATABASE"], warnings).unwrap_or_default();
    let user = d.setting(&["MARIADB_USER", "MYSQL_USER"], warnings).filter(|u| u != "root").unwrap_or_default();
    let password = d.setting(&["MARIADB_PASSWORD", "MYSQL_PASSWORD"], warnings).unwrap_or_default();
    let root = d.setting(&["MARIADB_ROOT_PASSWORD", "MYSQL_ROOT_PASSWORD"], warnings).filter(|p| !p.is_empty());
    let random_root = ["MARIADB_RANDOM_ROOT_PASSWORD", "MYSQL_RANDOM_ROOT_PASSWORD"]
        .iter()
        .any(|key| d.env.get(*key).is_some_and(|v| !v.is_empty() && !matches!(v.as_str(), "no" | "false" | "0")));
    let mut arguments = vec![database, user, password];
    match root {
        Some(root) => arguments.push(root),
        None if random_root => {}
        None => arguments.push(String::new()),
    }
    arguments
}

/// PASSWORD as Bitnami's redis image reads it (the official image takes none).
fn redis_arguments(d: &Definition, warnings: &mut Vec<Warning>) -> Vec<String> {
    vec![d.setting(&["REDIS_PASSWORD"], warnings).unwrap_or_default()]
}

/// USER PASSWORD VHOST MANAGEMENT_PORT as the rabbitmq image (or Bitnami's) reads them; the
/// management port only for a `management` image. The config file holds values to the end of
/// the line and takes `#` for a comment: values it cannot hold are left out with a warning.
fn rabbitmq_arguments(d: &Definition, warnings: &mut Vec<Warning>) -> Vec<String> {
    let mut value = |keys: &[&str]| {
        let value = d.setting(keys, warnings).unwrap_or_default();
        if value.contains('#') || value.trim() != value {
            warnings.push(Warning::at(
                d.source,
                format!(
                    "{} cannot be written to RabbitMQ's config (a `#` or surrounding spaces); left out of the start \
                     without Docker",
                    keys[0]
                ),
            ));
            return String::new();
        }
        value
    };
    let mut user = value(&["RABBITMQ_DEFAULT_USER", "RABBITMQ_USERNAME"]);
    let mut password = value(&["RABBITMQ_DEFAULT_PASS", "RABBITMQ_PASSWORD"]);
    let vhost = value(&["RABBITMQ_DEFAULT_VHOST", "RABBITMQ_VHOST"]);
    if user.is_empty() || password.is_empty() {
        // The image's own guest user, which the package makes too.
        user.clear();
        password.clear();
    }
    let management = d.image.is_some_and(|image| tag(image).contains("management"));
    let management = if management { d.host_port(15672).to_string() } else { String::new() };
    vec![user, password, vhost, management]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::ev;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn start(product: &str, image: &str, ports: &[&str], pairs: &[(&str, &str)]) -> (NativeStart, Vec<String>) {
        let ports: Vec<String> = ports.iter().map(|p| p.to_string()).collect();
        let env = env(pairs);
        let definition = Definition {
            product,
            image: Some(image),
            ports: &ports,
            env: &env,
            source: &ev("compose.yaml#services.x"),
        };
        let mut warnings = Vec::new();
        let start = native(product).expect("packaged").start(&definition, &mut warnings);
        (start, warnings.iter().map(ToString::to_string).collect())
    }

    /// Run `script` with bash; its stdout.
    fn bash(script: &str) -> String {
        let out = std::process::Command::new("bash").arg("-c").arg(script).output().expect("bash");
        assert!(out.status.success(), "{script}\n{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
    }

    /// The call of its helper as the plan renders it.
    fn call_line(start: &NativeStart) -> String {
        let args: Vec<String> = start.args.iter().map(|a| crate::plan::quote(a)).collect();
        format!("hanzo_{} {}", start.product.helper, args.join(" "))
    }

    /// The arguments a call hands its function, as bash sees them.
    fn arguments(call: &str) -> Vec<String> {
        let function = call.split(' ').next().unwrap();
        let out = bash(&format!("{function}() {{ printf '%s\\0' \"$@\"; }}\n{call}"));
        out.split_terminator('\0').map(str::to_string).collect()
    }

    #[test]
    fn products_by_canonical_name() {
        for (name, package) in [
            ("postgres", "postgresql"),
            ("mysql", "mariadb-server"),
            ("mariadb", "mariadb-server"),
            ("redis", "redis-server"),
            ("valkey", "redis-server"),
            ("memcached", "memcached"),
            ("rabbitmq", "rabbitmq-server"),
        ] {
            assert_eq!(native(name).map(|p| p.package), Some(package), "{name}");
        }
        for name in ["mongodb", "elasticsearch", "opensearch", "kafka", "minio", "mailpit", "dynamodb"] {
            assert!(native(name).is_none(), "{name}");
        }
    }

    #[test]
    fn the_published_host_port_is_served() {
        assert_eq!(start("postgres", "postgres:16", &["5433:5432"], &[]).0.port, 5433);
        assert_eq!(start("postgres", "postgres:16", &[], &[]).0.port, 5432);
        assert_eq!(start("redis", "redis", &["16380:6380"], &[]).0.port, 6379);
        let (rabbit, _) = start("rabbitmq", "rabbitmq:3-management", &["5673:5672", "15673:15672"], &[]);
        assert_eq!(call_line(&rabbit), "hanzo_rabbitmq 5673 '' '' '' 15673");
        assert_eq!(call_line(&start("rabbitmq", "rabbitmq:3", &[], &[]).0), "hanzo_rabbitmq 5672 '' '' '' ''");
    }

    #[test]
    fn settings_as_each_image_reads_them() {
        let (pg, _) = start("postgres", "postgres", &[], &[("POSTGRES_USER", "app"), ("POSTGRES_PASSWORD", "pw")]);
        assert_eq!(arguments(&call_line(&pg)), ["5432", "app", "pw", "app"]);
        let (pg, _) = start("postgres", "bitnami/postgresql", &[], &[("POSTGRESQL_DATABASE", "shop")]);
        assert_eq!(arguments(&call_line(&pg)), ["5432", "postgres", "", "shop"]);
        let mysql =
            |pairs: &[(&str, &str)]| arguments(&call_line(&start("mysql", "mysql:8", &["33306:3306"], pairs).0));
        assert_eq!(
            mysql(&[
                ("MYSQL_DATABASE", "forge"),
                ("MYSQL_USER", "u"),
                ("MYSQL_PASSWORD", "p"),
                ("MYSQL_ROOT_PASSWORD", "r")
            ]),
            ["33306", "forge", "u", "p", "r"]
        );
        assert_eq!(
            mysql(&[("MYSQL_ALLOW_EMPTY_PASSWORD", "yes"), ("MYSQL_DATABASE", "forge")]),
            ["33306", "forge", "", "", ""]
        );
        assert_eq!(mysql(&[]), ["33306", "", "", "", ""], "no root password known: an empty one");
        assert_eq!(mysql(&[("MYSQL_RANDOM_ROOT_PASSWORD", "1")]), ["33306", "", "", ""], "root keeps its socket login");
        assert_eq!(mysql(&[("MYSQL_USER", "root"), ("MARIADB_ROOT_PASSWORD", "m")]), ["33306", "", "", "", "m"]);
        let (redis, _) = start("redis", "bitnami/redis", &[], &[("REDIS_PASSWORD", "pw")]);
        assert_eq!(arguments(&call_line(&redis)), ["6379", "pw"]);
        let (rabbit, _) =
            start("rabbitmq", "rabbitmq", &[], &[("RABBITMQ_DEFAULT_USER", "u"), ("RABBITMQ_DEFAULT_PASS", "p")]);
        assert_eq!(arguments(&call_line(&rabbit)), ["5672", "u", "p", "", ""]);
    }

    #[test]
    fn values_that_cannot_be_written_are_left_out_with_a_warning() {
        let (pg, warnings) = start("postgres", "postgres", &[], &[("POSTGRES_PASSWORD", "a\nport 1")]);
        assert_eq!(arguments(&call_line(&pg)), ["5432", "postgres", "", "postgres"]);
        assert_eq!(
            warnings,
            [
                "compose.yaml#services.x: POSTGRES_PASSWORD holds control characters; left out of the start without Docker"
            ]
        );
        let (rabbit, warnings) =
            start("rabbitmq", "rabbitmq", &[], &[("RABBITMQ_DEFAULT_USER", "u"), ("RABBITMQ_DEFAULT_PASS", "p#1")]);
        assert_eq!(arguments(&call_line(&rabbit)), ["5672", "", "", "", ""], "guest, as without a user");
        assert!(warnings[0].contains("RABBITMQ_DEFAULT_PASS cannot be written to RabbitMQ's config"), "{warnings:?}");
    }

    const HOSTILE: &[&str] = &[
        "'; DROP TABLE users; --",
        "$(touch /tmp/hanzo-pwned)",
        "`id`",
        "a\"b\\c",
        "it's",
        "--help",
        "-p",
        "x=y",
        "*",
        "~root",
        "{a,b}",
        "${HOME}",
        "é ü 😀",
        "",
        " lead and trail ",
    ];

    #[test]
    fn values_reach_the_functions_verbatim() {
        for value in HOSTILE {
            let (pg, _) = start(
                "postgres",
                "postgres",
                &[],
                &[("POSTGRES_USER", value), ("POSTGRES_PASSWORD", value), ("POSTGRES_DB", "d")],
            );
            // Empty is unset, as the image reads it: the default user.
            let user = if value.is_empty() { "postgres" } else { value };
            assert_eq!(arguments(&call_line(&pg)), ["5432", user, value, "d"], "{}", call_line(&pg));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
        #[test]
        fn any_value_reaches_the_function_verbatim(value in "\\PC{0,24}") {
            let (redis, _) = start("redis", "bitnami/redis", &[], &[("REDIS_PASSWORD", &value)]);
            proptest::prop_assert_eq!(arguments(&call_line(&redis)), ["6379".to_string(), value]);
        }
    }

    /// The definition of `function` with the commands it runs replaced by `stubs`, then `call`.
    fn with_stubs(function: &str, stubs: &str, call: &str) -> String {
        let helper = crate::plan::providing(function).unwrap();
        // Stubs write what they are fed to fd 3, this run's stdout (the functions silence theirs).
        bash(&format!("exec 3>&1\n{}\n{stubs}\n{call}", helper.text))
    }

    #[test]
    fn a_second_mysql_port_is_the_running_servers_extra_port() {
        // The server runs (its socket answers) but not on 3307: the port is added, once.
        let stubs = r#"hanzo_needs() { :; }; hanzo_answers() { return 1; }; hanzo_wait() { echo "wait $2" >&3; }
hanzo_root() { case "$1" in mariadb) [ "$2" = -e ] || cat >/dev/null;; grep) return "$HAS_EXTRA";;
  tee) echo "tee $2 $3" >&3; cat >&3;; *) echo "$*" >&3;; esac; }"#;
        let run = |has_extra: &str| {
            with_stubs(
                "hanzo_mysql",
                &format!("HAS_EXTRA={has_extra}\n{stubs}"),
                "hanzo_mysql 3307 app '' '' x 2>&3 || true",
            )
        };
        assert_eq!(
            run("1"),
            "tee -a /etc/mysql/mariadb.conf.d/99-hanzo-env.cnf\nextra_port = 3307\n/etc/init.d/mariadb restart\nwait 3307\n"
        );
        assert_eq!(run("0"), "hanzo-env: mysql answers two ports at most; port 3307 needs Docker\n");
    }

    #[test]
    fn sql_quotes_every_value_for_its_server() {
        let stubs = r#"hanzo_needs() { :; }; hanzo_answers() { return 0; }; hanzo_wait() { :; }
pg_lsclusters() { echo "15 main 5432 online"; }; hanzo_root() { "$@" 2>/dev/null || :; }
pg_ctlcluster() { :; }; hanzo_as() { cat >&3; }"#;
        let sql = with_stubs("hanzo_postgres", stubs, r#"hanzo_postgres 5432 "o'neil" 'pa\ss'"'"'x' 'my"db'"#);
        assert!(
            sql.contains(
                "CREATE ROLE %I', 'o''neil') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'o''neil')\\gexec"
            ),
            "{sql}"
        );
        assert!(sql.contains("PASSWORD %L', 'o''neil', NULLIF('pa\\ss''x', ''))\\gexec"), "{sql}");
        assert!(sql.contains("CREATE DATABASE %I OWNER %I', 'my\"db', 'o''neil')"), "{sql}");
        let stubs = "hanzo_needs() { :; }; hanzo_answers() { return 0; }; hanzo_wait() { :; }; hanzo_root() { cat; }";
        let sql = with_stubs("hanzo_mysql", stubs, r#"hanzo_mysql 3306 'we`ird' "o'neil" 'b\s' ''"#);
        assert!(sql.contains("CREATE DATABASE IF NOT EXISTS `we``ird`;"), "{sql}");
        assert!(
            sql.contains("CREATE USER IF NOT EXISTS 'o''neil'@'%'; ALTER USER 'o''neil'@'%' IDENTIFIED BY 'b\\\\s';"),
            "{sql}"
        );
        assert!(sql.contains("GRANT ALL ON `we``ird`.* TO 'o''neil'@'%';"), "{sql}");
        assert!(sql.contains("USING PASSWORD('')"), "{sql}");
        let sql = with_stubs("hanzo_mysql", stubs, "hanzo_mysql 3306 app '' '' ");
        assert_eq!(sql, "CREATE DATABASE IF NOT EXISTS `app`;\n", "no user and no root password: only the database");
        let stubs = "hanzo_needs() { :; }; hanzo_answers() { return 1; }; hanzo_wait() { :; }; hanzo_v6() { return 1; }; redis-server() { cat >&3; }";
        let config = with_stubs("hanzo_redis", stubs, r#"hanzo_redis 6380 'a"b\c'"#);
        assert!(config.starts_with("port 6380\nbind 127.0.0.1\ndaemonize yes\n"), "{config}");
        assert!(config.ends_with("requirepass \"a\\\"b\\\\c\"\n"), "{config}");
    }

    fn all_products() -> Vec<NativeStart> {
        ["postgres", "mysql", "redis", "memcached", "rabbitmq"].iter().map(|p| start(p, p, &[], &[]).0).collect()
    }

    #[test]
    fn every_products_start_is_valid_bash_and_small() {
        let docker = DockerUp::Compose(vec!["docker compose -f 'a b.yml' up -d db cache".into()]);
        let calls: Vec<ServiceCall> = all_products().iter().map(NativeStart::call).collect();
        let plan = crate::plan::render::services(&docker, &calls, &["mongodb"]);
        let script = crate::plan::block::expand(&plan).unwrap();
        let out = std::process::Command::new("bash").args(["-n", "-c", &script]).output().unwrap();
        assert!(out.status.success(), "{script}\n{}", String::from_utf8_lossy(&out.stderr));
        assert!(script.len() < 10 << 10, "every product's start is {} bytes", script.len());
        assert!(plan.lines().filter(|l| !l.trim_start().starts_with('#')).count() <= 12, "{plan}");
    }
}
