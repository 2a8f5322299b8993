//! `hanzo-env serve` over real HTTP: the built binary on a free loopback port, a temporary
//! HOME/XDG dirs and a cleared environment, driven with reqwest.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use reqwest::blocking::{Client, RequestBuilder, Response};
use serde_json::{Value, json};

mod common;

const TOKEN: &str = "tok-test-0123456789";
const SECOND_TOKEN: &str = "tok-other-abcdef";

/// A scratch world for one server: HOME, config and data dirs, token file, logs.
struct World {
    dir: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::write(dir.path().join("token"), format!("# tokens\n{TOKEN}\n\n{SECOND_TOKEN}\n")).unwrap();
        World { dir }
    }
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }
    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = common::process(&self.path("home"));
        cmd.env("XDG_CONFIG_HOME", self.path("home/.config"))
            .env("XDG_DATA_HOME", self.path("home/.local/share"))
            .arg("serve")
            .args(args);
        if !args.contains(&"--listen") {
            cmd.args(["--listen", "127.0.0.1:0"]);
        }
        cmd
    }
    /// Start with the token file and a data dir; each start logs to its own files.
    fn start(&self) -> Server {
        let data = self.path("data");
        let token = self.path("token");
        self.start_with(self.command(&["--data", data.to_str().unwrap(), "--token-file", token.to_str().unwrap()]))
    }
    fn start_with(&self, mut cmd: Command) -> Server {
        let n = std::fs::read_dir(self.dir.path()).unwrap().count();
        let (out, err) = (self.path(&format!("out{n}.log")), self.path(&format!("err{n}.log")));
        let process = common::ServeProcess::spawn(&mut cmd, out, err);
        Server { url: process.url.clone(), process, client: client() }
    }
    /// Every byte the server could have left behind: its output and every file of the world.
    fn all_files(&self) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files = Vec::new();
        collect(self.dir.path(), &mut files);
        files
    }
}

fn collect(dir: &Path, files: &mut Vec<(PathBuf, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            let bytes = std::fs::read(&path).unwrap();
            files.push((path, bytes));
        }
    }
}

fn client() -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::builder().timeout(Duration::from_secs(30)).build().unwrap()
}

struct Server {
    process: common::ServeProcess,
    url: String,
    client: Client,
}

impl Server {
    fn req(&self, method: reqwest::Method, path: &str) -> RequestBuilder {
        self.client.request(method, format!("{}{path}", self.url)).bearer_auth(TOKEN)
    }
    fn get(&self, path: &str) -> Response {
        self.req(reqwest::Method::GET, path).send().unwrap()
    }
    fn put(&self, path: &str, body: Value) -> Response {
        self.req(reqwest::Method::PUT, path).json(&body).send().unwrap()
    }
    fn delete(&self, path: &str) -> Response {
        self.req(reqwest::Method::DELETE, path).send().unwrap()
    }
    fn stderr(&self) -> String {
        self.process.stderr()
    }
    fn kill9(&mut self) {
        self.process.child.kill().unwrap();
        self.process.child.wait().unwrap();
    }
    fn terminate(&mut self) -> std::process::ExitStatus {
        unsafe { libc::kill(self.process.child.id() as i32, libc::SIGTERM) };
        self.process.child.wait().unwrap()
    }
}

fn json_of(response: Response) -> (StatusCode, Value) {
    let status = response.status();
    let body = response.text().unwrap();
    (status, serde_json::from_str(&body).unwrap_or_else(|e| panic!("{status}: not JSON ({e}): {body}")))
}

/// A refusal: the status, problem+json with every RFC 9457 member, and its code.
fn problem(response: Response, status: StatusCode) -> Value {
    assert_eq!(response.status(), status);
    assert_eq!(response.headers()["content-type"], "application/problem+json");
    let (_, body) = json_of(response);
    assert_eq!(body["status"], status.as_u16(), "{body}");
    for member in ["type", "title", "detail", "code"] {
        assert!(body[member].is_string(), "{member} missing: {body}");
    }
    body
}

fn names(env: &Value) -> Vec<&str> {
    env["secrets"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect()
}

#[test]
fn every_endpoint_keeps_the_contract() {
    let world = World::new();
    let server = world.start();

    let (status, env) = json_of(server.get("/v1/environment/site"));
    assert_eq!(status, 200);
    assert_eq!(
        env,
        json!({"repo":"site","install":"","start":"","secrets":[],"state":"none","session":"","proposal":null})
    );
    assert_eq!(json_of(server.get("/v1/environment")).1, json!({"data": []}), "repos with nothing are absent");

    let (status, env) = json_of(server.put("/v1/environment/site", json!({"install":"make","start":"redis-server"})));
    assert_eq!(status, 200);
    assert_eq!(
        (env["state"].as_str(), env["install"].as_str(), env["start"].as_str()),
        (Some("ready"), Some("make"), Some("redis-server"))
    );
    let saved_at = env["updatedAt"].as_str().unwrap().to_string();
    assert!(humantime::parse_rfc3339(&saved_at).is_ok(), "{saved_at}");

    // The local extension: a pending proposal, as a setup run records it.
    let proposal = json!({"install":"pnpm i","start":"pnpm dev","secrets":["DATABASE_URL"],"note":"checked"});
    let (status, env) = json_of(server.put("/v1/environment/site/proposal", proposal.clone()));
    assert_eq!(status, 200);
    assert_eq!(env["state"], "proposed");
    assert_eq!(env["proposal"], proposal);
    assert_eq!(env["install"], "make", "a proposal leaves the saved scripts alone");
    assert!(env["session"].as_str().unwrap().starts_with("sess_"));
    assert_ne!(env["updatedAt"].as_str().unwrap(), saved_at);

    // Secrets: set, replace, names only; saving leaves them alone and clears the proposal.
    let (status, env) =
        json_of(server.put("/v1/environment/site/secrets/DATABASE_URL", json!({"value":"postgres://a"})));
    assert_eq!(status, 200);
    assert_eq!(names(&env), ["DATABASE_URL"]);
    let (_, env) = json_of(server.put("/v1/environment/site/secrets/DATABASE_URL", json!({"value":"postgres://b"})));
    assert_eq!(names(&env), ["DATABASE_URL"], "a second PUT replaces");
    json_of(server.put("/v1/environment/site/secrets/API_KEY", json!({"value":"k"})));
    let (_, env) = json_of(server.put("/v1/environment/site", json!({"install":"make ci","start":""})));
    assert_eq!((env["state"].as_str(), env["session"].as_str()), (Some("ready"), Some("")));
    assert!(env["proposal"].is_null(), "saving is the review: {env}");
    assert_eq!(names(&env), ["API_KEY", "DATABASE_URL"]);

    let (status, env) = json_of(server.delete("/v1/environment/site/secrets/API_KEY"));
    assert_eq!(status, 200);
    assert_eq!(names(&env), ["DATABASE_URL"]);
    let body = problem(server.delete("/v1/environment/site/secrets/API_KEY"), StatusCode::NOT_FOUND);
    assert_eq!(body["code"], "not_found");

    // A repo with only a secret is listed (something is saved); one with nothing is not.
    json_of(server.put("/v1/environment/other/secrets/TOKEN", json!({"value":"t"})));
    json_of(server.get("/v1/environment/empty"));
    let (_, list) = json_of(server.get("/v1/environment"));
    let repos: Vec<&str> = list["data"].as_array().unwrap().iter().map(|e| e["repo"].as_str().unwrap()).collect();
    assert_eq!(repos, ["other", "site"]);
    assert_eq!(list["data"][0]["state"], "none");
    assert!(list["data"][0].get("updatedAt").is_none(), "no updatedAt when state is none");

    // DELETE: 204, sealed values gone with the record.
    let response = server.delete("/v1/environment/site");
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert!(response.text().unwrap().is_empty());
    let (_, env) = json_of(server.get("/v1/environment/site"));
    assert_eq!((env["state"].as_str(), names(&env).len()), (Some("none"), 0));
    assert_eq!(server.delete("/v1/environment/site").status(), StatusCode::NO_CONTENT, "idempotent");

    // Percent-encoded segments are decoded; unknown routes and methods are problems too.
    assert_eq!(json_of(server.get("/v1/environment/my%20site")).1["repo"], "my site");
    problem(server.get("/v1/nothing"), StatusCode::NOT_FOUND);
    problem(server.req(reqwest::Method::PATCH, "/v1/environment/site").send().unwrap(), StatusCode::METHOD_NOT_ALLOWED);

    // The request log: method, path, status, duration.
    let log = server.stderr();
    assert!(
        log.contains("method=PUT path=\"/v1/environment/site/secrets/DATABASE_URL\" status=200 duration_ms="),
        "{log}"
    );
}

#[test]
fn bearer_tokens_are_required() {
    let world = World::new();
    let server = world.start();
    let url = format!("{}/v1/environment/site", server.url);
    let anonymous = server.client.get(&url).send().unwrap();
    assert_eq!(anonymous.headers()["www-authenticate"], "Bearer");
    assert_eq!(problem(anonymous, StatusCode::UNAUTHORIZED)["code"], "unauthorized");
    for auth in ["Bearer wrong", "Bearer", &format!("Basic {TOKEN}"), TOKEN, &format!("Bearer {TOKEN}x")] {
        let response = server.client.get(&url).header("authorization", auth).send().unwrap();
        problem(response, StatusCode::UNAUTHORIZED);
    }
    // Writes without a token change nothing.
    let response = server.client.put(&url).json(&json!({"install":"x"})).send().unwrap();
    problem(response, StatusCode::UNAUTHORIZED);
    assert_eq!(json_of(server.get("/v1/environment/site")).1["state"], "none");
    // Every token of the file is accepted, the scheme in any case.
    for auth in [format!("Bearer {SECOND_TOKEN}"), format!("bearer {TOKEN}")] {
        assert_eq!(server.client.get(&url).header("authorization", auth).send().unwrap().status(), 200);
    }
}

#[test]
fn tokens_from_the_environment_or_generated_outside_the_data_dir() {
    let world = World::new();
    let data = world.path("data");
    let mut cmd = world.command(&["--data", data.to_str().unwrap()]);
    cmd.env("HANZO_ENV_SERVE_TOKENS", "env-one, env-two\nenv-three");
    let server = world.start_with(cmd);
    for token in ["env-one", "env-two", "env-three"] {
        let response = server.client.get(format!("{}/v1/environment", server.url)).bearer_auth(token).send().unwrap();
        assert_eq!(response.status(), 200, "{token}");
    }
    drop(server);

    // --json: the URL as data on stdout.
    let mut cmd = world.command(&["--data", data.to_str().unwrap()]);
    cmd.arg("--json");
    let server = world.start_with(cmd);
    let out = std::fs::read_dir(world.dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_str().unwrap().starts_with("out"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .find(|text| text.trim_start().starts_with('{'))
        .expect("a JSON stdout");
    let announced: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(announced["url"], server.url.as_str());
    let token_file = world.path("home/.config/hanzo-env/serve-token");
    let token = std::fs::read_to_string(&token_file).unwrap();
    assert!(!token.trim().is_empty());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&token_file).unwrap().permissions().mode() & 0o777, 0o600);
        let key = world.path("home/.config/hanzo-env/serve.key");
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let response =
        server.client.get(format!("{}/v1/environment", server.url)).bearer_auth(token.trim()).send().unwrap();
    assert_eq!(response.status(), 200);
    let stderr = server.stderr();
    assert!(stderr.contains(&token_file.display().to_string()) && stderr.contains("HANZO_API_KEY"), "{stderr}");
    assert!(!stderr.contains(token.trim()), "the generated token is pointed to, never printed");
    for (path, _) in world.all_files() {
        assert!(!path.starts_with(&data) || path.file_name().unwrap() == "environments.redb", "{}", path.display());
    }
}

#[test]
fn orgs_share_nothing() {
    let world = World::new();
    let server = world.start();
    let in_org = |org: &str, method: reqwest::Method, path: &str| server.req(method, path).header("x-org-id", org);
    let put = in_org("acme", reqwest::Method::PUT, "/v1/environment/site").json(&json!({"install":"acme"}));
    assert_eq!(put.send().unwrap().status(), 200);
    let put = in_org("acme", reqwest::Method::PUT, "/v1/environment/site/secrets/ACME_KEY").json(&json!({"value":"v"}));
    assert_eq!(put.send().unwrap().status(), 200);
    let put = in_org("globex", reqwest::Method::PUT, "/v1/environment/site").json(&json!({"install":"globex"}));
    assert_eq!(put.send().unwrap().status(), 200);

    let (_, acme) = json_of(in_org("acme", reqwest::Method::GET, "/v1/environment/site").send().unwrap());
    let (_, globex) = json_of(in_org("globex", reqwest::Method::GET, "/v1/environment/site").send().unwrap());
    assert_eq!((acme["install"].as_str(), names(&acme)), (Some("acme"), vec!["ACME_KEY"]));
    assert_eq!((globex["install"].as_str(), names(&globex).len()), (Some("globex"), 0));
    // No header is the default org, apart from both.
    assert_eq!(json_of(server.get("/v1/environment/site")).1["state"], "none");
    assert_eq!(json_of(server.get("/v1/environment")).1["data"], json!([]));
    let (_, list) = json_of(in_org("acme", reqwest::Method::GET, "/v1/environment").send().unwrap());
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
    // A secret of one org cannot be deleted from another, nor the environment.
    let response = in_org("globex", reqwest::Method::DELETE, "/v1/environment/site/secrets/ACME_KEY").send().unwrap();
    problem(response, StatusCode::NOT_FOUND);
    assert_eq!(in_org("globex", reqwest::Method::DELETE, "/v1/environment/site").send().unwrap().status(), 204);
    let (_, acme) = json_of(in_org("acme", reqwest::Method::GET, "/v1/environment/site").send().unwrap());
    assert_eq!((acme["install"].as_str(), names(&acme)), (Some("acme"), vec!["ACME_KEY"]));
    // Malformed org ids are refused, not mapped somewhere.
    for org in ["a/b", "a b", &"o".repeat(129)] {
        problem(in_org(org, reqwest::Method::GET, "/v1/environment").send().unwrap(), StatusCode::BAD_REQUEST);
    }
}

#[test]
fn etags_and_if_match() {
    let world = World::new();
    let server = world.start();
    let response = server.get("/v1/environment/site");
    let none_tag = response.headers()["etag"].to_str().unwrap().to_string();
    assert!(none_tag.starts_with('"') && none_tag.ends_with('"'), "strong tag: {none_tag}");

    let put = |tag: &str, install: &str| {
        server
            .req(reqwest::Method::PUT, "/v1/environment/site")
            .header("if-match", tag)
            .json(&json!({"install": install}))
            .send()
            .unwrap()
    };
    let saved = put(&none_tag, "one");
    assert_eq!(saved.status(), 200);
    let saved_tag = saved.headers()["etag"].to_str().unwrap().to_string();
    assert_ne!(saved_tag, none_tag);
    assert_eq!(server.get("/v1/environment/site").headers()["etag"], saved_tag.as_str(), "GET and PUT agree");

    assert_eq!(problem(put(&none_tag, "two"), StatusCode::PRECONDITION_FAILED)["code"], "precondition_failed");
    assert_eq!(json_of(server.get("/v1/environment/site")).1["install"], "one", "a 412 changes nothing");
    problem(put(&format!("W/{saved_tag}"), "two"), StatusCode::PRECONDITION_FAILED);
    assert_eq!(put(&format!("\"x\", {saved_tag}"), "two").status(), 200, "any tag of a list");
    assert_eq!(put("*", "three").status(), 200);

    // A secret change moves the tag; DELETE and secret writes honour If-Match too.
    let before = server.get("/v1/environment/site").headers()["etag"].to_str().unwrap().to_string();
    let set = server.put("/v1/environment/site/secrets/A", json!({"value":"1"}));
    let after = set.headers()["etag"].to_str().unwrap().to_string();
    assert_ne!(before, after);
    let stale_set = server
        .req(reqwest::Method::PUT, "/v1/environment/site/secrets/B")
        .header("if-match", &before)
        .json(&json!({"value":"2"}))
        .send()
        .unwrap();
    problem(stale_set, StatusCode::PRECONDITION_FAILED);
    let stale_unset = server
        .req(reqwest::Method::DELETE, "/v1/environment/site/secrets/A")
        .header("if-match", &before)
        .send()
        .unwrap();
    problem(stale_unset, StatusCode::PRECONDITION_FAILED);
    let stale_delete =
        server.req(reqwest::Method::DELETE, "/v1/environment/site").header("if-match", &before).send().unwrap();
    problem(stale_delete, StatusCode::PRECONDITION_FAILED);
    let delete = server.req(reqwest::Method::DELETE, "/v1/environment/site").header("if-match", &after).send().unwrap();
    assert_eq!(delete.status(), 204);
    let (_, env) = json_of(server.get("/v1/environment/site"));
    assert_eq!((env["state"].as_str(), names(&env).len()), (Some("none"), 0));
}

#[test]
fn caps_at_the_limit_and_one_byte_over() {
    let world = World::new();
    let server = world.start();
    let script = "a".repeat(16 << 10);
    assert_eq!(server.put("/v1/environment/site", json!({"install": script, "start": script})).status(), 200);
    let over = format!("{script}a");
    let body = problem(server.put("/v1/environment/site", json!({"install": over})), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(body["detail"].as_str().unwrap().contains("install"), "{body}");
    problem(server.put("/v1/environment/site", json!({"start": over})), StatusCode::PAYLOAD_TOO_LARGE);
    problem(server.put("/v1/environment/site/proposal", json!({"install": over})), StatusCode::PAYLOAD_TOO_LARGE);
    // Multi-byte characters count in bytes.
    let wide = "é".repeat(8 << 10);
    assert_eq!(server.put("/v1/environment/site", json!({"install": wide})).status(), 200);
    problem(server.put("/v1/environment/site", json!({"install": format!("{wide}a")})), StatusCode::PAYLOAD_TOO_LARGE);

    let value = "v".repeat(64 << 10);
    assert_eq!(server.put("/v1/environment/site/secrets/BIG", json!({"value": value})).status(), 200);
    assert_eq!(server.put("/v1/environment/site/secrets/ONE", json!({"value": "x"})).status(), 200);
    let body = problem(
        server.put("/v1/environment/site/secrets/BIG2", json!({"value": format!("{value}v")})),
        StatusCode::PAYLOAD_TOO_LARGE,
    );
    assert!(!body.to_string().contains("vvvv"), "the refusal never echoes the value");
    assert_eq!(
        problem(
            server.put("/v1/environment/site/secrets/EMPTY", json!({"value": ""})),
            StatusCode::UNPROCESSABLE_ENTITY
        )["code"],
        "empty_value"
    );
    // A body far over the limit is refused by its announced length, before it is sent whole.
    let head = format!(
        "PUT /v1/environment/site/secrets/HUGE HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{{\"value\":\"hhhh",
        4 << 20
    );
    let answer = raw_request(&server.url, head.as_bytes());
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");
    let (_, env) = json_of(server.get("/v1/environment/site"));
    assert_eq!(names(&env), ["BIG", "ONE"]);
}

#[test]
fn names_and_repos_are_checked() {
    let world = World::new();
    let server = world.start();
    let set = |path: &str| server.put(path, json!({"value":"v"}));
    assert_eq!(set(&format!("/v1/environment/site/secrets/{}", "A".repeat(128))).status(), 200);
    for name in ["HANZO_TOKEN", "hanzo_x", "PATH", "home", "BASH_ENV"] {
        let body = problem(set(&format!("/v1/environment/site/secrets/{name}")), StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(body["code"], "reserved_name");
    }
    for name in ["1ABC", "BAD-NAME", "A%20B", "%C3%A9", &"A".repeat(129), "A=hunter2"] {
        let body = problem(set(&format!("/v1/environment/site/secrets/{name}")), StatusCode::BAD_REQUEST);
        assert_eq!(body["code"], "invalid_name");
        assert!(!body.to_string().contains("hunter2"));
    }
    let body = problem(
        server.put("/v1/environment/site/proposal", json!({"secrets":["OK","HANZO_X"]})),
        StatusCode::UNPROCESSABLE_ENTITY,
    );
    assert_eq!(body["code"], "reserved_name");
    for repo in ["a%2Fb", "a%5Cb", "a%00b", "%FF%FE", &"r".repeat(201)] {
        let body = problem(server.get(&format!("/v1/environment/{repo}")), StatusCode::BAD_REQUEST);
        assert!(body["code"] == "invalid_repo" || body["code"] == "invalid_path", "{repo}: {body}");
    }
    // Dot segments, sent as is (a URL library would resolve them away).
    for repo in ["..", "%2E", "%2e%2E"] {
        let request = format!(
            "GET /v1/environment/{repo} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
        );
        let answer = raw_request(&server.url, request.as_bytes());
        assert!(answer.starts_with("HTTP/1.1 400") && answer.contains("invalid_repo"), "{repo}: {answer}");
    }
    assert!(!server.stderr().contains("hunter2"), "nothing after `=` reaches the log");
    let (_, env) = json_of(server.get("/v1/environment/site"));
    assert_eq!(names(&env).len(), 1);
}

#[test]
fn junk_never_breaks_the_server() {
    let world = World::new();
    let server = world.start();
    let junk: Vec<Vec<u8>> = vec![
        b"".to_vec(),
        b"null".to_vec(),
        b"[]".to_vec(),
        b"{\"install\": 5}".to_vec(),
        b"{\"install\": null}".to_vec(),
        b"{\"instal\": \"typo\"}".to_vec(),
        b"{\"value\": [1,2]}".to_vec(),
        b"{\"value\": \"\\ud800\"}".to_vec(),
        b"{\"value\": \"a\", \"value\": \"b\"}".to_vec(),
        vec![0xff, 0xfe, 0x00, 0x7b],
        b"{\"secrets\": \"X\"}".to_vec(),
        "{".repeat(10_000).into_bytes(),
        format!("{}1{}", "[".repeat(5000), "]".repeat(5000)).into_bytes(),
    ];
    for path in ["/v1/environment/site", "/v1/environment/site/proposal", "/v1/environment/site/secrets/X"] {
        for body in &junk {
            let response = server.req(reqwest::Method::PUT, path).body(body.clone()).send().unwrap();
            let status = response.status();
            assert!(status.is_client_error() || status == 200, "{path} {body:?}: {status}");
            if status != 200 {
                problem(response, status);
            }
        }
    }
    // Oversized headers and raw bytes in the request line: refused by the HTTP layer.
    let big = server.req(reqwest::Method::GET, "/v1/environment").header("x-junk", "j".repeat(1 << 20)).send();
    if let Ok(response) = big {
        assert!(response.status().is_client_error(), "{}", response.status());
    }
    raw_request(
        &server.url,
        b"GET /v1/environment/\xff\xfe HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer tok-test-0123456789\r\n\r\n",
    );
    raw_request(&server.url, b"\x00\x01garbage\r\n\r\n");
    assert_eq!(server.get("/v1/environment").status(), 200, "still serving");
    assert!(!server.stderr().contains("panicked"), "{}", server.stderr());
}

/// Send raw bytes, read the answer until the server closes or goes quiet.
fn raw_request(url: &str, bytes: &[u8]) -> String {
    use std::io::Write;
    let address = url.trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    stream.write_all(bytes).unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

#[test]
fn acknowledged_writes_survive_kill_9() {
    let world = World::new();
    let mut server = world.start();
    let acked_secrets = Arc::new(Mutex::new(Vec::<(String, String)>::new()));
    let acked_installs = Arc::new(Mutex::new(Vec::<(String, u64)>::new()));
    let writers: Vec<_> = (0..8)
        .map(|writer| {
            let url = server.url.clone();
            let (secrets, installs) = (Arc::clone(&acked_secrets), Arc::clone(&acked_installs));
            std::thread::spawn(move || {
                let client = client();
                let repo = format!("repo{}", writer % 3);
                for i in 0u64.. {
                    let secret = format!("S_{writer}_{i}");
                    let own = format!("own{writer}");
                    let request = if i % 2 == 0 {
                        client
                            .put(format!("{url}/v1/environment/{repo}/secrets/{secret}"))
                            .json(&json!({"value": format!("value-{i}")}))
                    } else {
                        client.put(format!("{url}/v1/environment/{own}")).json(&json!({"install": i.to_string()}))
                    };
                    match request.bearer_auth(TOKEN).send() {
                        Ok(response) if response.status() == 200 => {}
                        _ => return i,
                    }
                    if i % 2 == 0 {
                        secrets.lock().unwrap().push((repo.clone(), secret));
                    } else {
                        installs.lock().unwrap().push((own, i));
                    }
                }
                unreachable!()
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(1500));
    server.kill9();
    let acknowledged: u64 = writers.into_iter().map(|w| w.join().unwrap()).sum();
    let secrets = acked_secrets.lock().unwrap().clone();
    let installs = acked_installs.lock().unwrap().clone();
    assert!(secrets.len() > 20 && installs.len() > 20, "the writers ran: {} {}", secrets.len(), installs.len());

    let server = world.start();
    for (repo, name) in &secrets {
        let (_, env) = json_of(server.get(&format!("/v1/environment/{repo}")));
        assert!(names(&env).contains(&name.as_str()), "acknowledged {repo}/{name} lost after kill -9");
    }
    let mut last = std::collections::HashMap::new();
    for (repo, i) in &installs {
        let entry = last.entry(repo.clone()).or_insert(0);
        *entry = (*entry).max(*i);
    }
    for (repo, i) in last {
        let (_, env) = json_of(server.get(&format!("/v1/environment/{repo}")));
        let found: u64 = env["install"].as_str().unwrap().parse().unwrap();
        assert!(found >= i, "{repo}: acknowledged install {i}, found {found}");
    }
    assert_eq!(acknowledged as usize, secrets.len() + installs.len());
    eprintln!("kill -9 durability: all {acknowledged} acknowledged writes present after restart (8 were in flight)");
}

#[test]
fn values_never_leave_the_seal() {
    let world = World::new();
    let server = world.start();
    let marker = "S3CR3T-MARK-7f3a9c";
    let mut bodies = Vec::new();
    let mut record = |response: Response| {
        let status = response.status();
        let headers = format!("{:?}", response.headers());
        bodies.push(format!("{headers}{}", response.text().unwrap()));
        status
    };
    for (i, name) in ["DATABASE_URL", "STRIPE_SECRET_KEY", "MULTI"].iter().enumerate() {
        let value = format!("{marker}-{i}-{}", "é".repeat(i * 50));
        assert_eq!(record(server.put(&format!("/v1/environment/site/secrets/{name}"), json!({"value": value}))), 200);
    }
    // Refused writes carrying the marker, and every read.
    record(server.put("/v1/environment/site/secrets/HANZO_X", json!({"value": marker})));
    record(server.put("/v1/environment/site/secrets/BAD-NAME", json!({"value": marker})));
    record(server.put("/v1/environment/site/secrets/X", json!({"value": marker, "extra": marker})));
    record(
        server
            .req(reqwest::Method::PUT, "/v1/environment/site/secrets/X")
            .body(format!("{{\"value\": {marker}}}"))
            .send()
            .unwrap(),
    );
    record(server.put("/v1/environment/site/secrets/X", json!({"value": format!("{marker}{}", "x".repeat(64 << 10))})));
    record(server.get("/v1/environment/site"));
    record(server.get("/v1/environment"));
    record(server.delete("/v1/environment/site/secrets/MULTI"));
    drop(server);
    // A restart must open the data with the same key, and still not show a value.
    let mut server = world.start();
    record(server.get("/v1/environment/site"));
    assert!(server.terminate().success());

    for body in &bodies {
        assert!(!body.contains(marker), "a response carried the value: {body}");
    }
    let files = world.all_files();
    assert!(files.iter().any(|(p, _)| p.ends_with("environments.redb")));
    assert!(files.iter().any(|(p, _)| p.ends_with("home/.config/hanzo-env/serve.key")));
    for (path, bytes) in files {
        let found = bytes.windows(marker.len()).any(|w| w == marker.as_bytes());
        assert!(!found, "the value is in the clear in {}", path.display());
    }
}

#[test]
fn start_up_refusals() {
    let world = World::new();
    let data = world.path("data");
    let run = |args: &[&str], envs: &[(&str, &str)]| {
        let mut cmd = world.command(args);
        cmd.envs(envs.iter().copied());
        let output = cmd.stdin(Stdio::null()).output().unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).to_string())
    };
    let d = data.to_str().unwrap();
    let (code, err) = run(&["--data", d, "--listen", "0.0.0.0:0"], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("loopback") && err.contains("--allow-remote"), "{err}");

    // With --allow-remote it listens, says it is plain HTTP, and is reached through loopback.
    let token = world.path("token");
    let other_data = world.path("remote-data");
    let remote = world.command(&[
        "--data",
        other_data.to_str().unwrap(),
        "--token-file",
        token.to_str().unwrap(),
        "--listen",
        "0.0.0.0:0",
        "--allow-remote",
    ]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    let server = world.start_with(remote);
    assert_eq!(server.get("/v1/environment").status(), 200);
    let stderr = server.stderr();
    assert!(stderr.contains("warning:") && stderr.contains("TLS"), "{stderr}");
    #[cfg(unix)]
    assert!(stderr.contains("can be read by other users") && stderr.contains("chmod 600"), "{stderr}");
    drop(server);

    std::fs::create_dir_all(&data).unwrap();
    let inside = data.join("serve.key");
    std::fs::write(&inside, "AAAA").unwrap();
    let (code, err) = run(&["--data", d, "--key-file", inside.to_str().unwrap()], &[]);
    assert_eq!(code, Some(2));
    assert!(err.contains("inside the data dir"), "{err}");
    std::fs::remove_file(&inside).unwrap();

    // First start under one key; a different key is refused with a clear message.
    let key_a = "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUE="; // 32 × 'A'
    let key_b = "QkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkJCQkI=";
    let mut cmd = world.command(&["--data", d]);
    cmd.env("HANZO_ENV_SERVE_KEY", key_a);
    let mut server = world.start_with(cmd);
    assert!(server.terminate().success());
    assert!(server.stderr().contains("stopped"));
    let (code, err) = run(&["--data", d], &[("HANZO_ENV_SERVE_KEY", key_b)]);
    assert_eq!(code, Some(2));
    assert!(err.contains("another key") && err.contains("hint:"), "{err}");
    let (code, err) = run(&["--data", d], &[("HANZO_ENV_SERVE_KEY", "not-base64!")]);
    assert_eq!(code, Some(2));
    assert!(err.contains("base64"), "{err}");

    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let key_file = world.path("open.key");
        std::fs::write(&key_file, key_a).unwrap();
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o644)).unwrap();
        let (code, err) = run(&["--data", d, "--key-file", key_file.to_str().unwrap()], &[]);
        assert_eq!(code, Some(2));
        assert!(err.contains("chmod 600"), "{err}");
    }
}

#[test]
fn sigterm_right_after_the_url_stops_cleanly() {
    // The signal handlers are in place before the URL is printed: a supervisor that stops the
    // server as soon as it is up gets a clean stop, never the default SIGTERM death.
    let world = World::new();
    for _ in 0..5 {
        let mut server = world.start();
        assert!(server.terminate().success(), "{}", server.stderr());
        assert!(server.stderr().contains("stopped"), "{}", server.stderr());
    }
}

#[test]
fn sigterm_stops_even_with_a_stuck_client() {
    use std::io::Write;
    let world = World::new();
    let mut server = world.start();
    assert_eq!(server.put("/v1/environment/site", json!({"install": "make"})).status(), 200);
    // A client that announces a body and never sends it.
    let mut stuck = std::net::TcpStream::connect(server.url.trim_start_matches("http://")).unwrap();
    let head = format!(
        "PUT /v1/environment/site HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: 100\r\n\r\n{{"
    );
    stuck.write_all(head.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
    assert!(asked.elapsed() < Duration::from_secs(15), "took {:?}", asked.elapsed());
    assert!(server.stderr().contains("stopped"));
    drop(stuck);
    // Shut down cleanly: the next start opens the same data.
    let server = world.start();
    assert_eq!(json_of(server.get("/v1/environment/site")).1["install"], "make");
}
