//! GitHub Actions expressions: `${{ env.X }}`, `${{ matrix.X }}`, `${{ inputs.X }}`, `a ||
//! 'b'`, resolved in the context of a step.

use super::*;

/// Where an expression is evaluated: the env, matrix and inputs in scope.
#[derive(Debug, Clone, Default)]
pub struct Context {
    env: HashMap<String, String>,
    /// Matrix key → its own list of values, then values only `include:` entries give.
    matrix: HashMap<String, (Vec<String>, Vec<String>)>,
    /// Keys that `include:` entries add to combinations of the main matrix (an entry whose
    /// other keys match one), with those values in order.
    extended: HashMap<String, Vec<String>>,
    /// The cells of a matrix that is only a list of `include:` entries, in order.
    cells: Vec<Vec<(String, String)>>,
    /// The cell (of `cells`) a line's expressions are read in: one line runs in one cell.
    cell: Option<usize>,
    pub(super) inputs: HashMap<String, String>,
}

impl Context {
    /// With `pairs` set as env (values as they are).
    pub(super) fn with_pairs(&self, pairs: &[(String, String)]) -> Context {
        let mut ctx = self.clone();
        ctx.env.extend(pairs.iter().cloned());
        ctx
    }

    pub fn with_env(&self, env: &Yaml) -> Context {
        let mut ctx = self.clone();
        if let Some(env) = env.as_hash() {
            for (k, v) in env {
                if let Some(k) = scalar(k) {
                    let v = scalar(v).map(|v| self.resolve(&v)).unwrap_or_default();
                    ctx.env.insert(k, v);
                }
            }
        }
        ctx
    }

    pub(super) fn with_matrix(&self, matrix: &Yaml) -> Context {
        let mut ctx = self.clone();
        let Some(hash) = matrix.as_hash() else { return ctx };
        for (k, v) in hash {
            let Some(k) = scalar(k) else { continue };
            if k == "include" || k == "exclude" {
                continue;
            }
            let values: Vec<Yaml> = v.as_vec().cloned().unwrap_or_default();
            // A list of objects (`tests: [{name: unit, command: test}]`) is read as `tests.command`.
            for (field, value) in values.iter().filter_map(Yaml::as_hash).flatten() {
                if let (Some(field), Some(value)) = (scalar(field), scalar(value)) {
                    ctx.matrix.entry(format!("{k}.{field}")).or_default().0.push(value);
                }
            }
            ctx.matrix.entry(k).or_default().0 = values.iter().filter_map(scalar).collect();
        }
        let mut cells = Vec::new();
        for entry in matrix["include"].as_vec().into_iter().flatten() {
            let pairs: Vec<(String, String)> =
                entry.as_hash().into_iter().flatten().filter_map(|(k, v)| Some((scalar(k)?, scalar(v)?))).collect();
            cells.push(pairs.clone());
            // GitHub adds an entry's other keys to the combinations whose values it matches:
            // here, the one combination read (each key's value as `value` picks it).
            let picked = |k: &str| ctx.matrix.get(k).and_then(|(own, _)| picked_value(own));
            let matched: Vec<bool> = pairs.iter().map(|(k, _)| picked(k).is_some()).collect();
            let extends =
                matched.iter().any(|m| *m) && pairs.iter().all(|(k, v)| picked(k).is_none_or(|picked| picked == *v));
            for ((k, v), matched) in pairs.into_iter().zip(matched) {
                if extends && !matched {
                    ctx.extended.entry(k.clone()).or_default().push(v.clone());
                }
                ctx.matrix.entry(k).or_default().1.push(v);
            }
        }
        if ctx.matrix.values().all(|(own, _)| own.is_empty()) {
            ctx.cells = cells;
        }
        ctx
    }

    /// This context read in the cell of an include-only matrix that `text` runs in: the
    /// first that gives every matrix key its expressions name (`TZ=${{ matrix.timezone ||
    /// 'UTC' }} tox -e ${{ matrix.toxenv || 'py' }}` runs where both are set, not with one
    /// cell's timezone and another's environment); where none gives them all, each key's
    /// first value, as before.
    fn in_cell_for(&self, text: &str) -> std::borrow::Cow<'_, Context> {
        static MATRIX_KEY: LazyLock<Regex> =
            LazyLock::new(|| Regex::new(r"matrix\.([A-Za-z0-9_-]+)").expect("the matrix key pattern is valid"));
        if self.cells.len() < 2 || self.cell.is_some() {
            return std::borrow::Cow::Borrowed(self);
        }
        let keys: Vec<&str> = EXPRESSION
            .captures_iter(text)
            .flat_map(|c| MATRIX_KEY.captures_iter(c.get(1).map_or("", |m| m.as_str())).collect::<Vec<_>>())
            .filter_map(|c| c.get(1).map(|m| m.as_str()))
            .collect();
        let gives_all = |cell: &Vec<(String, String)>| keys.iter().all(|key| cell.iter().any(|(k, _)| k == key));
        match self.cells.iter().position(gives_all) {
            Some(at) if !keys.is_empty() => std::borrow::Cow::Owned(Context { cell: Some(at), ..self.clone() }),
            _ => std::borrow::Cow::Borrowed(self),
        }
    }

    /// Every value a matrix key takes, its own list first.
    pub(super) fn matrix_values(&self, key: &str) -> Vec<String> {
        self.matrix.get(key).map(|(own, extra)| own.iter().chain(extra).cloned().collect()).unwrap_or_default()
    }

    /// Whether matrix key `key` is `literal` in no combination (GitHub compares ignoring
    /// case); `false` when a value is not known (`fromJSON(…)`) or the key is no matrix's.
    /// An `include:` entry that leaves the key out gives it as `''`.
    pub(super) fn matrix_never_is(&self, key: &str, literal: &str) -> bool {
        if literal.is_empty() {
            return false;
        }
        let mut values = self.matrix_values(key);
        values.extend(self.cells.iter().flatten().filter(|(k, _)| k == key).map(|(_, v)| v.clone()));
        !values.is_empty() && values.iter().all(|v| !v.contains("${{") && !v.eq_ignore_ascii_case(literal))
    }

    /// A matrix key's own list when it has one, else what `include:` entries give.
    pub(super) fn matrix_values_own_first(&self, key: &str) -> Vec<String> {
        match self.matrix.get(key) {
            Some((own, _)) if !own.is_empty() => own.clone(),
            _ => self.matrix_values(key),
        }
    }

    /// The value of one expression (the text inside `${{ }}`), `None` when not knowable.
    pub(super) fn value(&self, expr: &str) -> Option<String> {
        let expr = expr.trim();
        if let Some((left, right)) = expr.split_once("||") {
            return self.value(left).filter(|v| !v.is_empty()).or_else(|| self.value(right));
        }
        if let Some(literal) = expr.strip_prefix('\'').and_then(|e| e.strip_suffix('\'')) {
            return Some(literal.to_string());
        }
        if let Some(key) = expr.strip_prefix("env.") {
            return self.env.get(key).cloned();
        }
        if let Some(key) = expr.strip_prefix("inputs.") {
            // A forwarded matrix reference (see `action_inputs`) is the caller's matrix value;
            // unknown when the matrix does not say (nor another input: no loops).
            let given = self.inputs.get(key)?;
            let mut unknown = false;
            let resolved = EXPRESSION.replace_all(given, |c: &regex::Captures| {
                let value = Some(&c[1]).filter(|e| !e.trim().starts_with("inputs.")).and_then(|e| self.value(e));
                unknown |= value.is_none();
                value.unwrap_or_default()
            });
            return (!unknown).then(|| resolved.into_owned());
        }
        if let Some(key) = expr.strip_prefix("matrix.") {
            if let Some(cell) = self.cell.and_then(|at| self.cells.get(at)) {
                return cell.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
            }
            let (own, extra) = self.matrix.get(key)?;
            // A field of a list of objects (`redis: [{tag, version}]`) comes from the first
            // object, as its other fields do: one combination, not each field's floor.
            let picked = if key.contains('.') { own.first().cloned() } else { picked_value(own) };
            if let Some(picked) = picked {
                return Some(picked);
            }
            if let Some(first) = self.extended.get(key).and_then(|values| values.first()) {
                return Some(first.clone());
            }
            // A key only `include:` entries set is absent from the main combinations, unless
            // an entry extends one of them or the whole matrix is a list of includes.
            let include_only = self.matrix.values().all(|(own, _)| own.is_empty());
            return include_only.then(|| extra.first().cloned()).flatten();
        }
        None
    }

    /// `text` with `${{ … }}` expressions resolved (unknown ones dropped) and `$VAR`s that the
    /// env in scope sets substituted, whitespace collapsed.
    /// An `env:` value as the runner sets it: its known expressions replaced, the rest (an
    /// unknown expression, `$VAR`, line breaks) as written.
    pub(super) fn resolve_value(&self, text: &str) -> String {
        self.in_cell_for(text).resolve_value_in_cell(text)
    }

    fn resolve_value_in_cell(&self, text: &str) -> String {
        let resolved =
            EXPRESSION.replace_all(text, |c: &regex::Captures| self.value(&c[1]).unwrap_or(c[0].to_string()));
        resolved.into_owned()
    }

    /// Whether an expression of `text` that [`Self::resolve`] keeps a place for (not an
    /// option's value, which goes with its option, nor part of a quoted message) has no
    /// value here: `${{ needs.plan.outputs.suite }}`, `${{ matrix.cmd }}` without a matrix.
    pub fn leaves_unknown(&self, text: &str) -> bool {
        let ctx = self.in_cell_for(text);
        let this = ctx.as_ref();
        let kept = this.without_unknown_options_and_messages(text);
        EXPRESSION.captures_iter(&kept).any(|c| this.value(&c[1]).is_none())
    }

    /// `text` without the option/value pairs and quoted arguments that an unknown
    /// expression makes (see [`Self::resolve`]).
    fn without_unknown_options_and_messages(&self, text: &str) -> String {
        let unknown_options = OPTION_EXPRESSION.replace_all(text, |c: &regex::Captures| {
            // One expression only (not `--shard=${{ a }}/${{ b }}`, a value built of two).
            if !c[2].contains("}}") && self.value(&c[2]).is_none() { c[1].to_string() } else { c[0].to_string() }
        });
        let unknown_quoted = QUOTED_EXPRESSION.replace_all(&unknown_options, |c: &regex::Captures| {
            let unknown = EXPRESSION.captures_iter(&c[0]).any(|e| self.value(&e[1]).is_none());
            if unknown { "\"\"".to_string() } else { c[0].to_string() }
        });
        unknown_quoted.into_owned()
    }

    pub fn resolve(&self, text: &str) -> String {
        self.in_cell_for(text).resolve_in_cell(text)
    }

    fn resolve_in_cell(&self, text: &str) -> String {
        // An option whose value is an unknown expression (`tox run -e ${{ format(…) }}`) goes
        // with it, rather than take the next word for its value; a quoted argument built
        // around one (`"Coverage for ${{ github.sha }}"`) would keep only its fragment: it is
        // emptied (and removed with its option below).
        let unknown_quoted = self.without_unknown_options_and_messages(text);
        let resolved =
            EXPRESSION.replace_all(&unknown_quoted, |c: &regex::Captures| self.value(&c[1]).unwrap_or_default());
        let substituted = SHELL_VARIABLE.replace_all(&resolved, |c: &regex::Captures| {
            let name = c.get(1).or_else(|| c.get(2)).map(|m| m.as_str()).unwrap_or_default();
            self.env.get(name).cloned().unwrap_or_else(|| c[0].to_string())
        });
        // An option whose value was an unknown expression goes with it: `--python ""`.
        let emptied = EMPTY_ARGUMENT.replace_all(&substituted, " ");
        emptied.split_whitespace().collect::<Vec<_>>().join(" ")
    }
}

pub(super) static GITHUB_ENV_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"^echo[[:space:]]+["']?([A-Za-z_][A-Za-z0-9_]*)=([^"'$`[:space:]]*)["']?[[:space:]]*>>[[:space:]]*["']?\$\{?GITHUB_ENV\}?["']?$"#)
        .expect("the GITHUB_ENV pattern is valid")
});
/// `cat .versions >> "$GITHUB_ENV"`: a file of `NAME=value` lines exported to later steps.
pub(super) static GITHUB_ENV_FILE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"^cat[[:space:]]+["']?([^"'$`[:space:]|;&<>]+)["']?[[:space:]]*>>[[:space:]]*["']?\$\{?GITHUB_ENV\}?["']?$"#,
    )
    .expect("the GITHUB_ENV file pattern is valid")
});
pub(super) static EXPRESSION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\$\{\{[[:space:]]*(.*?)[[:space:]]*\}\}").expect("the expression pattern is valid"));
/// A double-quoted argument, or a single-quoted one without quotes in its expressions, that
/// holds an expression.
pub(super) static QUOTED_EXPRESSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#""[^"]*\$\{\{[^"]*"|'[^']*\$\{\{[^'}]*\}\}[^']*'"#).expect("the quoted-expression pattern is valid")
});
/// An option and an expression that is its whole value: `-e ${{ matrix.tox }}`,
/// `--python=${{ matrix.py }}` (what comes before the option is the first group).
pub(super) static OPTION_EXPRESSION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(^|[[:space:]])--?[A-Za-z][[:word:]-]*(?:=|[[:space:]]+)\$\{\{[[:space:]]*(.*?)[[:space:]]*\}\}(?:$|[[:space:]])")
        .expect("the option-expression pattern is valid")
});
pub(super) static EMPTY_ARGUMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|[[:space:]])(?:--?[A-Za-z][[:word:]-]*(?:=|[[:space:]]+))?(?:""|'')(?:[[:space:]]|$)"#)
        .expect("the empty-argument pattern is valid")
});
/// `$NAME`, `${NAME}` and `${NAME:?message}` (or `:-`, `-`, `?` with a word) in a shell line:
/// the name is group 1 or 2.
pub static SHELL_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-?][^}]*)?\}|\$([A-Za-z_][A-Za-z0-9_]*)")
        .expect("the variable pattern is valid")
});
pub(super) static SECRET_REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?-u:\b)secrets(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[[[:space:]]*['"]([A-Za-z_][A-Za-z0-9_]*)['"][[:space:]]*\])"#,
    )
    .expect("the secret-reference pattern is valid")
});
/// `for NAME in …` in a script: `$NAME` means nothing outside the loop.
pub(super) static LOOP_VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)(?:^|[;&|][[:space:]]*|(?-u:\b)do[[:space:]]+)for[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]+in(?-u:\b)")
        .expect("the loop pattern is valid")
});
