//! Backing services without Docker: which distribution package provides a product, the port
//! its image listens on, and the shell that installs it, starts it as a daemon and configures
//! it from what the compose file or CI job gives the container (user, password, database
//! name, published port), so the tests connect to it as they would to the container. Also the
//! shape of the `start` script that tries Docker first and of the install step that adds the
//! packages when Docker cannot run. A leaf: no ecosystem names, no findings.
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

use std::collections::BTreeMap;

use crate::detect::sources::images::tag;
use crate::detect::sources::shell::quote;

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
    /// The shell function that starts and configures it, its definition, and the helpers it calls.
    function: &'static str,
    definition: &'static str,
    helpers: &'static [Helper],
    /// The function's arguments after the port, unquoted.
    arguments: fn(&Definition, &mut Vec<String>) -> Vec<String>,
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
    pub source: &'a str,
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
    fn setting(&self, keys: &[&str], warnings: &mut Vec<String>) -> Option<String> {
        // Empty is unset: the images' entrypoints fall back to their defaults alike.
        let (key, value) = keys.iter().find_map(|k| self.env.get(*k).filter(|v| !v.is_empty()).map(|v| (*k, v)))?;
        if value.chars().any(char::is_control) {
            warnings
                .push(format!("{}: {key} holds control characters; left out of the start without Docker", self.source));
            return None;
        }
        Some(value.clone())
    }
}

/// A native start of one service: the call of its product's function.
#[derive(Debug, Clone)]
pub struct NativeStart {
    pub product: &'static Product,
    /// The product as the definition names it (`mariadb`, `valkey`).
    pub service: String,
    pub port: u16,
    /// `hanzo_postgres 5433 app secret app`, every value quoted.
    pub call: String,
    /// Where the service is defined.
    pub source: String,
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
    pub fn start(&'static self, definition: &Definition, warnings: &mut Vec<String>) -> NativeStart {
        let port = definition.host_port(self.port);
        let mut call = format!("{} {port}", self.function);
        for argument in (self.arguments)(definition, warnings) {
            call.push(' ');
            call.push_str(&quote(&argument));
        }
        NativeStart {
            product: self,
            service: definition.product.to_string(),
            port,
            call,
            source: definition.source.to_string(),
        }
    }
}

/// Small shell functions the products' functions call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Helper {
    /// `hanzo_root CMD…`: as root, or through `sudo -n`.
    Root,
    /// `hanzo_as USER CMD…`: as USER (from `/`, which every user may enter).
    As,
    /// `hanzo_answers PORT`: something listens on the loopback port.
    Answers,
    /// `hanzo_wait NAME PORT`: a bounded wait (30 s) for the port.
    Wait,
    /// `hanzo_needs NAME COMMAND PACKAGE`: the command is there, else one line saying what to install.
    Needs,
    /// `hanzo_v6`: the loopback has an IPv6 address (`localhost` may resolve to `::1`).
    V6,
}

impl Helper {
    fn definition(self) -> &'static str {
        match self {
            Helper::Root => {
                r#"hanzo_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif sudo -n true 2>/dev/null; then sudo -n "$@"; else echo "hanzo-env: $1 needs root or passwordless sudo" >&2; return 1; fi; }"#
            }
            Helper::As => {
                r#"hanzo_as() { (cd / && if [ "$(id -u)" = 0 ]; then runuser -u "$1" -- "${@:2}"; else sudo -n -u "$1" -- "${@:2}"; fi); }"#
            }
            Helper::Answers => r#"hanzo_answers() { (: </dev/tcp/127.0.0.1/"$1") 2>/dev/null; }"#,
            Helper::Wait => {
                r#"hanzo_wait() { local i; for i in $(seq 60); do hanzo_answers "$2" && return 0; sleep 0.5; done; echo "hanzo-env: $1 is not answering on port $2 after 30 s" >&2; return 1; }"#
            }
            Helper::Needs => {
                r#"hanzo_needs() { command -v "$2" >/dev/null || { echo "hanzo-env: $1 needs Docker or the $3 package (install adds it when Docker is missing)" >&2; return 1; }; }"#
            }
            Helper::V6 => r#"hanzo_v6() { grep -qs '^0\{31\}1 ' /proc/net/if_inet6; }"#,
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
        function: "hanzo_postgres",
        definition: r#"hanzo_postgres() { # PORT USER PASSWORD DATABASE; no password: loopback is trusted
  hanzo_needs postgres pg_ctlcluster postgresql || return 1
  local c u=${2//\'/\'\'} p=${3//\'/\'\'} d=${4//\'/\'\'}
  c=$(pg_lsclusters -h | awk -v p="$1" '$3 == p { print $1, $2; exit }')
  if [ -z "$c" ]; then
    hanzo_answers "$1" && return 0
    c="$(ls /usr/lib/postgresql | sort -V | tail -n 1) hanzo$1"
    hanzo_root pg_createcluster --locale C.UTF-8 -p "$1" $c >/dev/null || return 1
  fi
  hanzo_root pg_ctlcluster $c status >/dev/null 2>&1 || hanzo_root pg_ctlcluster $c start || return 1
  printf '%s\n' "SELECT format('CREATE ROLE %I', '$u') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$u')\\gexec" \
    "SELECT format('ALTER ROLE %I LOGIN SUPERUSER PASSWORD %L', '$u', NULLIF('$p', ''))\\gexec" \
    "SELECT format('CREATE DATABASE %I OWNER %I', '$d', '$u') WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$d')\\gexec" |
    hanzo_as postgres psql -X -q -v ON_ERROR_STOP=1 -p "$1" -d postgres >/dev/null || return 1
  if [ -z "$3" ]; then
    hanzo_root sed -i -E 's/^(host\s.*\s)(scram-sha-256|md5)$/\1trust/' "$(hanzo_as postgres psql -X -qAt -p "$1" -c 'SHOW hba_file')" &&
      hanzo_as postgres psql -X -qAt -p "$1" -c 'SELECT pg_reload_conf()' >/dev/null || return 1
  fi
  hanzo_wait postgres "$1"
}"#,
        helpers: &[Helper::Needs, Helper::Answers, Helper::Root, Helper::As, Helper::Wait],
        arguments: postgres_arguments,
    },
    Product {
        names: &["mysql", "mariadb"],
        package: "mariadb-server",
        port: 3306,
        ports_per_machine: Some(2),
        accounts: false,
        clients: &["mysql", "mariadb"],
        function: "hanzo_mysql",
        definition: r#"hanzo_mysql() { # PORT DATABASE USER PASSWORD [ROOT_PASSWORD]
  hanzo_needs mysql mariadb mariadb-server || return 1
  local d=${2//\`/\`\`} u=${3//\\/\\\\} p=${4//\\/\\\\} r=${5//\\/\\\\}
  u=${u//\'/\'\'}; p=${p//\'/\'\'}; r=${r//\'/\'\'}
  local cnf=/etc/mysql/mariadb.conf.d/99-hanzo-env.cnf
  if ! hanzo_answers "$1"; then
    if hanzo_root mariadb -e '' >/dev/null 2>&1; then # running on another port: its second one
      hanzo_root grep -qs '^extra_port' "$cnf" && { echo "hanzo-env: mysql answers two ports at most; port $1 needs Docker" >&2; return 1; }
      printf 'extra_port = %s\n' "$1" | hanzo_root tee -a "$cnf" >/dev/null || return 1
      hanzo_root /etc/init.d/mariadb restart >/dev/null || return 1
    else
      printf '[mysqld]\nport = %s\nbind-address = 127.0.0.1\n' "$1" | hanzo_root tee "$cnf" >/dev/null || return 1
      if [ -x /etc/init.d/mariadb ]; then hanzo_root /etc/init.d/mariadb start >/dev/null || return 1
      else hanzo_root setsid mysqld_safe >/dev/null 2>&1 & fi
    fi
    hanzo_wait mysql "$1" || return 1
  fi
  { [ -z "$2" ] || echo "CREATE DATABASE IF NOT EXISTS \`$d\`;"
    [ -z "$3" ] || echo "CREATE USER IF NOT EXISTS '$u'@'%'; ALTER USER '$u'@'%' IDENTIFIED BY '$p';"
    [ -z "$3" ] || [ -z "$2" ] || echo "GRANT ALL ON \`$d\`.* TO '$u'@'%';"
    [ $# -lt 5 ] || echo "ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket OR mysql_native_password USING PASSWORD('$r'); CREATE USER IF NOT EXISTS 'root'@'%'; ALTER USER 'root'@'%' IDENTIFIED BY '$r'; GRANT ALL ON *.* TO 'root'@'%' WITH GRANT OPTION;"
  } | hanzo_root mariadb
}"#,
        helpers: &[Helper::Needs, Helper::Answers, Helper::Root, Helper::Wait],
        arguments: mysql_arguments,
    },
    Product {
        names: &["redis", "valkey"],
        package: "redis-server",
        port: 6379,
        ports_per_machine: None,
        accounts: false,
        clients: &["redis-cli", "valkey-cli"],
        function: "hanzo_redis",
        definition: r#"hanzo_redis() { # PORT PASSWORD
  hanzo_needs redis redis-server redis-server || return 1
  hanzo_answers "$1" && return 0
  local p=${2//\\/\\\\}; p=${p//\"/\\\"}
  { printf 'port %s\nbind 127.0.0.1%s\ndaemonize yes\nsave ""\nappendonly no\ndir /tmp\npidfile /tmp/hanzo-env-redis-%s.pid\nlogfile /tmp/hanzo-env-redis-%s.log\n' "$1" "$(hanzo_v6 && echo ' ::1')" "$1" "$1"
    [ -z "$2" ] || printf 'requirepass "%s"\n' "$p"; } | redis-server - >/dev/null || return 1
  hanzo_wait redis "$1"
}"#,
        helpers: &[Helper::Needs, Helper::Answers, Helper::V6, Helper::Wait],
        arguments: redis_arguments,
    },
    Product {
        names: &["memcached"],
        package: "memcached",
        port: 11211,
        ports_per_machine: None,
        accounts: false,
        clients: &[],
        function: "hanzo_memcached",
        definition: r#"hanzo_memcached() { # PORT
  hanzo_needs memcached memcached memcached || return 1
  hanzo_answers "$1" && return 0
  memcached -d -U 0 -p "$1" -l "127.0.0.1$(hanzo_v6 && echo ',[::1]')" -P /tmp/hanzo-env-memcached-"$1".pid $([ "$(id -u)" != 0 ] || echo -u nobody) || return 1
  hanzo_wait memcached "$1"
}"#,
        helpers: &[Helper::Needs, Helper::Answers, Helper::V6, Helper::Wait],
        arguments: |_, _| Vec::new(),
    },
    Product {
        names: &["rabbitmq"],
        package: "rabbitmq-server",
        port: 5672,
        ports_per_machine: Some(1),
        accounts: false,
        clients: &[],
        function: "hanzo_rabbitmq",
        definition: r#"hanzo_rabbitmq() { # PORT USER PASSWORD VHOST MANAGEMENT_PORT; the user is made at the node's first boot
  hanzo_needs rabbitmq rabbitmqctl rabbitmq-server || return 1
  if ! hanzo_answers "$1"; then
    hanzo_root mkdir -p /etc/rabbitmq/conf.d || return 1
    { printf 'listeners.tcp.default = 127.0.0.1:%s\nloopback_users = none\n' "$1"
      [ -z "$2" ] || printf 'default_user = %s\ndefault_pass = %s\n' "$2" "$3"
      [ -z "$4" ] || printf 'default_vhost = %s\n' "$4"
      [ -z "$5" ] || printf 'management.tcp.ip = 127.0.0.1\nmanagement.tcp.port = %s\n' "$5"
    } | hanzo_root tee /etc/rabbitmq/conf.d/99-hanzo-env.conf >/dev/null || return 1
    [ -z "$5" ] || hanzo_root rabbitmq-plugins enable --offline rabbitmq_management >/dev/null || return 1
    hanzo_root /etc/init.d/rabbitmq-server start >/dev/null || return 1
  fi
  hanzo_wait rabbitmq "$1"
}"#,
        helpers: &[Helper::Needs, Helper::Answers, Helper::Root, Helper::Wait],
        arguments: rabbitmq_arguments,
    },
];

/// USER PASSWORD DATABASE as the postgres image (or Bitnami's) reads them.
fn postgres_arguments(d: &Definition, warnings: &mut Vec<String>) -> Vec<String> {
    let user = d.setting(&["POSTGRES_USER", "POSTGRESQL_USERNAME"], warnings).unwrap_or_else(|| "postgres".into());
    let password = d.setting(&["POSTGRES_PASSWORD", "POSTGRESQL_PASSWORD"], warnings).unwrap_or_default();
    let database = d.setting(&["POSTGRES_DB", "POSTGRESQL_DATABASE"], warnings).unwrap_or_else(|| user.clone());
    vec![user, password, database]
}

/// DATABASE USER PASSWORD [ROOT_PASSWORD] as the mysql and mariadb images (or Bitnami's) read
/// them: the root password when one is given; a random one leaves root to its socket login;
/// none known (an empty one allowed, or one from a file or secret detection cannot read) is
/// an empty one, the way CI services usually run it.
fn mysql_arguments(d: &Definition, warnings: &mut Vec<String>) -> Vec<String> {
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
fn redis_arguments(d: &Definition, warnings: &mut Vec<String>) -> Vec<String> {
    vec![d.setting(&["REDIS_PASSWORD"], warnings).unwrap_or_default()]
}

/// USER PASSWORD VHOST MANAGEMENT_PORT as the rabbitmq image (or Bitnami's) reads them; the
/// management port only for a `management` image. The config file holds values to the end of
/// the line and takes `#` for a comment: values it cannot hold are left out with a warning.
fn rabbitmq_arguments(d: &Definition, warnings: &mut Vec<String>) -> Vec<String> {
    let mut value = |keys: &[&str]| {
        let value = d.setting(keys, warnings).unwrap_or_default();
        if value.contains('#') || value.trim() != value {
            warnings.push(format!(
                "{}: {} cannot be written to RabbitMQ's config (a `#` or surrounding spaces); left out of the start without Docker",
                d.source, keys[0]
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

/// How Docker brings the services up: `docker compose … up -d …` lines (which fall back to
/// `docker-compose`) or `docker run -d …` lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DockerUp {
    Compose(Vec<String>),
    Run(Vec<String>),
}

/// The first line of a start script written by [`start_script`].
const HEADER: &str = "# services: ";

impl DockerUp {
    /// The shell test for "Docker can bring these up", quiet.
    fn usable(&self) -> &'static str {
        match self {
            DockerUp::Compose(_) => {
                "{ docker info && { docker compose version || command -v docker-compose; }; } >/dev/null 2>&1"
            }
            DockerUp::Run(_) => "docker info >/dev/null 2>&1",
        }
    }
}

/// The install step that adds the packages of `products` when Docker cannot bring the services
/// up: nothing when they are installed; without `apt-get`, root or `sudo -n`, one warning line.
/// A failed install is a warning too: the rest of the install still runs.
pub fn install_command(docker: &DockerUp, packages: &[&str]) -> String {
    let install = apt_get_install(&packages.join(" "), "for the services", "no Docker and no apt-get", "(or Docker) ");
    format!(
        "# without Docker, the services run from the distribution's packages\nif ! {usable}; then\n{body}\nfi",
        usable = docker.usable(),
        body = install.lines().map(|l| format!("  {l}")).collect::<Vec<_>>().join("\n"),
    )
}

/// `apt-get install` of the Debian/Ubuntu `packages` (space-separated) not installed yet, as
/// root or through `sudo -n`; `what_for` ends each warning, `no_apt` opens the one for a
/// machine without apt-get (`alternative` is offered there). All at once, else one by one: a
/// name another release of the distribution lacks costs a warning, not the rest.
pub fn apt_get_install(packages: &str, what_for: &str, no_apt: &str, alternative: &str) -> String {
    format!(
        r#"hanzo_missing=$(for p in {packages}; do dpkg-query -W -f '${{db:Status-Status}}\n' "$p" 2>/dev/null | grep -qx installed || echo "$p"; done | xargs)
if [ -z "$hanzo_missing" ]; then :
elif ! command -v apt-get >/dev/null; then echo "hanzo-env: {no_apt}: install $hanzo_missing {alternative}{what_for}" >&2
elif [ "$(id -u)" != 0 ] && ! sudo -n true 2>/dev/null; then echo "hanzo-env: installing $hanzo_missing {what_for} needs root or passwordless sudo" >&2
else
  hanzo_sudo=$([ "$(id -u)" = 0 ] || echo "sudo -n")
  hanzo_apt="$hanzo_sudo env DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 apt-get -qq -o DPkg::Lock::Timeout=120"
  $hanzo_apt update && {{ $hanzo_apt install -y --no-install-recommends $hanzo_missing >/dev/null ||
    for p in $hanzo_missing; do $hanzo_apt install -y --no-install-recommends "$p" >/dev/null || echo "hanzo-env: could not install $p {what_for}" >&2; done; }} ||
    echo "hanzo-env: could not install $hanzo_missing {what_for}" >&2
fi"#
    )
}

/// The start script: Docker when it can bring the services up (`docker compose`, else
/// `docker-compose`), else each service of `native` from its package; `docker_only` names the
/// products no package provides (not started without Docker: the script then fails, saying so).
pub fn start_script(docker: &DockerUp, native: &[NativeStart], docker_only: &[&str]) -> String {
    let join = |lines: &[String]| lines.join(" &&\n  ");
    let mut script = String::from(HEADER);
    match docker {
        DockerUp::Compose(_) if native.is_empty() => script.push_str("docker compose, else docker-compose\n"),
        DockerUp::Compose(_) => {
            script.push_str("docker compose, else docker-compose, else the distribution's packages\n")
        }
        DockerUp::Run(_) => script.push_str("docker run, else the distribution's packages\n"),
    }
    let mut helpers: Vec<Helper> = Vec::new();
    let mut functions: Vec<&str> = Vec::new();
    for start in native {
        let product = start.product;
        helpers.extend(product.helpers);
        if !functions.contains(&product.definition) {
            functions.push(product.definition);
        }
    }
    helpers.sort();
    helpers.dedup();
    for helper in helpers {
        script.push_str(helper.definition());
        script.push('\n');
    }
    for function in functions {
        script.push_str(function);
        script.push('\n');
    }
    match docker {
        DockerUp::Compose(lines) => {
            let v1: Vec<String> = lines
                .iter()
                .map(|l| {
                    l.strip_prefix("docker compose ").map(|rest| format!("docker-compose {rest}")).unwrap_or(l.clone())
                })
                .collect();
            if native.is_empty() {
                script.push_str(&format!(
                    "if docker compose version >/dev/null 2>&1; then\n  {}\nelse\n  {}\nfi",
                    join(lines),
                    join(&v1)
                ));
                return script;
            }
            script.push_str(&format!(
                "if docker info >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then\n  {}\nelif docker info >/dev/null 2>&1 && command -v docker-compose >/dev/null; then\n  {}\nelse\n",
                join(lines),
                join(&v1)
            ));
        }
        DockerUp::Run(lines) => {
            script.push_str(&format!("if docker info >/dev/null 2>&1; then\n  {}\nelse\n", join(lines)));
        }
    }
    match (native, docker_only) {
        ([only], []) => script.push_str(&format!("  {}\n", only.call)),
        _ => {
            script.push_str("  hanzo_status=0\n");
            for start in native {
                script.push_str(&format!("  {} || hanzo_status=1\n", start.call));
            }
            if !docker_only.is_empty() {
                script.push_str(&format!(
                    "  echo \"hanzo-env: without Docker, not started (no distribution package): {}\" >&2; hanzo_status=1\n",
                    docker_only.join(", ")
                ));
            }
            script.push_str("  [ \"$hanzo_status\" = 0 ]\n");
        }
    }
    script.push_str("fi");
    script
}

/// Whether `start` is a script [`start_script`] wrote (a reviewed copy included).
pub fn is_services_script(start: &str) -> bool {
    start.trim_start().starts_with(HEADER)
}

/// The Docker commands of a script [`start_script`] wrote: its first branch, one command
/// each (`docker compose … up -d …`, `docker run -d …`); `None` for any other start.
pub fn docker_commands(start: &str) -> Option<Vec<String>> {
    if !is_services_script(start) {
        return None;
    }
    let mut lines = start.lines().skip_while(|l| !(l.starts_with("if docker ") && l.trim_end().ends_with("then")));
    lines.next()?;
    let commands = lines
        .map(str::trim)
        .take_while(|l| !matches!(l.split_whitespace().next(), Some("else" | "elif" | "fi")))
        .map(|l| l.trim_end_matches("&&").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    Some(commands)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }

    fn start(product: &str, image: &str, ports: &[&str], pairs: &[(&str, &str)]) -> (NativeStart, Vec<String>) {
        let ports: Vec<String> = ports.iter().map(|p| p.to_string()).collect();
        let env = env(pairs);
        let definition =
            Definition { product, image: Some(image), ports: &ports, env: &env, source: "compose.yaml#services.x" };
        let mut warnings = Vec::new();
        (native(product).expect("packaged").start(&definition, &mut warnings), warnings)
    }

    /// Run `script` with bash; its stdout.
    fn bash(script: &str) -> String {
        let out = std::process::Command::new("bash").arg("-c").arg(script).output().expect("bash");
        assert!(out.status.success(), "{script}\n{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).expect("UTF-8")
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
        assert_eq!(rabbit.call, "hanzo_rabbitmq 5673 '' '' '' 15673");
        assert_eq!(start("rabbitmq", "rabbitmq:3", &[], &[]).0.call, "hanzo_rabbitmq 5672 '' '' '' ''");
    }

    #[test]
    fn settings_as_each_image_reads_them() {
        let (pg, _) = start("postgres", "postgres", &[], &[("POSTGRES_USER", "app"), ("POSTGRES_PASSWORD", "pw")]);
        assert_eq!(arguments(&pg.call), ["5432", "app", "pw", "app"]);
        let (pg, _) = start("postgres", "bitnami/postgresql", &[], &[("POSTGRESQL_DATABASE", "shop")]);
        assert_eq!(arguments(&pg.call), ["5432", "postgres", "", "shop"]);
        let mysql = |pairs: &[(&str, &str)]| arguments(&start("mysql", "mysql:8", &["33306:3306"], pairs).0.call);
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
        assert_eq!(arguments(&redis.call), ["6379", "pw"]);
        let (rabbit, _) =
            start("rabbitmq", "rabbitmq", &[], &[("RABBITMQ_DEFAULT_USER", "u"), ("RABBITMQ_DEFAULT_PASS", "p")]);
        assert_eq!(arguments(&rabbit.call), ["5672", "u", "p", "", ""]);
    }

    #[test]
    fn values_that_cannot_be_written_are_left_out_with_a_warning() {
        let (pg, warnings) = start("postgres", "postgres", &[], &[("POSTGRES_PASSWORD", "a\nport 1")]);
        assert_eq!(arguments(&pg.call), ["5432", "postgres", "", "postgres"]);
        assert_eq!(
            warnings,
            [
                "compose.yaml#services.x: POSTGRES_PASSWORD holds control characters; left out of the start without Docker"
            ]
        );
        let (rabbit, warnings) =
            start("rabbitmq", "rabbitmq", &[], &[("RABBITMQ_DEFAULT_USER", "u"), ("RABBITMQ_DEFAULT_PASS", "p#1")]);
        assert_eq!(arguments(&rabbit.call), ["5672", "", "", "", ""], "guest, as without a user");
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
            assert_eq!(arguments(&pg.call), ["5432", user, value, "d"], "{}", pg.call);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]
        #[test]
        fn any_value_reaches_the_function_verbatim(value in "\\PC{0,24}") {
            let (redis, _) = start("redis", "bitnami/redis", &[], &[("REDIS_PASSWORD", &value)]);
            proptest::prop_assert_eq!(arguments(&redis.call), ["6379".to_string(), value]);
        }
    }

    /// The definition of `function` with the commands it runs replaced by `stubs`, then `call`.
    fn with_stubs(function: &str, stubs: &str, call: &str) -> String {
        let product = PRODUCTS.iter().find(|p| p.function == function).unwrap();
        // Stubs write what they are fed to fd 3, this run's stdout (the functions silence theirs).
        bash(&format!("exec 3>&1\n{}\n{stubs}\n{call}", product.definition))
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
    fn scripts_are_valid_bash_and_small() {
        let docker = DockerUp::Compose(vec!["docker compose -f 'a b.yml' up -d db cache".into()]);
        let script = start_script(&docker, &all_products(), &["mongodb"]);
        let install = install_command(&docker, &["postgresql", "mariadb-server"]);
        for text in [&script, &install] {
            let out = std::process::Command::new("bash").args(["-n", "-c", text]).output().unwrap();
            assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
        }
        assert!(script.len() < 8 << 10, "every product's start is {} bytes", script.len());
    }

    #[test]
    fn the_docker_commands_of_a_script() {
        let compose = vec!["docker compose -f a.yml up -d db".to_string(), "docker compose up -d cache".to_string()];
        let script = start_script(&DockerUp::Compose(compose.clone()), &all_products(), &[]);
        assert!(script.contains("elif docker info >/dev/null 2>&1 && command -v docker-compose >/dev/null; then\n  docker-compose -f a.yml up -d db &&\n  docker-compose up -d cache\n"), "{script}");
        assert_eq!(docker_commands(&script).unwrap(), compose);
        let script = start_script(&DockerUp::Compose(compose.clone()), &[], &["mongodb"]);
        assert_eq!(
            script,
            "# services: docker compose, else docker-compose\nif docker compose version >/dev/null 2>&1; then\n  docker compose -f a.yml up -d db &&\n  docker compose up -d cache\nelse\n  docker-compose -f a.yml up -d db &&\n  docker-compose up -d cache\nfi"
        );
        assert_eq!(docker_commands(&script).unwrap(), compose);
        let run = vec!["docker run -d --name pg postgres".to_string()];
        let script = start_script(&DockerUp::Run(run.clone()), &all_products()[..1], &[]);
        assert!(script.ends_with("if docker info >/dev/null 2>&1; then\n  docker run -d --name pg postgres\nelse\n  hanzo_postgres 5432 postgres '' postgres\nfi"), "{script}");
        assert_eq!(docker_commands(&script).unwrap(), run);
        assert_eq!(docker_commands("docker compose up -d db"), None);
    }
}
