//! The distribution's packages CI's test jobs install before their tests (`sudo apt-get
//! install -y libpq-dev libicu-dev`): the C libraries and tools a build needs that no manifest
//! names (a driver's headers, `pg_config`, `pkg-config`). Installed the same way, best effort:
//! a name another release lacks costs a warning, the rest go in.

use crate::detect::ecosystems;
use crate::detect::ecosystems::ships;
use crate::detect::findings::{Evidence, Findings, Phase};
use crate::detect::sources::Sources;
use crate::detect::sources::shell::commands;
use crate::detect::sources::workflows::JobKind;

pub fn detect(sources: &Sources, out: &mut Findings) {
    let mut packages: Vec<String> = Vec::new();
    let mut source: Option<&Evidence> = None;
    for job in sources.workflows().jobs.iter().filter(|job| job.kind != JobKind::UnusedAction) {
        let runs_tests = |text: &str| !ships(text) && ecosystems::is_test_command(text);
        let Some(first_test) = job.lines.iter().position(|line| runs_tests(&line.text)) else { continue };
        for line in job.lines[..first_test].iter().filter(|line| !line.in_foreign_checkout) {
            for words in commands(&line.text) {
                for package in apt_installed(&words) {
                    if !packages.contains(&package) {
                        packages.push(package);
                        source.get_or_insert(&line.source);
                    }
                }
            }
        }
    }
    if let Some(source) = source {
        let mut args = vec!["for the tests".to_string()];
        args.extend(packages);
        out.helper(Phase::System, "hanzo_apt_install", args, source.clone());
    }
}

/// apt's options that take a value.
const OPTIONS_WITH_A_VALUE: &[&str] = &["-o", "--option", "-t", "--target-release", "-c", "--config-file"];

/// The packages an `apt-get install` (or `apt install`, through `sudo`) names: not options,
/// files (`./x.deb`), variables or version pins' versions.
fn apt_installed(words: &[String]) -> Vec<String> {
    let words: Vec<&str> =
        words.iter().map(String::as_str).skip_while(|w| *w == "sudo" || w.starts_with('-')).collect();
    let args = match words.as_slice() {
        ["apt-get" | "apt", rest @ ..] => {
            let Some(at) = rest.iter().position(|w| *w == "install") else { return Vec::new() };
            &rest[at + 1..]
        }
        _ => return Vec::new(),
    };
    let mut found = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        if OPTIONS_WITH_A_VALUE.contains(arg) {
            args.next();
            continue;
        }
        let name = arg.split('=').next().unwrap_or(arg);
        let plain = name.starts_with(|c: char| c.is_ascii_alphanumeric())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || "+-.:".contains(c));
        if plain {
            found.push(name.to_string());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::testing::run_signal;

    fn named(line: &str) -> Vec<String> {
        commands(line).iter().flat_map(|w| apt_installed(w)).collect()
    }

    #[test]
    fn the_packages_an_apt_line_names() {
        assert_eq!(
            named("sudo apt-get update && sudo apt-get install -y --no-install-recommends libpq-dev libicu-dev=72.1-3"),
            ["libpq-dev", "libicu-dev"]
        );
        assert_eq!(
            named("sudo -E apt install -qq -o Dpkg::Use-Pty=0 pandoc ./tools/x.deb $EXTRA g++"),
            ["pandoc", "g++"]
        );
        assert!(named("apt-get update").is_empty());
        assert!(named("apt-cache policy libpq-dev").is_empty());
    }

    #[test]
    fn what_test_jobs_install_before_their_tests() {
        let workflow = "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: sudo apt-get install -y libmariadb-dev pkg-config\n      - run: cargo test --features mysql\n      - run: sudo apt-get install -y graphviz\n  docs:\n    steps:\n      - run: sudo apt-get install -y pandoc\n      - run: make html\n";
        let s = run_signal(detect, &[(".github/workflows/ci.yml", workflow)]);
        assert_eq!(s.steps(), ["hanzo_apt_install 'for the tests' libmariadb-dev pkg-config"]);
        assert_eq!(s.findings.steps[0].evidence_text(), ".github/workflows/ci.yml#jobs.test.steps[0]");
    }
}
