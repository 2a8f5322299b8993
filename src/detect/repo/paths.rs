//! The walk's file list, in two forms: [`Walked`], each walker thread's paths as it found
//! them, and [`Paths`], the sorted list every detector asks. A large checkout lists hundreds
//! of thousands of files, mostly in a few thousand folders under a few thousand distinct
//! names (`index.ts`, `__init__.py`, `package.json`): `Paths` keeps each folder and each name
//! once and a file as two 4-byte ids, a third of the bytes of its paths.

use crate::rel_path::RelPath;
use std::cmp::Ordering;
use std::collections::HashMap;

/// Paths as the walk found them. A walker thread lists a folder's files one after another,
/// so each file is kept as its name and a folder it shares with the file before it: the
/// folder's text once per run of files, and only the name once per file (most of a path's
/// bytes are its folder's). Text lives in 64 KiB chunks that are never moved once written,
/// each string an 8-byte [`Text`] (a `String` each would cost an allocation and 24 bytes more).
#[derive(Default)]
pub(super) struct Walked {
    chunks: Vec<String>,
    dirs: Vec<Text>,
    files: Vec<Entry>,
}

#[derive(Clone, Copy)]
struct Text {
    /// The chunk (high 16 bits) and the offset in it (low 16 bits).
    at: u32,
    len: u16,
}

#[derive(Clone, Copy)]
struct Entry {
    /// The position of the file's folder in `dirs`.
    dir: u32,
    name: Text,
}

const CHUNK_BYTES: usize = 1 << 16;
/// The longest path kept: PATH_MAX on Linux; a longer one comes from no real file system.
const MAX_PATH_BYTES: usize = 4096;

impl Walked {
    pub(super) fn push(&mut self, path: &str) {
        if path.len() > MAX_PATH_BYTES {
            return;
        }
        let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
        let same_dir = self.dirs.last().is_some_and(|&last| self.text(last) == dir);
        if !same_dir {
            let Some(text) = self.store(dir) else { return };
            self.dirs.push(text);
        }
        let Some(name) = self.store(name) else { return };
        self.files.push(Entry { dir: (self.dirs.len() - 1) as u32, name });
    }

    /// `s` copied into the current chunk (a new one when it does not fit), or `None` past
    /// 4 GiB of text.
    fn store(&mut self, s: &str) -> Option<Text> {
        if self.chunks.last().is_none_or(|c| c.len() + s.len() > CHUNK_BYTES) {
            if self.chunks.len() > u16::MAX as usize {
                return None;
            }
            self.chunks.push(String::with_capacity(CHUNK_BYTES));
        }
        let chunk = self.chunks.len() - 1;
        let text = &mut self.chunks[chunk];
        let at = ((chunk as u32) << 16) | text.len() as u32;
        text.push_str(s);
        Some(Text { at, len: s.len() as u16 })
    }

    /// One sorted list, without duplicates, of the paths of every part.
    fn merge(parts: Vec<Walked>) -> Walked {
        let mut merged = Walked {
            chunks: Vec::with_capacity(parts.iter().map(|p| p.chunks.len()).sum()),
            dirs: Vec::with_capacity(parts.iter().map(|p| p.dirs.len()).sum()),
            files: Vec::with_capacity(parts.iter().map(|p| p.files.len()).sum()),
        };
        for part in parts {
            if merged.chunks.len() + part.chunks.len() > u16::MAX as usize + 1 {
                break; // over 4 GiB of paths: no machine detection runs on has this
            }
            let moved = |t: Text| Text { at: t.at + ((merged.chunks.len() as u32) << 16), ..t };
            let first_dir = merged.dirs.len() as u32;
            merged.files.extend(part.files.iter().map(|e| Entry { dir: e.dir + first_dir, name: moved(e.name) }));
            merged.dirs.extend(part.dirs.iter().map(|&d| moved(d)));
            merged.chunks.extend(part.chunks);
        }
        let Walked { chunks, dirs, files } = merged;
        let walked = Walked { chunks, dirs, files: Vec::new() };
        let mut files = sorted_on_two_threads(files, |a, b| walked.cmp_paths(a, b), |e| e);
        files.dedup_by(|a, b| walked.cmp_paths(a, b).is_eq());
        Walked { files, ..walked }
    }

    /// How the paths of `a` and `b` order, as whole paths would, without building them.
    fn cmp_paths(&self, a: &Entry, b: &Entry) -> Ordering {
        let (a_dir, b_dir) = (self.dir_text(a), self.dir_text(b));
        if a.dir == b.dir || a_dir == b_dir {
            return self.text(a.name).cmp(self.text(b.name));
        }
        let sep = |dir: &str| if dir.is_empty() { "" } else { "/" };
        cmp_joined(
            [a_dir.as_bytes(), sep(a_dir).as_bytes(), self.text(a.name).as_bytes()],
            [b_dir.as_bytes(), sep(b_dir).as_bytes(), self.text(b.name).as_bytes()],
        )
    }

    fn text(&self, t: Text) -> &str {
        let start = (t.at & 0xFFFF) as usize;
        &self.chunks[(t.at >> 16) as usize][start..start + t.len as usize]
    }

    fn dir_text(&self, e: &Entry) -> &str {
        self.text(self.dirs[e.dir as usize])
    }

    fn len(&self) -> usize {
        self.files.len()
    }

    fn name(&self, i: usize) -> &str {
        self.text(self.files[i].name)
    }

    fn dir(&self, i: usize) -> &str {
        self.dir_text(&self.files[i])
    }
}

/// How the concatenations of `a`'s parts and of `b`'s parts order, as their bytes would.
fn cmp_joined(a: [&[u8]; 3], b: [&[u8]; 3]) -> Ordering {
    let (mut a_parts, mut b_parts) =
        (a.iter().copied().filter(|p| !p.is_empty()), b.iter().copied().filter(|p| !p.is_empty()));
    let (mut x, mut y) = (a_parts.next().unwrap_or_default(), b_parts.next().unwrap_or_default());
    loop {
        match (x.is_empty(), y.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            (false, false) => {}
        }
        let n = x.len().min(y.len());
        match x[..n].cmp(&y[..n]) {
            Ordering::Equal => {}
            other => return other,
        }
        (x, y) = (&x[n..], &y[n..]);
        if x.is_empty() {
            x = a_parts.next().unwrap_or_default();
        }
        if y.is_empty() {
            y = b_parts.next().unwrap_or_default();
        }
    }
}

/// Strings kept end to end in one buffer, each found by its id.
#[derive(Default)]
struct Strings {
    text: String,
    ends: Vec<u32>,
}

impl Strings {
    fn push(&mut self, s: &str) -> u32 {
        self.text.push_str(s);
        self.ends.push(self.text.len() as u32);
        (self.ends.len() - 1) as u32
    }

    fn get(&self, id: u32) -> &str {
        let id = id as usize;
        let start = if id == 0 { 0 } else { self.ends[id - 1] as usize };
        &self.text[start..self.ends[id] as usize]
    }

    fn last(&self) -> Option<&str> {
        self.ends.len().checked_sub(1).map(|id| self.get(id as u32))
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn shrink_to_fit(&mut self) {
        self.text.shrink_to_fit();
        self.ends.shrink_to_fit();
    }
}

/// Repo-relative paths, sorted, each stored as its folder and its name.
pub(super) struct Paths {
    /// Every folder that holds a file ("" for the root), in no particular order.
    dirs: Strings,
    /// Every file name, sorted: a name's id orders as the name does.
    names: Strings,
    /// Each file's folder and name, in the order of its path.
    files: Vec<Ids>,
    /// Positions in `files`, ordered by name, then path: a lookup by name is a binary search.
    by_name: Vec<u32>,
}

#[derive(Clone, Copy, Default)]
struct Ids {
    dir: u32,
    name: u32,
}

impl Paths {
    /// The sorted, compact list of the paths every walker thread found.
    pub(super) fn from_walk(parts: Vec<Walked>) -> Paths {
        let walked = Walked::merge(parts);
        let n = walked.len();
        // By name, then path. The first 8 bytes of a name, as a number, decide most comparisons
        // without looking names up: sorting 200k files by looked-up names took 0.15 s.
        let keyed: Vec<(u64, u32)> = (0..n as u32).map(|i| (name_prefix(walked.name(i as usize)), i)).collect();
        let by_name = sorted_on_two_threads(
            keyed,
            |a, b| {
                a.0.cmp(&b.0).then_with(|| walked.name(a.1 as usize).cmp(walked.name(b.1 as usize))).then(a.1.cmp(&b.1))
            },
            |(_, i)| i,
        );
        let mut files = vec![Ids::default(); n];
        // Names come in order here: each new one is pushed once, and ids follow name order.
        let mut names = Strings::default();
        for &i in &by_name {
            let name = walked.name(i as usize);
            if names.last() != Some(name) {
                names.push(name);
            }
            files[i as usize].name = (names.len() - 1) as u32;
        }
        // Sorted paths come folder by folder, save where a subfolder's files come between:
        // the folder of the previous file is the one to try first.
        let mut dirs = Strings::default();
        let mut dir_ids: HashMap<&str, u32> = HashMap::new();
        let mut last: Option<(&str, u32)> = None;
        for (i, ids) in files.iter_mut().enumerate() {
            let dir = walked.dir(i);
            ids.dir = match last {
                Some((previous, id)) if previous == dir => id,
                _ => {
                    let id = *dir_ids.entry(dir).or_insert_with(|| dirs.push(dir));
                    last = Some((dir, id));
                    id
                }
            };
        }
        names.shrink_to_fit();
        dirs.shrink_to_fit();
        Paths { dirs, names, files, by_name }
    }

    pub(super) fn len(&self) -> usize {
        self.files.len()
    }

    pub(super) fn dir(&self, i: usize) -> &str {
        self.dirs.get(self.files[i].dir)
    }

    pub(super) fn name(&self, i: usize) -> &str {
        self.names.get(self.files[i].name)
    }

    /// The path of the file at `i`, built.
    pub(super) fn path(&self, i: usize) -> String {
        // The walk's own folders and names: relative, `/`-separated, no `.` or `..`.
        RelPath::trusted(self.dir(i)).join(RelPath::trusted(self.name(i))).into_string()
    }

    /// How the path at `i` orders against `key`, without building it.
    fn cmp_path(&self, i: usize, key: &str) -> Ordering {
        let (dir, name, key) = (self.dir(i).as_bytes(), self.name(i).as_bytes(), key.as_bytes());
        if dir.is_empty() {
            return name.cmp(key);
        }
        let Some((key_dir, rest)) = key.split_at_checked(dir.len()) else {
            // `key` is shorter than the folder: the first bytes decide, else the path is longer.
            return dir[..key.len()].cmp(key).then(Ordering::Greater);
        };
        dir.cmp(key_dir).then_with(|| match rest.split_first() {
            None => Ordering::Greater,
            Some((&first, key_name)) => b'/'.cmp(&first).then_with(|| name.cmp(key_name)),
        })
    }

    /// The first position whose path is not before `key`.
    pub(super) fn first_not_before(&self, key: &str) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.cmp_path(mid, key).is_lt() { low = mid + 1 } else { high = mid }
        }
        low
    }

    pub(super) fn is_at(&self, i: usize, key: &str) -> bool {
        i < self.len() && self.cmp_path(i, key).is_eq()
    }

    /// The positions of the files called `name`, by path.
    pub(super) fn named(&self, name: &str) -> &[u32] {
        let (mut low, mut high) = (0, self.names.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.names.get(mid as u32) < name { low = mid + 1 } else { high = mid }
        }
        if low == self.names.len() || self.names.get(low as u32) != name {
            return &[];
        }
        let id = low as u32;
        let first = self.by_name.partition_point(|&i| self.files[i as usize].name < id);
        let count = self.by_name[first..].partition_point(|&i| self.files[i as usize].name == id);
        &self.by_name[first..first + count]
    }
}

/// `items` sorted by `order` (a total order) on two threads, each as `keep` makes it: each
/// half sorted on its own, then one merge that writes the kept form. The walk's two sorts of
/// 200k entries run after it, alone on detect's critical path; keeping only what is needed
/// while merging spares a second copy of the keyed entries at the run's peak of memory.
/// (Not rayon: its pool would keep more threads, each with its malloc arena, for the whole run.)
fn sorted_on_two_threads<T: Copy + Send, U>(
    mut items: Vec<T>,
    order: impl Fn(&T, &T) -> Ordering + Sync,
    keep: impl Fn(T) -> U,
) -> Vec<U> {
    if items.len() < 1 << 12 {
        items.sort_unstable_by(order);
        return items.into_iter().map(keep).collect();
    }
    let middle = items.len() / 2;
    let order = &order;
    let (left, right) = items.split_at_mut(middle);
    std::thread::scope(|scope| {
        scope.spawn(move || left.sort_unstable_by(order));
        right.sort_unstable_by(order);
    });
    let (left, right) = items.split_at(middle);
    let mut merged = Vec::with_capacity(items.len());
    let (mut l, mut r) = (0, 0);
    while l < left.len() && r < right.len() {
        if order(&right[r], &left[l]).is_lt() {
            merged.push(keep(right[r]));
            r += 1;
        } else {
            merged.push(keep(left[l]));
            l += 1;
        }
    }
    merged.extend(left[l..].iter().chain(&right[r..]).map(|&item| keep(item)));
    merged
}

/// The first 8 bytes of `name`, zero-padded, as a big-endian number: it orders names as
/// their bytes do wherever the first 8 bytes differ (a file name holds no NUL byte).
fn name_prefix(name: &str) -> u64 {
    let mut bytes = [0u8; 8];
    let head = &name.as_bytes()[..name.len().min(8)];
    bytes[..head.len()].copy_from_slice(head);
    u64::from_be_bytes(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Paths {
        let mut walked = Walked::default();
        for p in list {
            walked.push(p);
        }
        Paths::from_walk(vec![walked])
    }

    #[test]
    fn orders_against_a_key_as_the_whole_path_would() {
        let list = ["a-b/x", "a.txt", "a/b", "a/b.txt", "a/b/c", "a/b0", "b", "ab/c"];
        let paths = paths(&list);
        let mut sorted = list.to_vec();
        sorted.sort_unstable();
        let built: Vec<String> = (0..paths.len()).map(|i| paths.path(i)).collect();
        assert_eq!(built, sorted);
        let keys = ["", "a", "a/", "a/b", "a/b/", "a/b/c", "a/b/d", "a-b", "a-b/x", "a.txt", "ab", "b", "c", "a/b0/z"];
        for (i, path) in sorted.iter().enumerate() {
            for key in keys {
                assert_eq!(paths.cmp_path(i, key), path.cmp(&key), "{path} vs {key}");
            }
        }
        assert_eq!(paths.first_not_before("a/"), 2);
        assert!(paths.is_at(paths.first_not_before("a/b/c"), "a/b/c"));
        assert!(!paths.is_at(paths.first_not_before("a/b/"), "a/b/"));
    }

    #[test]
    fn paths_found_in_any_order_by_several_walkers_come_out_sorted_once() {
        let found = [
            vec!["a/b0", "a/b/c", "a-b/x", "a/b/d", "a/b0", "x"],
            vec!["a/b.txt", "a/b/c", "ab/c", "a.txt", "a/b/e/f", "a/b"],
        ];
        let parts = found
            .iter()
            .map(|list| {
                let mut walked = Walked::default();
                list.iter().for_each(|p| walked.push(p));
                walked
            })
            .collect();
        let paths = Paths::from_walk(parts);
        let mut expected: Vec<&str> = found.concat();
        expected.sort_unstable();
        expected.dedup();
        let built: Vec<String> = (0..paths.len()).map(|i| paths.path(i)).collect();
        assert_eq!(built, expected);
    }

    #[test]
    fn joined_parts_order_as_their_concatenation() {
        let cases = [
            (["a", "/", "b0"], ["a/b", "/", "x"]),
            (["a", "/", "b-c"], ["a/b", "/", "x"]),
            (["", "", "ab"], ["a", "/", "b"]),
            (["a", "/", "b"], ["a", "/", "b"]),
            (["a/b", "/", "c"], ["a", "/", "b/c"]),
            (["a", "/", "bc"], ["a", "/", "b"]),
        ];
        for (a, b) in cases {
            let whole = a.concat().cmp(&b.concat());
            let parts = |p: [&'static str; 3]| p.map(str::as_bytes);
            assert_eq!(cmp_joined(parts(a), parts(b)), whole, "{a:?} vs {b:?}");
            assert_eq!(cmp_joined(parts(b), parts(a)), whole.reverse(), "{b:?} vs {a:?}");
        }
    }

    #[test]
    fn names_and_folders_are_kept_once() {
        let paths = paths(&["x/index.ts", "y/index.ts", "x/a.ts", "index.ts", "x/z/index.ts"]);
        assert_eq!(paths.names.len(), 2);
        assert_eq!(paths.dirs.len(), 4);
        let named: Vec<String> = paths.named("index.ts").iter().map(|&i| paths.path(i as usize)).collect();
        assert_eq!(named, ["index.ts", "x/index.ts", "x/z/index.ts", "y/index.ts"]);
        assert!(paths.named("index").is_empty() && paths.named("zzz").is_empty());
        assert_eq!(paths.dir(0), "");
    }
}
