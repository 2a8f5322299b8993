//! What a run keeps of the files it read, for the next asker: texts, and documents parsed as
//! JSON, TOML or YAML, one parse per file and format. Several ecosystems and signals ask for
//! the same manifests, CI files and compose files.
//!
//! What is kept is bounded by [`MAX_KEPT_BYTES`] of text: every file a project's detection
//! shares fits, many times over. In a tree of a hundred projects the first files asked for
//! stay, and each later one is read and parsed for each asker and let go: a large tree costs
//! a few more parses, not memory (the answer is the same). Kept for the whole run, the texts
//! and documents of such a tree took some 6 MiB, a third of what detection held at its peak:
//! a parsed document is several times its text (a JSON value about 5, a TOML table about 7).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use yaml_rust2::Yaml;

/// The most text kept, read or parsed, all files and formats together: the manifests, CI and
/// compose files of a large project.
pub const MAX_KEPT_BYTES: u64 = 256 << 10;

/// What one YAML node weighs, once its aliases are expanded, when that is more than its file's
/// text: real CI and compose files spell a node in some 24 bytes, but aliases can turn a few
/// bytes into thousands of nodes (some 120 bytes each in memory).
pub const YAML_NODE_WEIGHT: u64 = 16;

/// A cell per path, filled by the first reader whose answer is kept.
pub(super) type Cache<T> = Mutex<Cells<T>>;
type Cells<T> = HashMap<String, Arc<OnceLock<Option<Arc<T>>>>>;

#[derive(Default)]
pub(super) struct Kept {
    pub(super) texts: Cache<str>,
    pub(super) json: Cache<serde_json::Value>,
    pub(super) jsonc: Cache<serde_json::Value>,
    pub(super) toml: Cache<toml::Table>,
    pub(super) yaml: Cache<Vec<Yaml>>,
    /// The weight of what the caches hold.
    weight: Mutex<u64>,
}

impl Kept {
    /// The answer kept for `rel` in `cache`, else `read`'s: its value and weight, or `None`
    /// when the file cannot be read or parsed (it warned). A failure is kept whatever its
    /// weight: one warning, and no second try; a value while it fits in [`MAX_KEPT_BYTES`].
    pub(super) fn get_or_read<T: ?Sized>(
        &self,
        cache: &Cache<T>,
        rel: &str,
        read: impl FnOnce() -> Option<(Arc<T>, u64)>,
    ) -> Option<Arc<T>> {
        let cell = Arc::clone(lock(cache).entry(rel.to_string()).or_default());
        if let Some(kept) = cell.get() {
            return kept.clone();
        }
        let Some((value, weight)) = read() else {
            let _ = cell.set(None);
            return None;
        };
        // Taken only when it fits, and given back without going below nothing: `forget` may
        // have zeroed the count between the two (a plain add and subtract then wrapped, and the
        // next sum overflowed).
        let taken = {
            let mut held = self.weight.lock().unwrap_or_else(|e| e.into_inner());
            let sum = held.checked_add(weight).filter(|&sum| sum <= MAX_KEPT_BYTES);
            *held = sum.unwrap_or(*held);
            sum.is_some()
        };
        if taken && cell.set(Some(Arc::clone(&value))).is_err() {
            self.give_back(weight);
        }
        Some(value)
    }

    fn give_back(&self, weight: u64) {
        let mut held = self.weight.lock().unwrap_or_else(|e| e.into_inner());
        *held = held.saturating_sub(weight);
    }

    /// The answer kept for `rel` in `cache`, if any (`Some(None)`: the file failed).
    pub(super) fn get<T: ?Sized>(&self, cache: &Cache<T>, rel: &str) -> Option<Option<Arc<T>>> {
        lock(cache).get(rel).and_then(|cell| cell.get().cloned())
    }

    /// Let go of everything kept.
    pub(super) fn forget(&self) {
        let Kept { texts, json, jsonc, toml, yaml, weight } = self;
        drop(std::mem::take(&mut *lock(texts)));
        drop(std::mem::take(&mut *lock(json)));
        drop(std::mem::take(&mut *lock(jsonc)));
        drop(std::mem::take(&mut *lock(toml)));
        drop(std::mem::take(&mut *lock(yaml)));
        *weight.lock().unwrap_or_else(|e| e.into_inner()) = 0;
    }
}

fn lock<T: ?Sized>(cache: &Cache<T>) -> std::sync::MutexGuard<'_, Cells<T>> {
    cache.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_kept_within_the_budget_failures_always() {
        let kept = Kept::default();
        let reads = std::cell::Cell::new(0);
        let read = |weight: u64| {
            reads.set(reads.get() + 1);
            Some((Arc::<str>::from("x"), weight))
        };
        assert!(kept.get_or_read(&kept.texts, "a", || read(MAX_KEPT_BYTES - 10)).is_some());
        assert!(kept.get_or_read(&kept.texts, "a", || read(1)).is_some());
        assert_eq!(reads.get(), 1, "kept");
        kept.get_or_read(&kept.texts, "b", || read(11));
        kept.get_or_read(&kept.texts, "b", || read(11));
        assert_eq!(reads.get(), 3, "over the budget: read for each asker");
        assert!(kept.get_or_read(&kept.texts, "c", || read(10)).is_some());
        assert!(kept.get_or_read(&kept.texts, "d", || None).is_none());
        assert!(kept.get_or_read(&kept.texts, "d", || read(0)).is_none(), "a failure is not tried again");
        assert_eq!(reads.get(), 4);
        assert!(matches!(kept.get(&kept.texts, "c"), Some(Some(_))) && kept.get(&kept.texts, "b").is_none());
        kept.forget();
        assert!(kept.get(&kept.texts, "a").is_none());
        kept.get_or_read(&kept.texts, "b", || read(11));
        assert!(kept.get(&kept.texts, "b").is_some(), "room again once forgotten");
    }

    #[test]
    fn a_weight_past_any_sum_or_a_count_zeroed_meanwhile_neither_overflows_nor_wraps() {
        let kept = Kept::default();
        kept.get_or_read(&kept.texts, "a", || Some((Arc::<str>::from("x"), 100)));
        // Beside what is held, the largest weight: no sum is made that overflows.
        assert!(kept.get_or_read(&kept.texts, "b", || Some((Arc::<str>::from("x"), u64::MAX))).is_some());
        assert!(kept.get(&kept.texts, "b").is_none(), "past the budget: not kept");
        // `forget` zeroed the count after another asker took its weight: given back from zero.
        kept.forget();
        kept.give_back(100);
        assert_eq!(*kept.weight.lock().unwrap(), 0);
        assert!(kept.get_or_read(&kept.texts, "c", || Some((Arc::<str>::from("x"), MAX_KEPT_BYTES))).is_some());
        assert!(kept.get(&kept.texts, "c").is_some(), "the whole budget is there");
    }
}
