//! Atomic file writes: a temporary file in the same directory, fsync, then rename.
//! A reader sees the old file or the new one, never a partial one.

use std::io::Write;
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

#[cfg(test)]
mod tests {
    use super::*;

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
