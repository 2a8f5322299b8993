//! Reading this crate's own source, for the tests that hold a rule over all of `src/`: which
//! files there are, their code without test items and comments, and its string literals.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/`, sorted, each with its production code (see
/// [`production_code`]); files that only hold test modules are left out.
pub fn production_sources() -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut test_files = Vec::new();
    let mut sources = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("a source file is text");
        let (code, tests) = production_code(&file, &text);
        test_files.extend(tests);
        sources.push((file, code));
    }
    sources.retain(|(file, _)| !test_files.contains(file));
    sources
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("src/ is readable").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The folder a file's child modules live in (`a/mod.rs` → `a/`, `a/b.rs` → `a/b/`).
fn children_dir(file: &Path) -> PathBuf {
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let parent = file.parent().unwrap_or(Path::new(""));
    if ["mod", "lib", "main"].contains(&stem) { parent.to_path_buf() } else { parent.join(stem) }
}

/// `text` without `#[cfg(test)]` items and comment lines, and the files of the
/// `#[cfg(test)] mod x;` modules it declares.
pub fn production_code(file: &Path, text: &str) -> (String, Vec<PathBuf>) {
    let mut code = String::new();
    let mut test_files = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if trimmed != "#[cfg(test)]" {
            code.push_str(line);
            code.push('\n');
            continue;
        }
        let Some(item) = lines.next() else { break };
        let item = item.trim();
        if let Some(name) = item.strip_suffix(';').and_then(|i| i.rsplit(' ').next()) {
            test_files.push(children_dir(file).join(format!("{name}.rs")));
            continue;
        }
        // Skip the item's body: to the line that closes its first brace.
        let mut depth = item.matches('{').count() as i64 - item.matches('}').count() as i64;
        while depth > 0 {
            let Some(line) = lines.next() else { break };
            depth += line.matches('{').count() as i64 - line.matches('}').count() as i64;
        }
    }
    (code, test_files)
}

/// The string literals of `code` (plain and raw), roughly: enough to find names in them.
pub fn string_literals(code: &str) -> Vec<String> {
    // Character literals first (`'"'`), so their quote starts no string.
    let pattern = regex::Regex::new(r##"'(?:[^'\\]|\\.)'|r#"(?s:.*?)"#|r"[^"]*"|"(?:[^"\\]|\\.)*""##)
        .expect("the literal pattern is valid");
    pattern.find_iter(code).map(|m| m.as_str()).filter(|m| !m.starts_with('\'')).map(str::to_string).collect()
}
