//! What tox's `[testenv]` installs, so that the tests also run without tox: its `deps`, for
//! one environment of the `envlist`, as a CI matrix picks one cell (its first).
//! tox 4's TOML configuration (`tox.toml`, `[tool.tox]`) has no factors: its
//! `[env_run_base]` deps are every environment's.
//!
//! tox's factor syntax (tox.wiki, "Factors and factor-conditional settings"): an environment
//! name is factors joined by `-` (`py310-dj42`); `envlist` expands braces into every
//! combination (`py{39,310}-dj{42,50}` is `py39-dj42, py39-dj50, py310-dj42, py310-dj50`); a
//! settings line `COND: value` applies when the environment's factors satisfy `COND`: `a,b`
//! either, `a-b` both, `!a` not `a`, with braces expanded the same way.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

/// Beyond this many names, a brace expression is not expanded further (`{a,b}` twenty times
/// over is a million names; no real `envlist` comes close).
const MAX_EXPANSION: usize = 128;
/// A term longer than this names no environment (tox names are a few factors long).
const MAX_NAME: usize = 128;

/// The `deps` of `[testenv]` for the picked environment.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct TestDeps {
    pub deps: Vec<String>,
    /// The project's extras the environment installs it with (`extras = test, twisted`), all
    /// of them, for the same environment as the deps.
    pub extras: Vec<String>,
    /// The environment whose factor-conditional lines were taken (`py39-dj42`) and the
    /// section holding its `envlist` (`tox`, or `tox:tox` in setup.cfg); `None` when no
    /// such line was taken.
    pub variant: Option<(String, &'static str)>,
    /// The picked matrix environment for the interpreter tox runs with: its interpreter
    /// factor as `py` (`py39-unit` → `py-unit`), so `tox -e` runs the suite once, here.
    pub current: Option<String>,
}

/// The deps of tox's TOML configuration (`tox.toml`, or `[tool.tox]` of `pyproject.toml`): the
/// ini text of `legacy_tox_ini` read as a `tox.ini`, else `[env_run_base]` deps. Entries
/// tox substitutes (`{tox_root}`) or builds (`{ replace = … }`) are left out.
pub fn toml_test_deps(tox: &toml::Table) -> TestDeps {
    if let Some(ini) = tox.get("legacy_tox_ini").and_then(|v| v.as_str()) {
        return test_deps(ini);
    }
    let strings = |key: &str| -> Vec<String> {
        let values = tox.get("env_run_base").and_then(|base| base.get(key)).and_then(|d| d.as_array());
        let values = values.into_iter().flatten().filter_map(|d| d.as_str()).map(str::trim);
        values.filter(|d| !d.is_empty() && !d.contains(['{', '}'])).map(str::to_string).collect()
    };
    TestDeps { deps: strings("deps"), extras: strings("extras"), variant: None, current: None }
}

/// The `deps` of tox's `[testenv]` for one environment: the first of `envlist` whose section
/// does not set deps of its own (`[testenv:lint]` is special-purpose) and whose factors the
/// deps' conditions name (`ruff` before `py39-dj42` selects no variant), else the first
/// that takes `[testenv]`'s deps. Python factors (`py310`, `pypy3`) pick an interpreter, not
/// dependencies: the sandbox has one Python, whichever it is (see [`applies`]). A line that
/// is another section's value (`{[base]deps}`) is that value, as tox substitutes it; other
/// substitutions are left out; `{toxinidir}/` is the project folder.
pub fn test_deps(ini: &str) -> TestDeps {
    let lines = conditional_lines(ini, "deps");
    let named: HashSet<&str> = lines
        .iter()
        .flat_map(|(groups, _)| groups.iter().flatten().flatten())
        .map(|factor| factor.name.as_str())
        .filter(|name| !is_python_factor(name))
        .collect();
    let (section, envlist) = [("tox", "tox"), ("tox:tox", "tox:tox")]
        .into_iter()
        .find_map(|(section, name)| ini_value(ini, section, "envlist").map(|v| (name, v)))
        .unwrap_or(("tox", String::new()));
    let own_deps = own_deps(ini);
    let candidates: Vec<String> = envlist_names(&envlist).into_iter().filter(|e| !own_deps.contains(e)).collect();
    // The test matrix is the environments that name an interpreter (`py310`, `py39-dj42`);
    // one that does not (`pytest6` pinning an old pytest) is a special case beside it.
    let matrix: Vec<&String> = candidates.iter().filter(|env| env.split('-').any(is_python_factor)).collect();
    let pool: Vec<&String> = if matrix.is_empty() { candidates.iter().collect() } else { matrix };
    let picked = pool
        .iter()
        .copied()
        .find(|env| env.split('-').any(|factor| named.contains(factor)))
        .or_else(|| pool.first().copied());
    let factors: HashSet<&str> =
        picked.map(|env| env.split('-').filter(|f| !is_python_factor(f)).collect()).unwrap_or_default();
    let (deps, conditional) = applying(&lines, &factors);
    // `extras = test, twisted` (or one per line, or factor-conditional): every one.
    let extra_lines = conditional_lines(ini, "extras");
    let (extra_lines, _) = applying(&extra_lines, &factors);
    let mut extras: Vec<String> = Vec::new();
    for extra in extra_lines.iter().flat_map(|line| line.split(',')).map(str::trim).filter(|e| !e.is_empty()) {
        if !extras.iter().any(|e| e == extra) {
            extras.push(extra.to_string());
        }
    }
    // `[testenv]` installs nothing and a section of its own runs the suite
    // (`[testenv:test-py{3.12,3.13}]` with `deps = -r requirements/test.txt`): its deps.
    if deps.is_empty()
        && extras.is_empty()
        && let Some(suite_deps) = suite_section_deps(ini)
    {
        return TestDeps { deps: suite_deps, extras, variant: None, current: None };
    }
    let variant = picked.filter(|_| conditional).map(|env| (env.clone(), section));
    let current = picked.filter(|env| env.split('-').any(is_python_factor)).map(|env| {
        env.split('-').map(|factor| if is_python_factor(factor) { "py" } else { factor }).collect::<Vec<_>>().join("-")
    });
    TestDeps { deps, extras, variant, current }
}

/// The deps of the first `[testenv:…]` section whose commands run tests (`coverage run -m
/// pytest`), for its plainest environment's factors; `None` when none sets deps.
fn suite_section_deps(ini: &str) -> Option<Vec<String>> {
    ini.lines().filter_map(|line| line.trim().strip_prefix("[testenv:")?.strip_suffix(']')).find_map(|name| {
        let section = format!("testenv:{name}");
        let commands = ini_value(ini, &section, "commands")?;
        if !commands.lines().any(crate::detect::ecosystems::is_test_command) {
            return None;
        }
        // Of its environments, the plainest (`test-py3.13`, not `test-py3.13-chardet`).
        let plainest = expand(name).into_iter().min_by_key(|env| env.split('-').count())?;
        let factors: HashSet<&str> = plainest.split('-').filter(|f| !is_python_factor(f)).collect();
        let (deps, _) = applying(&conditional_lines_of(ini, &section, "deps"), &factors);
        (!deps.is_empty()).then_some(deps)
    })
}

/// The lines of `[testenv]`'s `key` (other sections' values substituted), each with its
/// factor condition if it has one.
fn conditional_lines(ini: &str, key: &str) -> Vec<(Option<Vec<Group>>, String)> {
    conditional_lines_of(ini, "testenv", key)
}

/// The lines of `key` in `section`, as [`conditional_lines`] reads `[testenv]`'s.
fn conditional_lines_of(ini: &str, section: &str, key: &str) -> Vec<(Option<Vec<Group>>, String)> {
    substituted(ini, &ini_value(ini, section, key).unwrap_or_default(), 0)
        .iter()
        .map(|line| line.split(" #").next().unwrap_or_default().trim())
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| match condition(line) {
            Some((groups, content)) => (Some(groups), content.to_string()),
            None => (None, line.to_string()),
        })
        .map(|(groups, content)| (groups, env_defaults(&content.replace("{toxinidir}/", ""))))
        .filter(|(_, content)| !content.is_empty() && !content.contains(['{', '}']))
        .collect()
}

/// `line` with tox's environment substitutions as they read where the variable is unset, as
/// in a fresh sandbox: `{env:TEST_EXTRAS:tests}` is its default, `tests`; `{env:X}` is empty.
fn env_defaults(line: &str) -> String {
    static SUBSTITUTION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\{env:[A-Za-z_][A-Za-z0-9_]*(?::([^{}]*))?\}").expect("the tox env substitution pattern is valid")
    });
    SUBSTITUTION
        .replace_all(line, |c: &regex::Captures| c.get(1).map_or("", |d| d.as_str()).to_string())
        .trim()
        .to_string()
}

/// The contents of the `lines` that apply to an environment with `factors`, once each, and
/// whether a conditional one was among them.
fn applying(lines: &[(Option<Vec<Group>>, String)], factors: &HashSet<&str>) -> (Vec<String>, bool) {
    let mut taken: Vec<String> = Vec::new();
    let mut conditional = false;
    for (groups, content) in lines {
        let applies = match groups {
            None => true,
            Some(groups) => groups.iter().any(|group| applies(group, factors)),
        };
        if applies && !taken.contains(content) {
            conditional |= groups.is_some();
            taken.push(content.clone());
        }
    }
    (taken, conditional)
}

/// Whether a condition's group holds for an environment with `factors` (its Python factors
/// left out). Beside other factors a Python one only says which interpreters the matrix pairs
/// them with (`py{38,39}-dj42: Django<5`), and holds; alone it is about the interpreter the
/// sandbox has, and counts as absent (`py38: backports.zoneinfo` no, `!py38: x` yes).
fn applies(group: &Group, factors: &HashSet<&str>) -> bool {
    let variant_factors = group.iter().any(|f| !is_python_factor(&f.name));
    group.iter().all(|factor| {
        if variant_factors && is_python_factor(&factor.name) {
            return true;
        }
        factors.contains(factor.name.as_str()) != factor.negated
    })
}

/// One factor of a condition (`!py38` is `py38`, negated).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Factor {
    name: String,
    negated: bool,
}

/// Factors that must all hold (`a-!b`).
type Group = Vec<Factor>;

/// `COND: value` as tox reads it: the condition is word characters, `{}.!,-` before a colon
/// and whitespace (a URL's `https://` is no condition). Any one of the groups must hold.
fn condition(line: &str) -> Option<(Vec<Group>, &str)> {
    let (head, rest) = line.split_once(':')?;
    let is_condition = !head.is_empty()
        && head.chars().all(|c| c.is_alphanumeric() || "_{}.!,-".contains(c))
        && rest.starts_with(char::is_whitespace);
    if !is_condition {
        return None;
    }
    let groups = expand(head)
        .into_iter()
        .map(|variant| {
            variant
                .split('-')
                .map(|f| match f.strip_prefix('!') {
                    Some(name) => Factor { name: name.to_string(), negated: true },
                    None => Factor { name: f.to_string(), negated: false },
                })
                .collect()
        })
        .collect();
    Some((groups, rest.trim()))
}

/// Every name a tox expression stands for, in order: commas outside braces separate terms,
/// and each term is the product of its brace alternatives (`py{39,310}-dj{42,50},lint`).
/// Whitespace is not part of a name.
fn expand(expression: &str) -> Vec<String> {
    let mut names = Vec::new();
    for term in split_outside_braces(expression) {
        let term: String = term.chars().filter(|c| !c.is_whitespace()).collect();
        if term.is_empty() || term.len() > MAX_NAME {
            continue;
        }
        // The term as parts, each a list of alternatives (a literal has one).
        let mut parts: Vec<Vec<&str>> = Vec::new();
        let mut rest = term.as_str();
        while !rest.is_empty() {
            match rest.split_once('{').and_then(|(literal, tail)| Some((literal, tail.split_once('}')?))) {
                Some((literal, (inside, after))) => {
                    parts.push(vec![literal]);
                    parts.push(inside.split(',').collect());
                    rest = after;
                }
                // No brace, or an unclosed one: text.
                None => {
                    parts.push(vec![rest]);
                    rest = "";
                }
            }
        }
        // The combinations in order, the last part varying fastest, one name at a time: the
        // work is bounded by the names kept, however many the term stands for.
        let mut at = vec![0usize; parts.len()];
        loop {
            if names.len() >= MAX_EXPANSION {
                return names;
            }
            names.push(parts.iter().zip(&at).map(|(alternatives, &i)| alternatives[i]).collect());
            let Some(turn) = (0..parts.len()).rev().find(|&p| at[p] + 1 < parts[p].len()) else { break };
            at[turn] += 1;
            at[turn + 1..].iter_mut().for_each(|i| *i = 0);
        }
    }
    names
}

fn split_outside_braces(expression: &str) -> Vec<&str> {
    let mut terms = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in expression.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                terms.push(&expression[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    terms.push(&expression[start..]);
    terms
}

/// The environments `envlist` names, in order, once each: one expression per line or
/// separated by commas; `#` starts a comment.
fn envlist_names(envlist: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for line in envlist.lines() {
        let line = line.split('#').next().unwrap_or_default();
        for name in expand(line) {
            if names.len() >= MAX_EXPANSION {
                return names;
            }
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The requirements files (`-r FILE`, relative to the tox configuration) that only
/// special-purpose environments' deps name (`[testenv:docs] deps = -rrequirements-dev.txt`)
/// and `[testenv]`'s do not: they hold what docs and linters need, not the tests.
pub fn files_of_special_envs(ini: &str) -> Vec<String> {
    let files = |section: &str| -> Vec<String> {
        let deps = ini_value(ini, section, "deps").unwrap_or_default();
        let named = deps.lines().filter_map(|line| {
            let line = line.trim();
            let file = line.strip_prefix("--requirement").or_else(|| line.strip_prefix("-r"))?;
            let file = file.trim_start_matches(['=', ' ']).trim();
            Some(file.strip_prefix("{toxinidir}/").unwrap_or(file).to_string())
        });
        named.filter(|f| !f.is_empty() && !f.contains(['{', '}'])).collect()
    };
    let tests = files("testenv");
    let mut special: Vec<String> = Vec::new();
    for header in ini.lines().filter_map(|l| l.trim().strip_prefix('[')?.strip_suffix(']')) {
        if header.starts_with("testenv:") {
            for file in files(header) {
                if !tests.contains(&file) && !special.contains(&file) {
                    special.push(file);
                }
            }
        }
    }
    special
}

/// The environments whose own section sets `deps` (`[testenv:{docs,lint}]`): those of
/// `[testenv]` are not theirs. A section that only adds settings (`setenv`) keeps them.
fn own_deps(ini: &str) -> HashSet<String> {
    // One pass: the section each line is in, and whether it starts a `deps` key.
    let mut found = HashSet::new();
    let mut section: Option<&str> = None;
    for line in ini.lines() {
        if let Some(header) = line.trim().strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
            section = header.strip_prefix("testenv:");
        } else if let Some(name) = section
            && !line.starts_with(char::is_whitespace)
            && line.split_once('=').is_some_and(|(key, _)| key.trim() == "deps")
        {
            found.extend(expand(name));
            section = None;
        }
    }
    found
}

/// A factor that names an interpreter (`py`, `py310`, `py3.12`, `pypy3`, `py313t`).
fn is_python_factor(factor: &str) -> bool {
    // tox 4 also reads a bare version (`3.12`, `3.14t`) as the interpreter.
    let bare = factor.strip_suffix('t').unwrap_or(factor);
    if bare.starts_with(['2', '3']) && bare.chars().all(|c| c.is_ascii_digit() || c == '.') && !bare.ends_with('.') {
        return true;
    }
    ["py", "pypy", "cpython", "python", "jython", "graalpy", "ironpython", "rustpython"].iter().any(|prefix| {
        factor.strip_prefix(prefix).is_some_and(|version| {
            let version = version.strip_suffix('t').unwrap_or(version);
            version.chars().all(|c| c.is_ascii_digit() || c == '.') && !version.starts_with('.')
        })
    })
}

/// The lines of `value`, a line `{[section]key}` replaced by that value's lines (nested a few
/// levels at most: tox refuses a loop, and so does this, by depth).
fn substituted(ini: &str, value: &str, depth: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for line in value.lines() {
        let reference = line
            .trim()
            .strip_prefix("{[")
            .and_then(|rest| rest.strip_suffix('}'))
            .and_then(|rest| rest.split_once(']'));
        match reference {
            Some((section, key)) if depth < 4 => {
                lines.extend(substituted(ini, &ini_value(ini, section, key).unwrap_or_default(), depth + 1));
            }
            _ => lines.push(line.to_string()),
        }
    }
    lines
}

/// The `commands` tox runs for environment `env` of an ini configuration: its own
/// section's, else `[testenv]`'s (tox makes an undeclared `-e py` from it), substituted,
/// their factor conditions dropped (any may run) and tox's own placeholders read as the
/// shell would see them (`{envpython} -m pytest {posargs}` is `python -m pytest`).
pub fn env_commands(ini: &str, env: &str) -> Vec<String> {
    commands(ini, env, |_| true)
}

/// [`env_commands`] without the lines whose factor condition does not hold for `env`
/// (`unit: pytest t/unit` runs in `3.10-unit`, not in `3.10-integration`).
pub fn env_commands_applying(ini: &str, env: &str) -> Vec<String> {
    let factors: HashSet<&str> = env.split('-').filter(|f| !is_python_factor(f)).collect();
    commands(ini, env, |groups| groups.iter().any(|group| applies(group, &factors)))
}

/// The commands of `env` whose condition, if any, `holds`.
fn commands(ini: &str, env: &str, holds: impl Fn(&[Group]) -> bool) -> Vec<String> {
    let value = ini_value(ini, &format!("testenv:{env}"), "commands").or_else(|| ini_value(ini, "testenv", "commands"));
    // A line that ends in `\` goes on in the next, as tox reads it.
    let joined = value.unwrap_or_default().replace("\\\n", " ");
    substituted(ini, &joined, 0)
        .iter()
        .filter_map(|line| match condition(line) {
            Some((groups, content)) => holds(&groups).then_some(content),
            None => Some(line.as_str()),
        })
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            line.replace("{envpython}", "python")
                .replace("{envbindir}/", "")
                .replace("{toxinidir}/", "")
                .replace("{posargs}", "")
                .split_whitespace()
                // tox's older spelling of `{posargs}`, standing alone.
                .filter(|word| *word != "[]")
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The value of `key` in `[section]` of an ini file, as Python's configparser (which tox
/// uses) reads it: the first line and the indented lines that continue it, one per line.
pub fn ini_value(ini: &str, section: &str, key: &str) -> Option<String> {
    let mut lines = ini.lines().skip_while(|l| l.trim() != format!("[{section}]")).skip(1);
    let mut value = Vec::new();
    for line in lines.by_ref() {
        if line.trim_start().starts_with('[') {
            return None;
        }
        if let Some((name, first)) = line.split_once('=')
            && !line.starts_with(char::is_whitespace)
            && name.trim() == key
        {
            value.push(first.trim().to_string());
            break;
        }
    }
    if value.is_empty() {
        return None;
    }
    for line in lines {
        if !line.starts_with(char::is_whitespace) && !line.trim().is_empty() {
            break;
        }
        value.push(line.trim().to_string());
    }
    Some(value.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_commands_as_the_shell_sees_them() {
        let ini = "[base]\ncommands = coverage report\n[testenv]\ncommands =\n    {envpython} -m pytest \\\n      pypy: --no-cov \\\n      {posargs}\n    {[base]commands}\n[testenv:lint]\ncommands = ruff check .\n";
        assert_eq!(env_commands(ini, "lint"), ["ruff check ."]);
        // An environment without a section of its own runs `[testenv]`'s.
        assert_eq!(env_commands(ini, "py312"), ["python -m pytest pypy: --no-cov", "coverage report"]);
        assert!(env_commands("[tox]\nenvlist = py\n", "py").is_empty());
    }

    #[test]
    fn only_the_commands_whose_factors_hold() {
        let ini = "[testenv]\ncommands =\n    unit: pytest -xv t/unit\n    integration: pytest -xv t/integration\n    python -c 'print(1)'\n";
        assert_eq!(
            env_commands_applying(ini, "3.10-integration-redis"),
            ["pytest -xv t/integration", "python -c 'print(1)'"]
        );
        assert_eq!(env_commands_applying(ini, "py"), ["python -c 'print(1)'"]);
        assert_eq!(env_commands(ini, "py").len(), 3, "any may run");
    }

    #[test]
    fn a_special_environment_beside_the_matrix_is_not_picked() {
        let ini = "[tox]\nenvlist = py{310,311}, norewrite, pytest6\n[testenv]\ndeps =\n    mock\n    pytest6: pytest==6.2.5\n";
        assert_eq!(
            test_deps(ini),
            TestDeps { deps: vec!["mock".into()], extras: vec![], variant: None, current: Some("py".into()) }
        );
        // Without an interpreter factor anywhere, the first environment a condition names,
        // and no environment of the current interpreter to name.
        let ini = "[tox]\nenvlist = lint, dj42\n[testenv]\ndeps =\n    dj42: Django<5\n";
        assert_eq!((test_deps(ini).deps, test_deps(ini).current), (vec!["Django<5".to_string()], None));
        // tox 4's bare versions are interpreters too.
        let ini =
            "[tox]\nenvlist = {3.10,3.11}-unit, {3.10,3.11}-integration\n[testenv]\ndeps =\n    integration: redis\n";
        assert_eq!(test_deps(ini).current.as_deref(), Some("py-integration"));
        let ini = "[tox]\nenvlist = py{39,310}-{nose,unit}\n[testenv]\ndeps =\n    nose: nose\n";
        assert_eq!(test_deps(ini).current.as_deref(), Some("py-nose"));
    }

    #[test]
    fn requirements_files_only_special_environments_name() {
        let ini = "[testenv]\ndeps =\n    -r requirements-test.txt\n    pytest\n[testenv:docs]\ndeps = -rrequirements-dev.txt\n[testenv:lint]\ndeps =\n    --requirement={toxinidir}/requirements-dev.txt\n    -r requirements-test.txt\n    -r {env:REQS}\n";
        assert_eq!(files_of_special_envs(ini), ["requirements-dev.txt"]);
        assert!(files_of_special_envs("[testenv]\ndeps = pytest\n").is_empty());
    }

    #[test]
    fn toml_configurations_give_the_base_deps_or_read_the_legacy_ini() {
        let native: toml::Table =
            "env_list = ['3.13', 'lint']\n[env_run_base]\nextras = ['test']\ndeps = ['pytest>=8', '-r requirements-test.txt', '{[base]deps}', { replace = 'ref', of = ['x'] }]\n[env.lint]\ndeps = ['ruff']\n".parse().unwrap();
        assert_eq!(
            toml_test_deps(&native),
            TestDeps {
                deps: vec!["pytest>=8".into(), "-r requirements-test.txt".into()],
                extras: vec!["test".into()],
                variant: None,
                current: None
            }
        );
        let legacy: toml::Table =
            "legacy_tox_ini = \"\"\"\n[tox]\nenvlist = py\n[testenv]\ndeps =\n    pytest\n    mock\n\"\"\"\n"
                .parse()
                .unwrap();
        assert_eq!(toml_test_deps(&legacy).deps, ["pytest", "mock"]);
        assert_eq!(toml_test_deps(&toml::Table::new()), TestDeps::default());
    }

    #[test]
    fn every_extra_of_the_picked_environment() {
        let ini = "[tox]\nenvlist = py{310,311}-{tw,asyncio}\n[testenv]\nextras = test, twisted\n    tw: twisted-extra\n    asyncio: uvloop\n";
        assert_eq!(test_deps(ini).extras, ["test", "twisted", "twisted-extra"]);
        let ini = "[testenv]\nextras =\n    test\n    redis\n";
        assert_eq!(test_deps(ini).extras, ["test", "redis"]);
        // An extra named by a variable with a default, unset in the sandbox.
        let ini = "[testenv]\nextras = {env:TOX_AP_TEST_EXTRAS:tests}\ndeps = {env:EXTRA_DEPS}\n";
        assert_eq!(test_deps(ini).extras, ["tests"]);
        assert!(test_deps(ini).deps.is_empty());
        assert!(test_deps("[testenv]\ndeps = pytest\n").extras.is_empty());
    }

    fn deps(ini: &str) -> (Vec<String>, Option<String>) {
        let found = test_deps(ini);
        (found.deps, found.variant.map(|(env, section)| format!("{section}: {env}")))
    }

    #[test]
    fn the_first_variant_of_the_envlist_is_installed() {
        let ini = "[tox:tox]\nenvlist =\n    ruff\n    mypy\n    # released versions\n    py39-dj{42}-redislatest\n    py{310,311}-dj{42,50}-redislatest\n\n[testenv]\npassenv = CI\ncommands =\n  {envpython} -m pytest -n 4\n\ndeps =\n    dj42: Django>=4.2,<5.0\n    dj50: Django>=5.0,<5.1\n    msgpack>=0.6.0\n    pytest  # the runner\n    # a comment\n    pytest-xdist\n    {[base]deps}\n    -r{toxinidir}/requirements/test.txt\n    redismaster: https://github.com/redis/redis-py/archive/master.tar.gz\n    https://example.com/pkg.tar.gz\n\n[testenv:{pre-commit,mypy}]\ndeps = mypy\n[testenv:py39-dj42-redislatest]\nsetenv = X=1\n";
        // `ruff` names no factor of the deps, `mypy` has deps of its own; a section that only
        // sets the environment keeps `[testenv]`'s.
        assert_eq!(
            deps(ini),
            (
                [
                    "Django>=4.2,<5.0",
                    "msgpack>=0.6.0",
                    "pytest",
                    "pytest-xdist",
                    "-rrequirements/test.txt",
                    "https://example.com/pkg.tar.gz"
                ]
                .map(String::from)
                .to_vec(),
                Some("tox:tox: py39-dj42-redislatest".to_string())
            )
        );
        assert_eq!(deps("[testenv:lint]\ndeps = ruff\n"), (vec![], None));
        assert_eq!(ini_value("[testenv]\ncommands = pytest\n[other]\ndeps = x\n", "testenv", "deps"), None);
    }

    #[test]
    fn the_suites_own_section_gives_the_deps_where_testenv_gives_none() {
        let ini = "[tox]\nenvlist =\n    build\n    test-py{3.13, 3.12}{-chardet, }\n    docs\n\n[testenv]\ncommands = python -c \"import sys; sys.exit(1)\"\n\n[testenv:build]\ndeps = build\ncommands = python -m build\n\n[testenv:test-py{3.13, 3.12}{-chardet, }]\ndeps =\n    -r requirements/test/requirements.txt\n    chardet: chardet\ncommands =\n    coverage run -m pytest {posargs:}\n\n[testenv:docs]\ndeps = sphinx\ncommands = sphinx-build docs out\n";
        assert_eq!(deps(ini).0, ["-r requirements/test/requirements.txt"]);
        // `[testenv]`'s own deps stay the ones taken.
        let base = ini.replace("[testenv]\n", "[testenv]\ndeps = pytest\n");
        assert_eq!(deps(&base).0, ["pytest"]);
    }

    #[test]
    fn another_sections_deps_are_substituted() {
        let ini = "[core]\ndeps =\n    pytest\n    pytest-asyncio\n    {[extra]deps}\n[extra]\ndeps = rich\n[loop]\ndeps = {[loop]deps}\n[testenv]\ndeps =\n    {[core]deps}\n    numpy\n    {[loop]deps}\n    {[missing]deps}\n";
        assert_eq!(deps(ini).0, ["pytest", "pytest-asyncio", "rich", "numpy"]);
    }

    #[test]
    fn factor_conditions_combine_as_tox_documents() {
        let ini = "[tox]\nenvlist = py{38,312}-django{42,50}{,-postgres}, docs\n[testenv]\ndeps =\n    django42,django50: asgiref\n    django42-postgres: psycopg2<2.9\n    django{42,50}-!postgres: pysqlite3\n    !django50: typing-extensions\n    py38: backports.zoneinfo\n    !py312: tomli\n    py{38,312}-django42: Django>=4.2,<5.0\n    py312-django50: Django>=5.0,<5.1\n";
        let (found, variant) = deps(ini);
        assert_eq!(variant.as_deref(), Some("tox: py38-django42"));
        // Alone, a Python factor is absent (`py38:` is not installed, `!py312:` is); beside
        // the variant's factors it holds, whatever the Python.
        assert_eq!(found, ["asgiref", "pysqlite3", "typing-extensions", "tomli", "Django>=4.2,<5.0"]);
        let pg = ini.replace("{,-postgres}", "-postgres");
        assert_eq!(deps(&pg).0, ["asgiref", "psycopg2<2.9", "typing-extensions", "tomli", "Django>=4.2,<5.0"]);
        // Not a condition (a space before the colon, a URL): the line as it is.
        let plain = "[testenv]\ndeps =\n    django42 : x\n    git+https://example.com/x.git\n";
        assert_eq!(deps(plain).0, ["django42 : x", "git+https://example.com/x.git"]);
    }

    #[test]
    fn without_a_variant_only_the_unconditional_and_negated_lines() {
        // No envlist: tox runs `py`, which has no factor the deps select on.
        let ini = "[testenv]\ndeps =\n    pytest\n    dj42: Django<5\n    !dj42: Django\n";
        assert_eq!(deps(ini), (["pytest", "Django"].map(String::from).to_vec(), None));
    }

    #[test]
    fn expansion_is_bounded_and_total() {
        assert_eq!(expand("py{39,310}-dj{42,50}"), ["py39-dj42", "py39-dj50", "py310-dj42", "py310-dj50"]);
        assert_eq!(
            expand("{py,!pi}-{a,b}{,-dev},c"),
            ["py-a", "py-a-dev", "py-b", "py-b-dev", "!pi-a", "!pi-a-dev", "!pi-b", "!pi-b-dev", "c"]
        );
        assert_eq!(expand("py{39"), ["py{39"]);
        assert_eq!(expand("{a,b}{}c{d}"), ["acd", "bcd"]);
        assert_eq!(expand("a}b,,{}"), ["a}b", ""]);
        let bomb = "{a,b}".repeat(20);
        assert_eq!(expand(&bomb).len(), MAX_EXPANSION);
        assert_eq!(envlist_names(&format!("{bomb}\n{bomb}")).len(), MAX_EXPANSION);
        assert_eq!(expand(&"{a}".repeat(100_000)), Vec::<String>::new());
        let many_sections = "[testenv:x]\ndeps = y\n".repeat(50_000);
        assert_eq!(own_deps(&many_sections), HashSet::from(["x".to_string()]));
        for factor in ["py", "py310", "py3.12", "pypy3", "py313t", "cpython3"] {
            assert!(is_python_factor(factor), "{factor}");
        }
        for factor in ["pytest", "py.", "dj42", "python-dev"] {
            assert!(!is_python_factor(factor), "{factor}");
        }
    }
}
