//! An Erlang release's boot files: `vm.args` (and relx's `vm.args.src`, Distillery's
//! `vm.args.eex` template) and relx's `sys.config.src`. The release replaces each `${NAME}` in
//! them from the environment when it boots (relx always for `.src` files, Distillery with
//! `REPLACE_OS_VARS=true`), so `-setcookie ${ERLANG_COOKIE}` reads the node's cookie there.

use std::sync::LazyLock;

use regex::Regex;

use crate::detect::ecosystems::ecosystem::{EnvRead, Need};

/// The boot files a release fills from the environment.
const BOOT_FILES: &[&str] = &["vm.args", "vm.args.src", "vm.args.eex", "sys.config.src"];

pub(super) fn is_boot_file(name: &str) -> bool {
    BOOT_FILES.contains(&name)
}

/// The `${NAME}` a boot file reads; a `#`/`%` comment line reads nothing.
pub(super) fn reads(text: &str) -> Vec<EnvRead> {
    static VARIABLE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}").expect("the release variable pattern is valid"));
    let mut found = Vec::new();
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let code = line.trim_start();
        if !(code.starts_with('#') || code.starts_with('%')) {
            for c in VARIABLE.captures_iter(line) {
                if let Some(name) = c.get(1) {
                    found.push(EnvRead::new(
                        name.as_str(),
                        line_start + name.start(),
                        Need::Unstated,
                        "release boot file",
                    ));
                }
            }
        }
        line_start += line.len();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_boot_file_reads_its_variables_and_not_its_comments() {
        let text = "## the node's name\n-name ${NODE_NAME}@127.0.0.1\n# -setcookie ${OLD_COOKIE}\n-setcookie ${ERLANG_COOKIE}\n+K true\n";
        let names: Vec<String> = reads(text).into_iter().map(|r| r.name).collect();
        assert_eq!(names, ["NODE_NAME", "ERLANG_COOKIE"]);
        let cookie = reads(text).into_iter().find(|r| r.name == "ERLANG_COOKIE").expect("read");
        assert_eq!(&text[cookie.at..cookie.at + 13], "ERLANG_COOKIE");
        assert!(is_boot_file("vm.args.eex") && is_boot_file("sys.config.src"));
        assert!(!is_boot_file("sys.config") && !is_boot_file("vm.args.bak"));
    }
}
