//! Secrets: one per name, the evidence that decides whether the project needs it.

use super::*;
use crate::warning::Warning;

/// At most this many secret names in a proposal: far more than an app reads, and a bound on
/// what a checkout of generated code can put in the file.
pub const MAX_SECRET_NAMES: usize = 500;

/// One secret name of the detection: whether the project needs it set, and the evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SecretDetail {
    pub name: String,
    /// Some evidence says the project cannot run its tests without it.
    pub required: bool,
    /// Where the deciding evidence is (`path:line` or `path#key` in JSON).
    pub source: Evidence,
    /// The deciding evidence in words (`BaseSettings field, no default`).
    pub why: String,
}

pub(super) fn merge_secrets(secrets: Vec<Secret>) -> (Vec<SecretDetail>, Vec<Warning>) {
    // Which evidence speaks for a name: a requirement, then an explicit option, then a plain read.
    let rank = |need: Need| match need {
        Need::Required => 0,
        Need::Optional => 1,
        Need::Unstated => 2,
    };
    let mut rejected = Vec::new();
    let mut chosen: Vec<Secret> = Vec::new();
    // Where each name is in `chosen`: a checkout of generated code reads thousands.
    let mut index: HashMap<String, usize> = HashMap::new();
    for secret in secrets {
        match crate::names::validate_secret_name(&secret.name) {
            Ok(()) => {}
            // Reserved names are the sandbox's own variables: simply not secrets.
            Err(crate::names::NameError::Reserved(_)) => continue,
            Err(e) => {
                if !index.contains_key(&secret.name) {
                    rejected.push(Warning::at(&secret.source, format!("{e}; left out of secrets")));
                    // Remembered (never shown) so that the name is reported once.
                    index.insert(secret.name.clone(), chosen.len());
                    chosen.push(Secret { need: Need::Unstated, ..secret });
                }
                continue;
            }
        }
        match index.get(&secret.name).map(|&i| &mut chosen[i]) {
            Some(existing) if rank(secret.need) < rank(existing.need) => *existing = secret,
            Some(_) => {}
            None => {
                index.insert(secret.name.clone(), chosen.len());
                chosen.push(secret);
            }
        }
    }
    let mut kept: Vec<SecretDetail> = chosen
        .into_iter()
        .filter(|s| crate::names::validate_secret_name(&s.name).is_ok())
        .map(|s| SecretDetail { required: s.need == Need::Required, name: s.name, source: s.source, why: s.why })
        .collect();
    if kept.len() > MAX_SECRET_NAMES {
        // The first found stay: dotenv files and CI come before the code scan.
        rejected.push(Warning::general(format!(
            "{} secret names found, more than a proposal holds: the first {MAX_SECRET_NAMES} kept, \
             the rest (from {} on) left out",
            kept.len(),
            kept[MAX_SECRET_NAMES].source
        )));
        kept.truncate(MAX_SECRET_NAMES);
    }
    kept.sort_by(|a, b| (!a.required, &a.name).cmp(&(!b.required, &b.name)));
    (kept, rejected)
}
