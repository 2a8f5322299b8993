//! When a settings module's read runs: in a request handler or coroutine (on demand, not at
//! start-up), or under a condition (only in the set-ups that take it).

use std::sync::LazyLock;

use regex::Regex;

/// Whether offset `at` lies in a coroutine (`async def`, run by an event loop on demand) or in a
/// function a web framework routes requests to (`@router.post("/auth")`, `@app.route("/")`).
pub(super) fn in_request_handler(text: &str, at: usize) -> bool {
    static ROUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^@[[:word:].]*\.(?:get|post|put|patch|delete|route|api_route|websocket)\(")
            .expect("the route decorator pattern is valid")
    });
    let Some((def, mut above)) = enclosing_def(text, at) else { return false };
    def.trim_start().starts_with("async ")
        || above.by_ref().map(str::trim).take_while(|line| line.starts_with('@')).any(|line| ROUTE.is_match(line))
}

/// The `def` line of the function enclosing offset `at` (by indentation, up to a few hundred
/// lines up), and the lines above it, nearest first.
fn enclosing_def(text: &str, at: usize) -> Option<(&str, impl Iterator<Item = &str>)> {
    /// How many lines up the enclosing function is looked for.
    const LOOKBACK: usize = 400;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent_of = |line: &str| line.len() - line.trim_start().len();
    let indent = indent_of(&text[line_start..at]);
    let mut lines = text[..line_start].lines().rev().take(LOOKBACK);
    let def = lines.by_ref().find(|line| {
        let content = line.trim_start();
        indent_of(line) < indent && (content.starts_with("def ") || content.starts_with("async def "))
    })?;
    Some((def, lines))
}

/// Whether offset `at` lies in a method other than `__init__` (a `def` whose first parameter
/// is `self` or `cls`): it reads when something calls it (a search client's `get_api_key`),
/// not when the app starts, as a request handler does.
pub(super) fn in_method(text: &str, at: usize) -> bool {
    let Some((def, _)) = enclosing_def(text, at) else { return false };
    let signature = def.trim_start().trim_start_matches("async ").trim_start_matches("def ");
    let Some((name, parameters)) = signature.split_once('(') else { return false };
    let first = parameters.split([',', ')', ':']).next().unwrap_or_default().trim();
    name.trim() != "__init__" && (first == "self" || first == "cls")
}

/// Whether the statement holding offset `at` runs only under a condition: some block that
/// encloses it (by indentation, through the lines of a multi-line expression) opens with
/// `if`, `elif`, `else`, `except`, `for` or `while`, or the statement is such an `if`
/// itself (the read is in its condition). A class body is no condition (a settings class's
/// fields), nor a function's (called at start-up as often as not).
pub(super) fn under_condition(text: &str, at: usize) -> bool {
    /// How many lines up enclosing blocks are looked for.
    const LOOKBACK: usize = 400;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    // The read is the condition itself (`if "X" in os.environ and os.environ["X"] != "":`).
    let own = text[line_start..at].trim_start();
    if ["if ", "elif ", "while "].iter().any(|keyword| own.starts_with(keyword)) {
        return true;
    }
    let indent_of = |line: &str| line.len() - line.trim_start().len();
    let mut indent = indent_of(&text[line_start..at]);
    for line in text[..line_start].lines().rev().take(LOOKBACK) {
        if indent == 0 {
            return false;
        }
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') || indent_of(line) >= indent {
            continue;
        }
        indent = indent_of(line);
        let keyword = content.split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or_default();
        match keyword {
            "if" | "elif" | "else" | "except" | "for" | "while" => return true,
            "class" | "def" | "async" => return false,
            _ => {}
        }
    }
    false
}

/// Whether the code at `at` is inside the condition of an `if`/`elif` on its line.
pub(super) fn in_condition_header(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = text[line_start..at].trim_start();
    before.starts_with("if ") || before.starts_with("elif ")
}
