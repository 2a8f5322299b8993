//! Rendering env files that bash `source`, dotenvy and the project's own dotenv parser
//! (`crate::dotenv`) all read back exactly.
//!
//! A value is written in single quotes (`'…'`, taken literally by all three, newlines, `$`,
//! `#`, `"` and unicode included) unless it holds a `'` or ends in a `\`; then in double
//! quotes with `\\`, `\"` and `\$` escaped, which all three decode alike. Neither form
//! can carry a value with a backtick and a `'` (or a final `\`): bash needs a backtick
//! escaped inside double quotes where dotenvy refuses the escape, and the project's parser
//! reads no concatenated `'a'\''b'` pieces. Such a value is refused, naming the entry.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use secrecy::ExposeSecret;

use super::Resolved;

/// The first line of every env file we write; also how we recognise one before replacing it.
pub const HEADER: &str =
    "# Written by `hanzo-env env-file`: resolved [env] entries. Private (mode 0600); never commit it.";

#[derive(Debug, thiserror::Error)]
#[error(
    "[env] {name}: the value holds a backtick and a ' (or ends in \\), which no quoting reads back alike in bash and dotenv parsers"
)]
pub struct UnquotableError {
    pub name: String,
}

impl crate::diagnostic::Diagnostic for UnquotableError {
    fn hint(&self) -> Option<String> {
        Some(format!("use `hanzo-env run` for {}, which passes values through the environment unchanged", self.name))
    }
}

/// The file's text: the header, then one `NAME=value` per entry (a value may span lines).
pub fn render(entries: &[Resolved]) -> Result<zeroize::Zeroizing<String>, UnquotableError> {
    let mut out = zeroize::Zeroizing::new(String::with_capacity(HEADER.len() + 64 * entries.len()));
    out.push_str(HEADER);
    out.push('\n');
    for entry in entries {
        out.push_str(&entry.name);
        out.push('=');
        if !quote_into(entry.value.expose_secret(), &mut out) {
            return Err(UnquotableError { name: entry.name.clone() });
        }
        out.push('\n');
    }
    Ok(out)
}

/// Append `value`, quoted, to `out`; false (and nothing appended) when no quoting fits.
pub fn quote_into(value: &str, out: &mut String) -> bool {
    let trailing_backslashes = value.len() - value.trim_end_matches('\\').len();
    // dotenvy's line joiner reads `\'` inside single quotes as an escaped quote.
    if !value.contains('\'') && trailing_backslashes.is_multiple_of(2) {
        out.push('\'');
        out.push_str(value);
        out.push('\'');
        return true;
    }
    if value.contains('`') {
        return false;
    }
    out.push('"');
    for c in value.chars() {
        if matches!(c, '\\' | '"' | '$') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    true
}

/// Whether `path` may receive secrets as far as git is concerned.
#[derive(Debug, PartialEq, Eq)]
pub enum GitVerdict {
    /// Outside any work tree, or git is not installed.
    NotInRepo,
    /// Inside a work tree, and git ignores the path.
    Ignored,
    /// Inside the work tree at `root`, not ignored: a `git add .` would commit it.
    NotIgnored { root: PathBuf },
}

/// Ask git whether `path` (which need not exist yet) is ignored in the work tree around it.
pub fn git_verdict(path: &Path) -> GitVerdict {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    // `git -C` needs an existing directory: the nearest existing ancestor.
    let Some(dir) = absolute.ancestors().skip(1).find(|d| d.is_dir()) else {
        return GitVerdict::NotInRepo;
    };
    let git = |args: &[&std::ffi::OsStr]| {
        crate::checkout::git(true, None)
            .arg("-C")
            .arg(dir)
            .args(args)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
    };
    let root = match git(&["rev-parse".as_ref(), "--show-toplevel".as_ref()]) {
        Ok(out) if out.status.success() => PathBuf::from(String::from_utf8_lossy(&out.stdout).trim_end()),
        _ => return GitVerdict::NotInRepo,
    };
    // Without --no-index, a tracked file counts as not ignored even when a pattern matches it:
    // its next version would be committed.
    match git(&["check-ignore".as_ref(), "-q".as_ref(), "--".as_ref(), absolute.as_os_str()]) {
        Ok(out) if out.status.code() == Some(0) => GitVerdict::Ignored,
        Ok(out) if out.status.code() == Some(1) => GitVerdict::NotIgnored { root },
        // 128: git could not decide (e.g. a path outside the repo through a symlink).
        _ => GitVerdict::NotInRepo,
    }
}

/// Whether an existing file at `path` is one we wrote (so replacing it loses nothing).
pub fn is_ours(path: &Path) -> std::io::Result<bool> {
    use std::io::Read;
    let mut first = vec![0u8; HEADER.len()];
    let mut file = std::fs::File::open(path)?;
    let read = file.read(&mut first)?;
    Ok(read == HEADER.len() && first == HEADER.as_bytes())
}

#[cfg(test)]
mod tests {
    use secrecy::SecretString;

    use std::process::Command;

    use super::*;

    pub(crate) const AWKWARD: &[&str] = &[
        "",
        "plain",
        "with space",
        "it's",
        "'",
        "''",
        "\\",
        "ends with backslash\\",
        "\\'",
        "'\\",
        "a\\'b",
        "double \"quoted\"",
        "$HOME ${HOME} $(whoami) `id`",
        "a=b=c",
        "#not a comment",
        "x #y",
        "multi\nline\nvalue\n",
        "\n",
        "trailing space ",
        " leading",
        "tab\there",
        "crlf\r\n",
        "é ünïcödé 🚀 日本",
        "!bang !! history",
        "back\\nslash-n",
        "semi;colon&amp|pipe>redir<",
        "odd backslashes\\\\\\",
        "even backslashes\\\\",
        "it's a \"mix\" of $ and \\ and\nlines",
        "backtick ` alone",
    ];

    fn resolved(name: &str, value: &str) -> Resolved {
        Resolved { name: name.to_string(), value: SecretString::from(value), sensitive: true }
    }

    #[test]
    fn quoting_reads_back_through_dotenvy() {
        for value in AWKWARD {
            let text = render(&[resolved("X", value), resolved("AFTER", "sentinel")]).unwrap();
            let parsed: Vec<(String, String)> = dotenvy::from_read_iter(text.as_bytes())
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{value:?}: {e}\n{}", text.as_str()));
            assert_eq!(
                parsed,
                vec![("X".to_string(), value.to_string()), ("AFTER".to_string(), "sentinel".to_string())],
                "{value:?} rendered as {}",
                text.as_str()
            );
        }
    }

    /// `text` as the project's own parser (`secret import`) reads it.
    fn project_parse(text: &str) -> Vec<(String, String)> {
        crate::dotenv::parse(text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"))
            .into_iter()
            .map(|e| (e.name, e.value.expose_secret().to_string()))
            .collect()
    }

    #[test]
    fn quoting_reads_back_through_the_projects_dotenv_parser() {
        for value in AWKWARD {
            let text = render(&[resolved("X", value), resolved("AFTER", "sentinel")]).unwrap();
            assert_eq!(
                project_parse(&text),
                vec![("X".to_string(), value.to_string()), ("AFTER".to_string(), "sentinel".to_string())],
                "{value:?} rendered as {}",
                text.as_str()
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn any_value_reads_back_through_both_dotenv_parsers_or_is_refused(value in r#"(['\\`"$# =\n\r\t]|[^\x00]){0,40}"#) {
            match render(&[resolved("X", &value), resolved("AFTER", "s")]) {
                Ok(text) => {
                    let want = vec![("X".to_string(), value.clone()), ("AFTER".to_string(), "s".to_string())];
                    let dotenvy: Vec<(String, String)> =
                        dotenvy::from_read_iter(text.as_bytes()).collect::<Result<_, _>>().unwrap();
                    proptest::prop_assert_eq!(&dotenvy, &want);
                    proptest::prop_assert_eq!(&project_parse(&text), &want);
                }
                Err(_) => proptest::prop_assert!(value.contains('`')),
            }
        }
    }

    #[test]
    fn quoting_reads_back_through_bash_source() {
        let dir = tempfile::tempdir().unwrap();
        for (i, value) in AWKWARD.iter().enumerate() {
            let path = dir.path().join(format!("{i}.env"));
            std::fs::write(&path, render(&[resolved("X", value)]).unwrap().as_bytes()).unwrap();
            let out = Command::new("bash")
                .args(["-c", "source \"$1\" && printf %s \"$X\"", "bash"])
                .arg(&path)
                .env_clear()
                .output()
                .unwrap();
            assert!(out.status.success(), "{value:?}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(String::from_utf8(out.stdout).unwrap(), *value, "{value:?}");
        }
    }

    #[test]
    fn renders_readably() {
        let text = render(&[resolved("A", "it's $5"), resolved("B", ""), resolved("C", "a $b #c")]).unwrap();
        assert_eq!(text.as_str(), format!("{HEADER}\nA=\"it's \\$5\"\nB=''\nC='a $b #c'\n"));
    }

    #[test]
    fn a_value_no_quoting_fits_is_refused_by_name() {
        for value in ["it's `id`", "`x`\\"] {
            let err = render(&[resolved("OK", "fine"), resolved("ODD", value)]).unwrap_err();
            assert_eq!(err.name, "ODD");
            assert!(!err.to_string().contains(value));
        }
    }

    #[test]
    fn git_verdicts() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(git_verdict(&dir.path().join("x.env")), GitVerdict::NotInRepo);
        let ok = Command::new("git").arg("init").arg("-q").arg(dir.path()).status().is_ok_and(|s| s.success());
        if !ok {
            return; // git is not installed: nothing more to check.
        }
        std::fs::write(dir.path().join(".gitignore"), "*.env\nsecret/\n").unwrap();
        assert_eq!(git_verdict(&dir.path().join("run.env")), GitVerdict::Ignored);
        assert_eq!(git_verdict(&dir.path().join("secret/deeper/file")), GitVerdict::Ignored);
        let root = std::fs::canonicalize(dir.path()).unwrap();
        assert!(
            matches!(git_verdict(&dir.path().join("sub/run.txt")), GitVerdict::NotIgnored { root: r } if std::fs::canonicalize(&r).unwrap() == root)
        );
        std::fs::write(dir.path().join("run.env"), "A=1\n").unwrap();
        Command::new("git").arg("-C").arg(dir.path()).args(["add", "-f", "run.env"]).status().unwrap();
        assert!(
            matches!(git_verdict(&dir.path().join("run.env")), GitVerdict::NotIgnored { .. }),
            "a tracked file is not ignored"
        );
    }

    #[test]
    fn recognises_its_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let ours = dir.path().join("ours.env");
        std::fs::write(&ours, render(&[resolved("A", "1")]).unwrap().as_bytes()).unwrap();
        assert!(is_ours(&ours).unwrap());
        let theirs = dir.path().join(".bashrc");
        std::fs::write(&theirs, "export A=1\n").unwrap();
        assert!(!is_ours(&theirs).unwrap());
    }
}
