//! The helpers block: how a plan that calls stock helpers runs alone in a bare sandbox.
//!
//! The file a person reviews names the helpers it calls on one line,
//!
//! ```text
//! # hanzo-env helpers v1: hanzo_node hanzo_pm
//! ```
//!
//! and what `save` sends, `export` writes and `verify` runs has that line replaced by the
//! helpers' text (and the helpers they call) between two marker lines:
//!
//! ```text
//! # >>> hanzo-env helpers v1: hanzo_node hanzo_pm
//! …
//! # <<< hanzo-env helpers v1
//! ```
//!
//! [`collapse`] turns an unmodified block of a known version back into its one line (`pull`,
//! `diff`, `save`'s review, `detect --check`); a block whose text differs from what this
//! version renders is someone's edit, and is kept and shown in full. [`expand`] is the
//! reverse, and refuses a line naming a version or helper it does not know rather than send a
//! script that fails with "command not found".

use thiserror::Error;

use super::{HELPERS, with_needs};

/// The helpers' version: bumped whenever a helper's text changes, so that a block written by
/// one release is never mistaken for another's.
pub const VERSION: u32 = 1;

const LINE: &str = "# hanzo-env helpers v";
const BEGIN: &str = "# >>> hanzo-env helpers v";
const END: &str = "# <<< hanzo-env helpers v";

#[derive(Debug, Error, PartialEq, Eq)]
pub enum BlockError {
    #[error(
        "line {line}: `hanzo-env helpers v{version}` is not a version of the helpers this hanzo-env knows (it writes v{VERSION})"
    )]
    UnknownVersion { line: usize, version: String },
    #[error("line {line}: `{name}` is not a stock helper of hanzo-env helpers v{VERSION}")]
    UnknownHelper { line: usize, name: String },
}

impl crate::diagnostic::Diagnostic for BlockError {
    fn hint(&self) -> Option<String> {
        Some(
            "update hanzo-env, or replace the line with the helpers' text (a saved copy's block: `hanzo-env show`)"
                .into(),
        )
    }
}

/// `install` and `start` as they run alone: each helpers line replaced by its block.
pub fn runnable(install: &str, start: &str) -> anyhow::Result<(String, String)> {
    use anyhow::Context;
    let install = expand(install).context("in `install`")?;
    let start = expand(start).context("in `start`")?;
    Ok((install, start))
}

/// The one line naming `helpers` (top-level names: the ones the plan calls).
pub fn line(helpers: &[&str]) -> String {
    format!("{LINE}{VERSION}: {}", helpers.join(" "))
}

/// The block of this version for `helpers`: their text and that of every helper they call.
pub fn block(helpers: &[&str]) -> String {
    let mut out = format!("{BEGIN}{VERSION}: {}\n", helpers.join(" "));
    out.push_str("# Stock helpers of hanzo-env (generated): `hanzo-env pull` and `diff` show this block as one line\n");
    out.push_str("# while it is unchanged; an edited block is kept, and shown, in full.\n");
    for helper in with_needs(helpers) {
        out.push_str(&summary(helper.text));
    }
    out.push_str(&format!("{END}{VERSION}"));
    out
}

/// A helper's text as a block carries it: the first line of its header comment (what it
/// takes), then its code; the rest of the header is for readers of the repository, and the
/// script must stay under the server's 16 KiB.
fn summary(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut lines = text.trim_end().lines().peekable();
    if let Some(first) = lines.next() {
        out.push_str(first);
        out.push('\n');
    }
    while lines.peek().is_some_and(|l| l.starts_with('#') && !l.starts_with("# shellcheck")) {
        lines.next();
    }
    for line in lines {
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// (version, names) of a marker line starting with `prefix`.
fn parse<'a>(line: &'a str, prefix: &str) -> Option<(&'a str, Vec<&'a str>)> {
    let rest = line.trim_end().strip_prefix(prefix)?;
    let (version, names) = rest.split_once(':')?;
    if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((version, names.split_whitespace().collect()))
}

/// `script` with each helpers line replaced by its block. A script without one (or with an
/// expanded block already) is returned as it is.
pub fn expand(script: &str) -> Result<String, BlockError> {
    if !script.lines().any(|l| parse(l, LINE).is_some()) {
        return Ok(script.to_string());
    }
    let mut out = String::with_capacity(script.len() + 4096);
    for (i, line) in script.split_inclusive('\n').enumerate() {
        let Some((version, names)) = parse(line, LINE) else {
            out.push_str(line);
            continue;
        };
        if version != VERSION.to_string() {
            return Err(BlockError::UnknownVersion { line: i + 1, version: version.to_string() });
        }
        if let Some(unknown) = names.iter().find(|n| !HELPERS.iter().any(|h| h.name == **n)) {
            return Err(BlockError::UnknownHelper { line: i + 1, name: unknown.to_string() });
        }
        out.push_str(&block(&names));
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    Ok(out)
}

/// `script` with every unmodified block of a known version replaced by its one line; an
/// edited block, or one of another version, is kept as it is.
pub fn collapse(script: &str) -> String {
    let mut out = String::with_capacity(script.len());
    let mut rest = script;
    while let Some(at) = find_line(rest, BEGIN) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let Some(end_at) = find_line(from, END) else { break };
        let end_len = from[end_at..].find('\n').unwrap_or(from.len() - end_at);
        let candidate = &from[..end_at + end_len];
        let first = candidate.lines().next().unwrap_or_default();
        match parse(first, BEGIN) {
            Some((version, names)) if version == VERSION.to_string() && candidate == block(&names) => {
                out.push_str(&line(&names));
            }
            _ => out.push_str(candidate),
        }
        rest = &from[end_at + end_len..];
    }
    out.push_str(rest);
    out
}

/// The byte offset of the first line of `text` that starts with `prefix`.
fn find_line(text: &str, prefix: &str) -> Option<usize> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with(prefix) {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

/// The helpers a script's line or block names (what export and verify need to know of it),
/// without reading its shell.
pub fn named_helpers(script: &str) -> Vec<String> {
    script
        .lines()
        .filter_map(|l| parse(l, LINE).or_else(|| parse(l, BEGIN)))
        .flat_map(|(_, names)| names.into_iter().map(str::to_string))
        .collect()
}

/// Whether `line` is a helpers line or a block's marker (for readers that skip them).
pub fn is_marker(line: &str) -> bool {
    parse(line, LINE).is_some() || parse(line, BEGIN).is_some() || line.starts_with(END)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each stock helper of v1 and the SHA-256 of its text.
    const PINNED_V1: &[(&str, &str)] = &[
        ("hanzo_root", "fbd8f37b9ae9018869342a58071612ac2c76489ad342955383e85ad223719b05"),
        ("hanzo_as", "0a1416dc560ea8d2f91757c45eef08c429e2442d87b5140422d18151dfb22435"),
        ("hanzo_answers", "7d574c3188142e43410589d4e04a0691d96a531b64bab08095437d2693d9bc01"),
        ("hanzo_wait", "26139bd7385c8e1dac1507285ed7f80ba6bd806d1665aaa193d83f0049c227cf"),
        ("hanzo_needs", "54b4a8ff5afe68a4db890909876c5b33e4fa4e2ab7e23c3f4a69319836492681"),
        ("hanzo_v6", "6f92fa24f7d63d5b0f69717f5534e84acd757cec8323e421e5911416409c22e6"),
        ("hanzo_apt_install", "1f2d88096a8544b33a8a43e955d5dd173c78723d97f57710f00262b7a6d7b60c"),
        ("hanzo_docker", "ff5c5f3ac6d64d7ab44738b2034464507189f4df2ab1a0fbea5f728cb697698f"),
        ("hanzo_compose", "d6196487c5702650cf96dd67bc48759fb1c098175ba7e12aaefcc19369b89475"),
        ("hanzo_service_packages", "ae23e5e6873cc94dc2d3c76e994992f28a74ff43e3fe971f34e3a72f611d72ea"),
        ("hanzo_service", "f7911413f335e2edb7c26898000b5a6ee0730b277140fda413116fb816e46ffe"),
        ("hanzo_postgres", "9838f1b0261f6614eafc4c97f736754d8dc2d21fe097b3fdb81b34a5bda733d8"),
        ("hanzo_mysql", "cf2cfeb866eda41a7e3970781cfc4735ce3e890bcecf9da96b72dc07ba849b52"),
        ("hanzo_redis", "d8f2fe8521eaed1b2cda92d453566bb65cc34aff8fa6e30f361868633e5d94a9"),
        ("hanzo_memcached", "4ac3f221e1597292e9c26e9e9a5d9cd6d26fc88c397c8bcec4f7e217799c91d1"),
        ("hanzo_rabbitmq", "e2c6ffb1f08db6c4e6a1247cde74326522d60647fc081baa816a10ffbe3f7491"),
        ("hanzo_node", "cdcc80b6310fe93e7472e754a49a3ef2605b4015e33d447e19bbd1e9d98b1f3b"),
        ("hanzo_node_tested", "7ea7956987f8faeb4db57703cdb5bf94fb8339011c360c7d0955200fb344cc47"),
        ("hanzo_pm", "5d9e669d17051b948dc35030eb4bf18f311b959664a87d40463d03938a4d4d8d"),
        ("hanzo_python", "0cc61f977e22e0b07171a90630a72b3e1a09aaf2f148c5a37fdd342ab8ee4a3d"),
        ("hanzo_python_in", "fe2d862a8ba8e8aa1c1da98e572b2b21869b9b5655188f97ef074c13a0dd3ebd"),
        ("hanzo_python_newest", "601c49548b7f9bd9f0fc7713689477ba8db2f0ad55cb352cc075e6f6695bfae1"),
        ("hanzo_pip_setup", "67e8e553c44987a9cb0a4d9a20c3dfd421451ab3b525fd24cef9c08d553188fd"),
        ("hanzo_pip_each", "194ad7dd619262ef3015be7f658eb2c10244d9801d640df40b8def8a8672a014"),
        ("hanzo_uv_venv", "08d9ace9f000d95199f999c51b2ce4f5a04365de58a524955de6e1d66fe505ca"),
        ("hanzo_link_user_tools", "3399f60d7462131a5522e04e4468e8e1b0b91a8ad1069105b33f9a373a9d30eb"),
        ("hanzo_have", "b679e07466ed96a8563ff46cd622d18b91c780c69bba256c5abf51d5d3bf0360"),
    ];

    const PLAN: &str = "# hanzo-env helpers v1: hanzo_node hanzo_pm\nset -euo pipefail\nhanzo_node 22  # .nvmrc\n";

    #[test]
    fn expand_then_collapse_gives_the_plan_back() {
        let full = expand(PLAN).unwrap();
        assert!(full.starts_with("# >>> hanzo-env helpers v1: hanzo_node hanzo_pm\n"), "{full}");
        assert!(full.contains("\nhanzo_node() {\n"), "{full}");
        assert!(full.contains("\n# <<< hanzo-env helpers v1\nset -euo pipefail\nhanzo_node 22  # .nvmrc\n"), "{full}");
        assert_eq!(collapse(&full), PLAN);
        // Idempotent both ways.
        assert_eq!(expand(&full).unwrap(), full);
        assert_eq!(collapse(PLAN), PLAN);
    }

    #[test]
    fn an_edited_block_is_kept_in_full() {
        let full = expand(PLAN).unwrap();
        let edited = full.replace("going on with", "carrying on with");
        assert_ne!(edited, full);
        assert_eq!(collapse(&edited), edited);
        assert_eq!(named_helpers(&edited), ["hanzo_node", "hanzo_pm"]);
    }

    #[test]
    fn a_block_of_another_version_is_kept_and_its_line_refused() {
        let other = expand(PLAN).unwrap().replace("helpers v1", "helpers v9");
        assert_eq!(collapse(&other), other);
        let err = expand("# hanzo-env helpers v9: hanzo_node\nhanzo_node 22\n").unwrap_err();
        assert_eq!(err, BlockError::UnknownVersion { line: 1, version: "9".into() });
        let err = expand("true\n# hanzo-env helpers v1: hanzo_nope\n").unwrap_err();
        assert_eq!(err, BlockError::UnknownHelper { line: 2, name: "hanzo_nope".into() });
    }

    /// The helpers' text is part of their version: a saved block of v1 must read the same
    /// tomorrow. A change to a helper's text fails here: bump [`VERSION`] with it. A new
    /// helper is a new row (blocks that name only the others read as before).
    #[test]
    fn the_helpers_text_is_pinned_to_its_version() {
        use sha2::Digest;
        let digests: Vec<(&str, String)> = HELPERS
            .iter()
            .map(|h| (h.name, sha2::Sha256::digest(h.text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()))
            .collect();
        let pinned: Vec<(&str, String)> = PINNED_V1.iter().map(|(n, d)| (*n, d.to_string())).collect();
        assert_eq!(VERSION, 1);
        assert_eq!(digests, pinned, "a helper changed: bump VERSION and pin the new digests");
    }

    #[test]
    fn a_script_without_helpers_is_untouched() {
        for script in ["", "npm ci", "# hanzo-env helpers are nice\nnpm ci\n", "# hanzo-env helpers vX: a\n"] {
            assert_eq!(expand(script).unwrap(), script);
            assert_eq!(collapse(script), script);
        }
    }

    #[test]
    fn a_block_without_its_end_is_kept() {
        let cut = "# >>> hanzo-env helpers v1: hanzo_node\nhanzo_node() { :; }\n";
        assert_eq!(collapse(cut), cut);
    }
}
