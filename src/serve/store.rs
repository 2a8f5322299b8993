//! The durable store: one redb file in the data dir.
//!
//! Tables, all keyed by org first so that orgs never see each other's rows:
//! - `meta`: `schema_version` (refused when newer than [`SCHEMA_VERSION`]) and `key_check`
//!   (a constant sealed under the master key, so a wrong key is caught at start);
//! - `environments`: `(org, repo)` → a JSON record (scripts, state, proposal, update time);
//! - `secrets`: `(org, repo, NAME)` → a sealed value ([`super::seal`]); names are the keys.
//!
//! Reads run directly on a read transaction. Writes go to one writer thread that drains
//! every request waiting, applies them in order in one write transaction, commits it with
//! `Durability::Immediate` (fsync) and only then answers each (group commit): an
//! acknowledged write has reached the disk, and concurrent writers share the fsync.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use redb::{Database, Durability, ReadableDatabase, ReadableTable, TableDefinition};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use tokio::sync::oneshot;

use super::seal::MasterKey;
use crate::api::{Environment, PendingProposal, Scripts, State};

/// The schema this build writes. A data dir with a newer one is refused, never rewritten.
pub const SCHEMA_VERSION: u64 = 1;
const DB_FILE: &str = "environments.redb";
/// Most writes applied in one transaction; bounds the latency one commit adds.
const MAX_BATCH: usize = 512;
/// 9999-12-31T23:59:59.999Z, the last instant RFC 3339 can write.
const LAST_RFC3339_MS: u64 = 253_402_300_799_999;

const META_U64: TableDefinition<&str, u64> = TableDefinition::new("meta");
const META_BYTES: TableDefinition<&str, &[u8]> = TableDefinition::new("meta_bytes");
const ENVIRONMENTS: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("environments");
const SECRETS: TableDefinition<(&str, &str, &str), &[u8]> = TableDefinition::new("secrets");

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("could not prepare the data dir at {}: {source}", path.display())]
    DataDir { path: PathBuf, source: std::io::Error },
    #[error("the data dir {} is in use by another `hanzo-env serve`", path.display())]
    InUse { path: PathBuf },
    #[error(
        "the data dir {} was written by a newer hanzo-env (schema version {found}; this build knows up to {SCHEMA_VERSION})",
        path.display()
    )]
    SchemaTooNew { path: PathBuf, found: u64 },
    #[error("the master key does not open the data in {}: it was sealed under another key", path.display())]
    WrongKey { path: PathBuf },
    #[error("a stored environment record is unreadable: {0}")]
    Corrupt(String),
    #[error("storage error: {0}")]
    Db(#[from] redb::Error),
    #[error(transparent)]
    Seal(#[from] super::seal::SealError),
    #[error("the store's writer has stopped")]
    WriterGone,
    #[error(
        "writing to {} failed ({cause}); the database refuses every write after an I/O error until it is \
         re-opened, so the server stopped",
        path.display()
    )]
    Failed { path: PathBuf, cause: String },
}

impl crate::diagnostic::Diagnostic for StoreError {
    fn hint(&self) -> Option<String> {
        match self {
            StoreError::InUse { .. } => Some("stop the other server, or pass another --data DIR".into()),
            StoreError::SchemaTooNew { .. } => {
                Some("run the newer hanzo-env on this data dir, or pass another --data DIR".into())
            }
            StoreError::WrongKey { .. } => {
                Some("pass the --key-file (or HANZO_ENV_SERVE_KEY) this data dir was created with".into())
            }
            StoreError::DataDir { .. } => Some("check that the parent directory is writable".into()),
            StoreError::Failed { .. } => Some(
                "free space on that disk (or fix the device), then start `hanzo-env serve` again: every acknowledged \
                 write is kept; under a supervisor (systemd `Restart=on-failure`) the restart is automatic"
                    .into(),
            ),
            _ => None,
        }
    }
}

fn db_err(err: impl Into<redb::Error>) -> StoreError {
    StoreError::Db(err.into())
}

impl StoreError {
    /// An I/O failure of the database file (a full disk, a failing device): redb answers
    /// every later write with "previous I/O error" until the database is re-opened.
    fn is_io(&self) -> bool {
        matches!(self, StoreError::Db(redb::Error::Io(_) | redb::Error::PreviousIo))
    }
}

/// What `environments` keeps for one repo. Fields are added with defaults, never renamed,
/// so a record written by this version reads in the next.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct StoredEnvironment {
    #[serde(default)]
    install: String,
    #[serde(default)]
    start: String,
    #[serde(default)]
    state: State,
    #[serde(default)]
    session: String,
    #[serde(default)]
    proposal: Option<PendingProposal>,
    /// Milliseconds since the Unix epoch of the last change to scripts or proposal.
    #[serde(default)]
    updated_ms: u64,
}

/// `If-Match`: `*` or a list of strong entity tags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    Any,
    OneOf(Vec<String>),
}

impl Precondition {
    /// Parse an `If-Match` header value; weak tags (`W/"…"`) never match (RFC 9110 §13.1.1).
    pub fn parse(header: &str) -> Precondition {
        if header.trim() == "*" {
            return Precondition::Any;
        }
        Precondition::OneOf(
            header.split(',').map(|tag| tag.trim().to_string()).filter(|t| t.starts_with('"')).collect(),
        )
    }

    fn allows(&self, current: &str) -> bool {
        match self {
            Precondition::Any => true,
            Precondition::OneOf(tags) => tags.iter().any(|t| t == current),
        }
    }
}

/// The strong ETag of an answer: a digest of exactly what the client was shown, so any
/// change to scripts, state, proposal or secret names moves it (and a re-created
/// environment never reuses an old tag by accident).
pub fn etag(env: &Environment) -> String {
    etag_of_json(&serde_json::to_vec(env).unwrap_or_default())
}

/// [`etag`] of an environment already serialized (serde_json's output is deterministic).
pub fn etag_of_json(json: &[u8]) -> String {
    let digest = Sha256::digest(json);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// A change to one repo's environment.
#[derive(Debug)]
pub enum Change {
    /// Save install/start: state ready, pending proposal cleared, secrets untouched.
    SaveScripts(Scripts),
    /// Record a pending proposal (the local extension): state proposed.
    Propose(PendingProposal),
    /// Remove every sealed value, then the record.
    Delete,
    /// Set (or replace) a sealed value.
    SetSecret { name: String, sealed: Vec<u8> },
    /// Remove a value; refused when the name is not set.
    DeleteSecret { name: String },
}

#[derive(Debug)]
pub struct WriteRequest {
    pub org: String,
    pub repo: String,
    pub precondition: Option<Precondition>,
    pub change: Change,
}

#[derive(Debug)]
pub enum WriteError {
    PreconditionFailed,
    SecretNotSet,
    /// The transaction failed; nothing of it was committed.
    Storage(String),
    /// The database file failed to write (see [`StoreError::Failed`]); nothing of it was
    /// committed and the server is stopping.
    Unavailable(String),
}

/// The answer to a write: the environment as it now is (state none after a delete).
pub type WriteOutcome = Result<Environment, WriteError>;

struct Job {
    request: WriteRequest,
    reply: oneshot::Sender<WriteOutcome>,
}

pub struct Store {
    db: Arc<Database>,
    jobs: Option<mpsc::Sender<Job>>,
    writer: Option<JoinHandle<()>>,
    /// Set once by the writer when a write failed for an I/O reason ([`Store::failed`]).
    failure: tokio::sync::watch::Receiver<Option<Failure>>,
}

impl Store {
    /// Open (or create) the store in `data_dir`, check its schema version and that `key`
    /// is the master key its values were sealed with.
    pub fn open(data_dir: &Path, key: &MasterKey) -> Result<Store, StoreError> {
        create_private_dir(data_dir)?;
        let path = data_dir.join(DB_FILE);
        let db = Database::create(&path).map_err(|err| match err {
            redb::DatabaseError::DatabaseAlreadyOpen => StoreError::InUse { path: data_dir.into() },
            other => db_err(other),
        })?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                .map_err(|source| StoreError::DataDir { path: path.clone(), source })?;
        }
        let txn = db.begin_write().map_err(db_err)?;
        {
            let mut meta = txn.open_table(META_U64).map_err(db_err)?;
            let found = meta.get("schema_version").map_err(db_err)?.map(|v| v.value());
            match found {
                Some(found) if found > SCHEMA_VERSION => {
                    return Err(StoreError::SchemaTooNew { path: data_dir.into(), found });
                }
                Some(_) => {}
                None => {
                    meta.insert("schema_version", SCHEMA_VERSION).map_err(db_err)?;
                }
            }
            let mut meta_bytes = txn.open_table(META_BYTES).map_err(db_err)?;
            let check = meta_bytes.get("key_check").map_err(db_err)?.map(|v| v.value().to_vec());
            match check {
                Some(check) if !key.verify_key_check(&check) => {
                    return Err(StoreError::WrongKey { path: data_dir.into() });
                }
                Some(_) => {}
                None => {
                    meta_bytes.insert("key_check", key.key_check()?.as_slice()).map_err(db_err)?;
                }
            }
            txn.open_table(ENVIRONMENTS).map_err(db_err)?;
            txn.open_table(SECRETS).map_err(db_err)?;
        }
        txn.commit().map_err(db_err)?;

        let db = Arc::new(db);
        let (jobs, queue) = mpsc::channel();
        let writer_db = Arc::clone(&db);
        let (failed, failure) = tokio::sync::watch::channel(None);
        let writer = std::thread::Builder::new()
            .name("hanzo-env-store-writer".into())
            .spawn(move || write_loop(&writer_db, &path, &queue, &failed))
            .map_err(|e| db_err(redb::Error::Io(e)))?;
        Ok(Store { db, jobs: Some(jobs), writer: Some(writer), failure })
    }

    /// Resolves with the failure once a write failed for an I/O reason: the database then
    /// takes no write until it is re-opened, so the server stops (and reports it) rather
    /// than answer every later write with a 500 while its reads still look healthy.
    pub async fn failed(&self) -> StoreError {
        let mut failure = self.failure.clone();
        let failed =
            failure.wait_for(Option::is_some).await.ok().and_then(|failed| failed.as_ref().map(Failure::error));
        match failed {
            Some(failed) => failed,
            // The writer is gone without a failure: the store is closing, nothing to report.
            None => std::future::pending().await,
        }
    }

    /// The failure [`Store::failed`] reports, if there was one.
    pub fn failure(&self) -> Option<StoreError> {
        self.failure.borrow().as_ref().map(Failure::error)
    }

    /// One repo's environment; state none with empty scripts when nothing is saved.
    pub fn get(&self, org: &str, repo: &str) -> Result<Environment, StoreError> {
        let txn = self.db.begin_read().map_err(db_err)?;
        let envs = txn.open_table(ENVIRONMENTS).map_err(db_err)?;
        let secrets = txn.open_table(SECRETS).map_err(db_err)?;
        render(&envs, &secrets, org, repo)
    }

    /// Every repo of `org` with scripts saved, a proposal pending or a secret set, by name.
    pub fn list(&self, org: &str) -> Result<Vec<Environment>, StoreError> {
        let txn = self.db.begin_read().map_err(db_err)?;
        let envs = txn.open_table(ENVIRONMENTS).map_err(db_err)?;
        let secrets = txn.open_table(SECRETS).map_err(db_err)?;
        let mut repos = std::collections::BTreeSet::new();
        for row in envs.range((org, "")..).map_err(db_err)? {
            let (key, _) = row.map_err(db_err)?;
            let (row_org, repo) = key.value();
            if row_org != org {
                break;
            }
            repos.insert(repo.to_string());
        }
        for row in secrets.range((org, "", "")..).map_err(db_err)? {
            let (key, _) = row.map_err(db_err)?;
            let (row_org, repo, _) = key.value();
            if row_org != org {
                break;
            }
            repos.insert(repo.to_string());
        }
        repos.iter().map(|repo| render(&envs, &secrets, org, repo)).collect()
    }

    /// Apply a change; answered once it is durably committed.
    pub async fn write(&self, request: WriteRequest) -> WriteOutcome {
        let (reply, answer) = oneshot::channel();
        let gone = || WriteError::Storage(StoreError::WriterGone.to_string());
        let jobs = self.jobs.as_ref().ok_or_else(gone)?;
        jobs.send(Job { request, reply }).map_err(|_| gone())?;
        answer.await.unwrap_or_else(|_| Err(gone()))
    }
}

impl Drop for Store {
    /// Let the writer finish the requests already queued, then close the file cleanly.
    fn drop(&mut self) {
        self.jobs.take();
        if let Some(writer) = self.writer.take() {
            let _ = writer.join();
        }
    }
}

fn create_private_dir(dir: &Path) -> Result<(), StoreError> {
    let wrap = |source| StoreError::DataDir { path: dir.into(), source };
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(wrap)
}

/// An I/O failure of the database file: where, and the error.
#[derive(Debug, Clone)]
struct Failure {
    path: PathBuf,
    cause: String,
}

impl Failure {
    fn error(&self) -> StoreError {
        StoreError::Failed { path: self.path.clone(), cause: self.cause.clone() }
    }
}

fn write_loop(
    db: &Database,
    path: &Path,
    queue: &mpsc::Receiver<Job>,
    failed: &tokio::sync::watch::Sender<Option<Failure>>,
) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        match apply_batch(db, &batch) {
            Ok(outcomes) => {
                for (job, outcome) in batch.into_iter().zip(outcomes) {
                    let _ = job.reply.send(outcome);
                }
            }
            Err(err) if err.is_io() => {
                // The first failure is the one to report ("No space left on device"); the
                // later ones only say that there was one.
                if failed.borrow().is_none() {
                    failed.send_replace(Some(Failure { path: path.to_path_buf(), cause: io_cause(&err) }));
                }
                let message = failed.borrow().as_ref().map(|f| f.error().to_string()).unwrap_or_default();
                for job in batch {
                    let _ = job.reply.send(Err(WriteError::Unavailable(message.clone())));
                }
            }
            Err(err) => {
                let message = err.to_string();
                for job in batch {
                    let _ = job.reply.send(Err(WriteError::Storage(message.clone())));
                }
            }
        }
    }
}

/// The I/O error itself ("No space left on device (os error 28)"), not redb's wrapping.
fn io_cause(err: &StoreError) -> String {
    match err {
        StoreError::Db(redb::Error::Io(io)) => io.to_string(),
        other => other.to_string(),
    }
}

/// Apply every request in one transaction and commit it durably. A refused request
/// (precondition, unset name) changes nothing and does not hold back the others; a storage
/// error aborts the whole transaction, and every request in it is answered with it.
fn apply_batch(db: &Database, batch: &[Job]) -> Result<Vec<WriteOutcome>, StoreError> {
    let mut txn = db.begin_write().map_err(db_err)?;
    txn.set_durability(Durability::Immediate).map_err(db_err)?;
    let mut outcomes = Vec::with_capacity(batch.len());
    {
        let mut envs = txn.open_table(ENVIRONMENTS).map_err(db_err)?;
        let mut secrets = txn.open_table(SECRETS).map_err(db_err)?;
        for job in batch {
            outcomes.push(apply(&mut envs, &mut secrets, &job.request)?);
        }
    }
    if outcomes.iter().any(Result::is_ok) {
        txn.commit().map_err(db_err)?;
    } else {
        // Only refusals: nothing to make durable, no fsync to pay.
        txn.abort().map_err(db_err)?;
    }
    Ok(outcomes)
}

type EnvTable<'t> = redb::Table<'t, (&'static str, &'static str), &'static [u8]>;
type SecretTable<'t> = redb::Table<'t, (&'static str, &'static str, &'static str), &'static [u8]>;

fn apply(envs: &mut EnvTable, secrets: &mut SecretTable, request: &WriteRequest) -> Result<WriteOutcome, StoreError> {
    let (org, repo) = (request.org.as_str(), request.repo.as_str());
    if let Some(precondition) = &request.precondition {
        let current = render(envs, secrets, org, repo)?;
        if !precondition.allows(&etag(&current)) {
            return Ok(Err(WriteError::PreconditionFailed));
        }
    }
    match &request.change {
        Change::SaveScripts(scripts) => {
            let mut record = load(envs, org, repo)?.unwrap_or_default();
            record.install.clone_from(&scripts.install);
            record.start.clone_from(&scripts.start);
            record.state = State::Ready;
            record.session.clear();
            record.proposal = None;
            store(envs, org, repo, record)?;
        }
        Change::Propose(proposal) => {
            let mut record = load(envs, org, repo)?.unwrap_or_default();
            record.state = State::Proposed;
            record.session = new_session_id()?;
            record.proposal = Some(proposal.clone());
            store(envs, org, repo, record)?;
        }
        Change::Delete => {
            let names = secret_names(secrets, org, repo)?;
            for name in &names {
                secrets.remove((org, repo, name.as_str())).map_err(db_err)?;
            }
            envs.remove((org, repo)).map_err(db_err)?;
        }
        Change::SetSecret { name, sealed } => {
            secrets.insert((org, repo, name.as_str()), sealed.as_slice()).map_err(db_err)?;
        }
        Change::DeleteSecret { name } => {
            if secrets.remove((org, repo, name.as_str())).map_err(db_err)?.is_none() {
                return Ok(Err(WriteError::SecretNotSet));
            }
        }
    }
    Ok(Ok(render(envs, secrets, org, repo)?))
}

fn load(
    envs: &impl ReadableTable<(&'static str, &'static str), &'static [u8]>,
    org: &str,
    repo: &str,
) -> Result<Option<StoredEnvironment>, StoreError> {
    let Some(bytes) = envs.get((org, repo)).map_err(db_err)? else {
        return Ok(None);
    };
    serde_json::from_slice(bytes.value()).map(Some).map_err(|e| StoreError::Corrupt(format!("{org}/{repo}: {e}")))
}

/// Write `record`, moving `updated_ms` forward (strictly, so that two quick saves differ).
fn store(envs: &mut EnvTable, org: &str, repo: &str, mut record: StoredEnvironment) -> Result<(), StoreError> {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
    record.updated_ms = now.max(record.updated_ms.saturating_add(1));
    let bytes = serde_json::to_vec(&record).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    envs.insert((org, repo), bytes.as_slice()).map_err(db_err)?;
    Ok(())
}

fn secret_names(
    secrets: &impl ReadableTable<(&'static str, &'static str, &'static str), &'static [u8]>,
    org: &str,
    repo: &str,
) -> Result<Vec<String>, StoreError> {
    let mut names = Vec::new();
    for row in secrets.range((org, repo, "")..).map_err(db_err)? {
        let (key, _) = row.map_err(db_err)?;
        let (row_org, row_repo, name) = key.value();
        if row_org != org || row_repo != repo {
            break;
        }
        names.push(name.to_string());
    }
    Ok(names)
}

fn render(
    envs: &impl ReadableTable<(&'static str, &'static str), &'static [u8]>,
    secrets: &impl ReadableTable<(&'static str, &'static str, &'static str), &'static [u8]>,
    org: &str,
    repo: &str,
) -> Result<Environment, StoreError> {
    let record = load(envs, org, repo)?.unwrap_or_default();
    let updated_at = (record.state != State::None).then(|| {
        // RFC 3339 has four-digit years: clamp whatever a damaged record holds.
        let at = UNIX_EPOCH + Duration::from_millis(record.updated_ms.min(LAST_RFC3339_MS));
        humantime::format_rfc3339_millis(at).to_string()
    });
    Ok(Environment {
        repo: repo.to_string(),
        install: record.install,
        start: record.start,
        secrets: secret_names(secrets, org, repo)?,
        state: record.state,
        session: record.session,
        proposal: record.proposal,
        updated_at,
    })
}

/// `sess_` and 12 random hex digits: the setup run a proposal came from.
fn new_session_id() -> Result<String, StoreError> {
    let token = super::seal::random_token()?;
    let hex: String = token.bytes().take(6).map(|b| format!("{b:02x}")).collect();
    Ok(format!("sess_{hex}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> MasterKey {
        MasterKey::from_bytes(&[3; 32])
    }

    fn request(org: &str, repo: &str, change: Change) -> WriteRequest {
        WriteRequest { org: org.into(), repo: repo.into(), precondition: None, change }
    }

    fn scripts(install: &str) -> Change {
        Change::SaveScripts(Scripts { install: install.into(), start: String::new() })
    }

    #[tokio::test]
    async fn writes_survive_reopen_and_orgs_are_apart() {
        let dir = tempfile::tempdir().unwrap();
        {
            let store = Store::open(dir.path(), &key()).unwrap();
            store.write(request("a", "site", scripts("make"))).await.unwrap();
            let sealed = key().seal(&super::super::seal::Binding { org: "a", repo: "site", name: "X" }, b"v").unwrap();
            store.write(request("a", "site", Change::SetSecret { name: "X".into(), sealed })).await.unwrap();
        }
        let store = Store::open(dir.path(), &key()).unwrap();
        let env = store.get("a", "site").unwrap();
        assert_eq!((env.install.as_str(), env.state, env.secrets.clone()), ("make", State::Ready, vec!["X".into()]));
        assert_eq!(store.get("b", "site").unwrap().state, State::None);
        assert!(store.list("b").unwrap().is_empty());
        assert_eq!(store.list("a").unwrap().len(), 1);
    }

    #[tokio::test]
    async fn prefixes_of_orgs_and_repos_stay_apart() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &key()).unwrap();
        for (org, repo, name) in [("a", "r", "X"), ("a", "r2", "Y"), ("ab", "r", "Z"), ("", "r", "W")] {
            let change = Change::SetSecret { name: name.into(), sealed: vec![1] };
            store.write(request(org, repo, change)).await.unwrap();
        }
        assert_eq!(store.get("a", "r").unwrap().secrets, ["X"]);
        assert_eq!(store.get("a", "r2").unwrap().secrets, ["Y"]);
        assert_eq!(store.get("ab", "r").unwrap().secrets, ["Z"]);
        let repos: Vec<String> = store.list("a").unwrap().into_iter().map(|e| e.repo).collect();
        assert_eq!(repos, ["r", "r2"]);
        store.write(request("a", "r", Change::Delete)).await.unwrap();
        assert_eq!(store.get("a", "r2").unwrap().secrets, ["Y"]);
        assert_eq!(store.get("ab", "r").unwrap().secrets, ["Z"]);
    }

    #[tokio::test]
    async fn wrong_key_and_newer_schema_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        drop(Store::open(dir.path(), &key()).unwrap());
        assert!(matches!(Store::open(dir.path(), &MasterKey::from_bytes(&[4; 32])), Err(StoreError::WrongKey { .. })));
        {
            let db = Database::create(dir.path().join(DB_FILE)).unwrap();
            let txn = db.begin_write().unwrap();
            txn.open_table(META_U64).unwrap().insert("schema_version", SCHEMA_VERSION + 1).unwrap();
            txn.commit().unwrap();
        }
        let err = Store::open(dir.path(), &key()).err().unwrap();
        assert!(matches!(err, StoreError::SchemaTooNew { found: 2, .. }), "{err}");
    }

    #[tokio::test]
    async fn preconditions_are_checked_against_the_current_etag() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), &key()).unwrap();
        let before = etag(&store.get("o", "r").unwrap());
        let mut req = request("o", "r", scripts("one"));
        req.precondition = Some(Precondition::parse(&before));
        let saved = store.write(req).await.unwrap();
        let mut stale = request("o", "r", scripts("two"));
        stale.precondition = Some(Precondition::parse(&before));
        assert!(matches!(store.write(stale).await, Err(WriteError::PreconditionFailed)));
        let mut weak = request("o", "r", scripts("two"));
        weak.precondition = Some(Precondition::parse(&format!("W/{}", etag(&saved))));
        assert!(matches!(store.write(weak).await, Err(WriteError::PreconditionFailed)));
        let mut any = request("o", "r", scripts("three"));
        any.precondition = Some(Precondition::parse("*"));
        assert_eq!(store.write(any).await.unwrap().install, "three");
    }
}
