//! The "Setup" section of `AGENTS.md` (read by Codex, Jules and others): install, start,
//! the primary test command and the secret names to set, between two marker comments.
//! A later export replaces only what lies between the markers; every other byte of the file
//! stays as it was. A file without markers gets the section appended.

use super::{ExportError, ExportFile, Exported, Setup, Target};
use crate::plan::block;

pub const PATH: &str = "AGENTS.md";
pub use crate::detect::repo::{AGENTS_MD_END as END_MARKER, AGENTS_MD_START as START_MARKER};

pub fn render(setup: &Setup, existing: Option<&str>) -> Result<Exported, ExportError> {
    let found = existing.map(find_section).transpose()?.flatten();
    // The section keeps the line ending its start marker has, else the file's first line's.
    let first_line = match (existing, found) {
        (Some(text), Some((start, _))) => text[start..].split_inclusive('\n').next(),
        (Some(text), None) => text.split_inclusive('\n').next(),
        (None, _) => None,
    };
    let newline = if first_line.is_some_and(|l| l.ends_with("\r\n")) { "\r\n" } else { "\n" };
    let section = section(setup).replace('\n', newline);
    let contents = match existing {
        None => section,
        Some(text) => match found {
            Some((start, end)) => format!("{}{section}{}", &text[..start], &text[end..]),
            None if text.is_empty() => section,
            None => {
                // Append after one blank line, adding the final newline the file may lack.
                let mut out = text.to_string();
                if !out.ends_with('\n') {
                    out.push_str(newline);
                }
                out.push_str(newline);
                out.push_str(&section);
                out
            }
        },
    };
    Ok(Exported { files: vec![ExportFile { path: PATH.into(), contents }], notes: Vec::new() })
}

/// The byte range of the current section, from the start of its start-marker line to the
/// end of its end-marker line (newline included); `None` when the file has no markers.
pub fn find_section(text: &str) -> Result<Option<(usize, usize)>, ExportError> {
    let mut starts = Vec::new();
    let mut ends = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        match line.trim() {
            START_MARKER => starts.push((index + 1, offset)),
            END_MARKER => ends.push((index + 1, offset + line.len())),
            _ => {}
        }
        offset += line.len();
    }
    let malformed = |detail: String| Err(ExportError::Markers { path: PATH.into(), detail });
    let lines = |found: &[(usize, usize)]| found.iter().map(|(l, _)| l.to_string()).collect::<Vec<_>>().join(", ");
    match (starts.as_slice(), ends.as_slice()) {
        ([], []) => Ok(None),
        ([(_, start)], [(_, end)]) if start < end => Ok(Some((*start, *end))),
        ([(start_line, _)], [(end_line, _)]) => {
            malformed(format!("the end marker (line {end_line}) comes before the start marker (line {start_line})"))
        }
        ([(line, _)], []) => malformed(format!("the start marker on line {line} has no end marker after it")),
        ([], [(line, _)]) => malformed(format!("the end marker on line {line} has no start marker before it")),
        _ => malformed(format!(
            "{} start markers (lines {}) and {} end markers (lines {}); there must be one of each",
            starts.len(),
            lines(&starts),
            ends.len(),
            lines(&ends)
        )),
    }
}

/// A plan's lines without its helpers line and `set -euo pipefail`.
fn steps(plan: &str) -> String {
    let lines: Vec<&str> = plan.lines().filter(|l| !block::is_marker(l) && l.trim() != "set -euo pipefail").collect();
    lines.join("\n").trim().to_string()
}

/// The section, markers included, ending with a newline.
pub fn section(setup: &Setup) -> String {
    let mut out = format!("{START_MARKER}\n## Setup\n\n<!-- {} -->\n\n", super::header(Target::AgentsMd, setup));
    let pins: Vec<String> = setup
        .toolchains
        .iter()
        .filter_map(|t| t.version.as_ref().map(|v| super::one_line(&format!("{} {v}", t.name))))
        .collect();
    if !pins.is_empty() {
        out.push_str(&format!("Toolchains: {}.\n\n", pins.join(", ")));
    }
    // The steps a person would type: the plan, not the helpers' text.
    let install = steps(&setup.plan_install);
    if install.is_empty() {
        out.push_str("Nothing to install.\n\n");
    } else {
        out.push_str("Install, from the repository root:\n\n");
        out.push_str(&code_block(&install));
    }
    let start = steps(&setup.plan_start);
    if !start.is_empty() {
        out.push_str("Start in the background before working:\n\n");
        out.push_str(&code_block(&start));
    }
    if !block::named_helpers(&setup.plan_install).is_empty() || !block::named_helpers(&setup.plan_start).is_empty() {
        out.push_str(
            "Lines starting `hanzo_` call hanzo-env's stock helpers (`hanzo_node 22`: Node 22 on PATH; \
             `hanzo_service postgres 5432 …`: that server without Docker); `hanzo-env export --to cursor` \
             writes them out as a script.\n\n",
        );
    }
    let services: Vec<String> = setup
        .services
        .iter()
        .map(|s| match &s.image {
            Some(image) => super::one_line(&format!("{} (`{image}`)", s.name)),
            None => super::one_line(&s.name),
        })
        .collect();
    if !services.is_empty() {
        out.push_str(&format!("Services the tests need: {}.\n\n", services.join(", ")));
    }
    if let Some(test) = setup.tests.first() {
        out.push_str("Run the tests:\n\n");
        out.push_str(&code_block(&test.command));
    }
    if !setup.secrets.is_empty() {
        let names: Vec<String> = setup.secrets.iter().map(|(n, _)| format!("`{n}`")).collect();
        out.push_str(&format!(
            "Secrets to set as environment variables (ask a maintainer for the values; never commit them): {}.\n\n",
            names.join(", ")
        ));
    }
    out.push_str(END_MARKER);
    out.push('\n');
    out
}

/// A fenced `sh` block that no backtick run inside `text` can close early, and whose lines
/// never read as the section's markers (see [`quoted_marker`]).
fn code_block(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let body: Vec<String> = text.trim_end_matches('\n').split('\n').map(quoted_marker).collect();
    format!("{fence}sh\n{}\n{fence}\n\n", body.join("\n"))
}

/// A line of the repository's text that is one of the section's marker lines gets a shell
/// comment after it: the next export would otherwise find two sections and refuse the file.
/// (The markers are found wherever they stand, code blocks included.)
fn quoted_marker(line: &str) -> String {
    match line.trim() {
        START_MARKER | END_MARKER => format!("{line}  # (quoted by hanzo-env: not the section's marker)"),
        _ => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn export(existing: Option<&str>) -> Result<String, ExportError> {
        render(&super::super::tests::setup(), existing).map(|e| e.files[0].contents.clone())
    }

    #[test]
    fn the_section_says_install_start_test_and_secrets() {
        let text = export(None).unwrap();
        assert!(text.starts_with(START_MARKER) && text.ends_with(&format!("{END_MARKER}\n")), "{text}");
        assert!(text.contains("Install, from the repository root:\n\n```sh\n"), "{text}");
        assert!(text.contains("\npnpm install --frozen-lockfile\n"), "{text}");
        assert!(!text.contains("set -euo pipefail"), "the steps a person types: {text}");
        assert!(text.contains("```sh\ndocker compose up -d db cache && pnpm dev\n```"), "{text}");
        assert!(text.contains("Run the tests:\n\n```sh\npnpm test\n```"), "{text}");
        assert!(text.contains("`DATABASE_URL`, `STRIPE_SECRET_KEY`"), "{text}");
        assert!(text.contains("Toolchains: node 20, python 3.12."), "{text}");
    }

    #[test]
    fn appends_once_then_replaces_only_between_the_markers() {
        let original = "# Shop\n\nNotes for agents.";
        let first = export(Some(original)).unwrap();
        assert!(first.starts_with("# Shop\n\nNotes for agents.\n\n<!-- hanzo-env:setup:start -->"), "{first}");
        assert_eq!(export(Some(&first)).unwrap(), first, "a second export changes nothing");
        // Edits around the section survive; a stale section is replaced.
        let edited = format!("Top line\n{}\n## More\ntext without newline", first.replace("pnpm test", "old"));
        let again = export(Some(&edited)).unwrap();
        assert!(again.starts_with("Top line\n# Shop\n\nNotes for agents.\n\n<!--"), "{again}");
        assert!(again.ends_with(&format!("{END_MARKER}\n\n## More\ntext without newline")), "{again}");
        assert!(again.contains("pnpm test") && !again.contains("old"), "{again}");
    }

    #[test]
    fn crlf_files_stay_crlf() {
        let text = export(Some("# Shop\r\n")).unwrap();
        assert!(text.starts_with("# Shop\r\n\r\n<!-- hanzo-env:setup:start -->\r\n## Setup\r\n"), "{text:?}");
        assert!(!text.replace("\r\n", "").contains('\n'), "{text:?}");
        assert_eq!(export(Some(&text)).unwrap(), text);
    }

    #[test]
    fn malformed_markers_are_errors_with_lines() {
        let cases = [
            (format!("a\n{START_MARKER}\nb\n"), "start marker on line 2 has no end marker"),
            (format!("{END_MARKER}\n"), "end marker on line 1 has no start marker"),
            (format!("{END_MARKER}\n{START_MARKER}\n"), "end marker (line 1) comes before the start marker (line 2)"),
            (format!("{START_MARKER}\n{END_MARKER}\n{START_MARKER}\n{END_MARKER}\n"), "2 start markers (lines 1, 3)"),
        ];
        for (text, want) in cases {
            let err = export(Some(&text)).unwrap_err().to_string();
            assert!(err.starts_with("AGENTS.md: ") && err.contains(want), "{err}");
        }
    }

    #[test]
    fn marker_lines_and_fences_in_the_repository_text_never_break_the_next_export() {
        let mut setup = super::super::tests::setup();
        let hostile = format!("echo a\n{START_MARKER}\n  {END_MARKER}\r\n```\n~~~\n{END_MARKER}\necho b\n");
        setup.install = hostile.clone();
        setup.start = format!("{START_MARKER}\npnpm dev");
        setup.tests[0].command = format!("{END_MARKER}\n```sh\npnpm test");
        setup.services[0].image = Some(format!("postgres\n{END_MARKER}\n"));
        setup.services[0].name = format!("db\n{START_MARKER}");
        let first = render(&setup, Some("# Shop\n")).unwrap().files[0].contents.clone();
        let (start, end) = find_section(&first).unwrap().expect("one section");
        assert!(first[..start].starts_with("# Shop") && first[end..].is_empty(), "{first}");
        // The next export finds the one section it wrote, and replaces it with the same.
        let again = render(&setup, Some(&first)).unwrap().files[0].contents.clone();
        assert_eq!(again, first);
        let clean = render(&super::super::tests::setup(), Some(&first)).unwrap().files[0].contents.clone();
        assert_eq!(clean, export(Some("# Shop\n")).unwrap());
    }

    #[test]
    fn fences_outgrow_backticks_in_the_script() {
        assert_eq!(code_block("echo ```"), "````sh\necho ```\n````\n\n");
        assert_eq!(code_block("make"), "```sh\nmake\n```\n\n");
    }
}
