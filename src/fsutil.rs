//! Atomic file writes: a temporary file in the same directory, fsync, then rename.
//! A reader sees the old file or the new one, never a partial one.
//!
//! And capped reads of files a checkout supplies: only a regular file is opened for reading
//! (a FIFO would block forever, `/dev/zero` never ends), and never more than a cap.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[error("could not write {}: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: std::io::Error,
}

impl crate::diagnostic::Diagnostic for WriteError {
    fn hint(&self) -> Option<String> {
        Some("check that the directory exists and is writable".into())
    }
}

/// Write `contents` to `path` atomically. With `private`, the file is created mode 0600
/// (no moment where others could read it); otherwise 0644 less the umask.
pub fn write_atomic(path: &Path, contents: &[u8], private: bool) -> Result<(), WriteError> {
    let wrap = |source| WriteError { path: path.to_path_buf(), source };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(wrap)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".hanzo-tmp-");
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o600));
    }
    #[cfg(unix)]
    if !private {
        use std::os::unix::fs::PermissionsExt;
        // tempfile creates 0600 by default; a proposal file is ordinary, shareable text.
        builder.permissions(std::fs::Permissions::from_mode(0o644));
    }
    let mut tmp = builder.tempfile_in(&dir).map_err(wrap)?;
    tmp.write_all(contents).map_err(wrap)?;
    tmp.as_file().sync_all().map_err(wrap)?;
    tmp.persist(path).map_err(|e| wrap(e.error))?;
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Why a file was not read.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("it does not exist")]
    Missing,
    #[error("it is not a regular file but {0}")]
    NotRegular(&'static str),
    #[error("it is over the {cap} byte limit")]
    TooLarge { cap: u64 },
    #[error("it is a symlink to {}, outside the checkout", .0.display())]
    Outside(PathBuf),
    #[error("{0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for Refusal {
    fn from(err: std::io::Error) -> Self {
        if err.kind() == std::io::ErrorKind::NotFound { Refusal::Missing } else { Refusal::Io(err) }
    }
}

/// Open `path` (following symlinks) for reading, when it is a regular file. Nothing else is
/// opened: the type is checked before the open, and again on the open file in case it was
/// swapped in between (the open never blocks and never takes a terminal).
pub fn open_regular(path: &Path) -> Result<std::fs::File, Refusal> {
    regular(&std::fs::metadata(path)?)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    regular(&file.metadata()?)?;
    Ok(file)
}

/// Where the symlink at `path` leads when that is outside `root` (both resolved), `None`
/// when `path` is no symlink, dangles, or stays inside. A checkout's link to
/// `../elsewhere/compose.yml` or `/etc/…` must not be read as the checkout's own file.
pub fn link_outside(path: &Path, root: &Path) -> Option<PathBuf> {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return None;
    }
    let target = std::fs::canonicalize(path).ok()?;
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    (!target.starts_with(&root)).then_some(target)
}

/// [`open_regular`] for a file of the checkout at `root`: a symlink that leads out of it is
/// refused ([`Refusal::Outside`]).
pub fn open_regular_within(path: &Path, root: &Path) -> Result<std::fs::File, Refusal> {
    if let Some(target) = link_outside(path, root) {
        return Err(Refusal::Outside(target));
    }
    open_regular(path)
}

/// The bytes of the regular file at `path`, at most `cap` of them (a larger file is refused,
/// never cut short).
pub fn read_regular(path: &Path, cap: u64) -> Result<Vec<u8>, Refusal> {
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    if len > cap {
        return Err(Refusal::TooLarge { cap });
    }
    // The length may be wrong (a file in /proc, one still growing): the cap holds regardless.
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(Refusal::TooLarge { cap });
    }
    Ok(bytes)
}

/// [`read_regular`] for a file named by the user or the environment (a CA bundle, a token
/// or key file), as an I/O error: a missing file stays `NotFound`; `/dev/zero`, a FIFO or a
/// file over `cap` is `InvalidInput`, saying which.
pub fn read_regular_io(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    read_regular(path, cap).map_err(|refusal| match refusal {
        Refusal::Missing => std::io::Error::from(std::io::ErrorKind::NotFound),
        Refusal::Io(e) => e,
        other => std::io::Error::new(std::io::ErrorKind::InvalidInput, other.to_string()),
    })
}

/// [`read_regular_io`] as UTF-8 text.
pub fn read_regular_text(path: &Path, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read_regular_io(path, cap)?)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

fn regular(meta: &std::fs::Metadata) -> Result<(), Refusal> {
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(());
    }
    Err(Refusal::NotRegular(describe_kind(kind)))
}

/// "a FIFO", "a character device", …: what a file that is not a regular file is.
pub fn describe_kind(kind: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symlink"
    } else if kind.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn only_bounded_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.toml");
        std::fs::write(&file, "0123456789").unwrap();
        assert_eq!(read_regular(&file, 10).unwrap(), b"0123456789");
        assert!(matches!(read_regular(&file, 9), Err(Refusal::TooLarge { cap: 9 })));
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_regular(&link, 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), "it is not a regular file but a character device");
        let fifo = dir.path().join("fifo");
        let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: mkfifo(3) with a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        let started = std::time::Instant::now();
        assert_eq!(read_regular(&fifo, 1 << 20).unwrap_err().to_string(), "it is not a regular file but a FIFO");
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "a FIFO never blocks the read");
        assert!(matches!(read_regular(dir.path(), 1), Err(Refusal::NotRegular("a directory"))));
        assert!(matches!(read_regular(&dir.path().join("nope"), 1), Err(Refusal::Missing)));
    }

    #[test]
    fn writes_and_replaces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b.toml");
        write_atomic(&path, b"one", false).unwrap();
        write_atomic(&path, b"two", false).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().collect();
        assert_eq!(leftovers.len(), 1, "no temporary files left behind");
    }

    #[cfg(unix)]
    #[test]
    fn private_files_are_0600() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.env");
        write_atomic(&path, b"A=1\n", true).unwrap();
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
