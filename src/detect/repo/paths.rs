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
        let order = DirOrder::of(&walked);
        let mut files = sorted_on_two_threads(files, |a, b| order.cmp_paths(&walked, a, b), |e| e);
        files.dedup_by(|a, b| {
            order.rank[a.dir as usize] == order.rank[b.dir as usize] && walked.name_text(a) == walked.name_text(b)
        });
        Walked { files, ..walked }
    }

    fn text(&self, t: Text) -> &str {
        let start = (t.at & 0xFFFF) as usize;
        &self.chunks[(t.at >> 16) as usize][start..start + t.len as usize]
    }

    fn dir_text(&self, e: &Entry) -> &str {
        self.text(self.dirs[e.dir as usize])
    }

    fn name_text(&self, e: &Entry) -> &str {
        self.text(e.name)
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

/// The walk's folders in path order, so that most comparisons of two paths are of two
/// numbers: sorting 200k paths by their text took 80 ms of detect's critical path. A folder
/// `d` orders as `d/` does (the root as ""): two paths in folders neither of which holds the
/// other order as their folders do, and the folders below `d` come right after it.
struct DirOrder {
    /// Each entry of [`Walked::dirs`]: the rank of its folder (the same folder, spelled by
    /// several walker threads, has one rank).
    rank: Vec<u32>,
    /// Each rank: the [`Walked::dirs`] entry whose text it is, and the first rank past the
    /// folders below it.
    by_rank: Vec<(u32, u32)>,
}

impl DirOrder {
    fn of(walked: &Walked) -> DirOrder {
        let mut first_seen: HashMap<&str, u32> = HashMap::new();
        let mut unique: Vec<u32> = Vec::new();
        let ids: Vec<u32> = (0..walked.dirs.len() as u32)
            .map(|i| {
                let text = walked.text(walked.dirs[i as usize]);
                *first_seen.entry(text).or_insert_with(|| {
                    unique.push(i);
                    (unique.len() - 1) as u32
                })
            })
            .collect();
        let slashed = |i: u32| {
            let dir = walked.text(walked.dirs[i as usize]).as_bytes();
            [dir, if dir.is_empty() { b"" } else { b"/" }, b""]
        };
        let mut sorted: Vec<u32> = (0..unique.len() as u32).collect();
        sorted.sort_unstable_by(|&a, &b| cmp_joined(slashed(unique[a as usize]), slashed(unique[b as usize])));
        let mut rank_of_id = vec![0u32; unique.len()];
        for (rank, &id) in sorted.iter().enumerate() {
            rank_of_id[id as usize] = rank as u32;
        }
        // The folders below `d` are the run after it whose text starts with `d/`.
        let mut by_rank: Vec<(u32, u32)> =
            sorted.iter().map(|&id| (unique[id as usize], sorted.len() as u32)).collect();
        let mut open: Vec<u32> = Vec::new();
        for rank in 0..by_rank.len() {
            let dir = walked.text(walked.dirs[by_rank[rank].0 as usize]);
            while let Some(&outer) = open.last() {
                let outer_dir = walked.text(walked.dirs[by_rank[outer as usize].0 as usize]);
                if is_below(dir, outer_dir) {
                    break;
                }
                by_rank[outer as usize].1 = rank as u32;
                open.pop();
            }
            open.push(rank as u32);
        }
        DirOrder { rank: ids.iter().map(|&id| rank_of_id[id as usize]).collect(), by_rank }
    }

    /// How the paths of `a` and `b` order, as whole paths would, without building them.
    fn cmp_paths(&self, walked: &Walked, a: &Entry, b: &Entry) -> Ordering {
        let (rank_a, rank_b) = (self.rank[a.dir as usize], self.rank[b.dir as usize]);
        match rank_a.cmp(&rank_b) {
            Ordering::Equal => walked.name_text(a).cmp(walked.name_text(b)),
            Ordering::Less => self.cmp_with_below(walked, rank_a, a, rank_b),
            Ordering::Greater => self.cmp_with_below(walked, rank_b, b, rank_a).reverse(),
        }
    }

    /// How the path of `file`, in the folder ranked `outer`, orders against any path in
    /// the folder ranked `inner`, which comes later: by its name against the rest of that
    /// folder when that folder is below `file`'s, else first.
    fn cmp_with_below(&self, walked: &Walked, outer: u32, file: &Entry, inner: u32) -> Ordering {
        let (outer_at, past_below) = self.by_rank[outer as usize];
        if inner >= past_below {
            return Ordering::Less;
        }
        let outer_dir = walked.text(walked.dirs[outer_at as usize]);
        let inner_dir = walked.text(walked.dirs[self.by_rank[inner as usize].0 as usize]);
        let rest = if outer_dir.is_empty() { inner_dir } else { &inner_dir[outer_dir.len() + 1..] };
        cmp_joined([walked.name_text(file).as_bytes(), b"", b""], [rest.as_bytes(), b"/", b""])
    }
}

/// Whether the folder `dir` is below `outer` (the root holds every other folder).
fn is_below(dir: &str, outer: &str) -> bool {
    outer.is_empty() && !dir.is_empty()
        || dir.len() > outer.len() && dir.starts_with(outer) && dir.as_bytes()[outer.len()] == b'/'
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
        // By name, then path: a few tens of thousands of distinct names for 200k files. Each
        // name is numbered once, the distinct names sorted, and the files counted into place
        // by name in path order (sorting 200k files by name took 50 ms of the critical path).
        // Each file's name numbered first, in its `name` slot, then renumbered in name order.
        let mut files = vec![Ids::default(); n];
        let mut numbered: HashMap<&str, u32> = HashMap::new();
        let mut distinct: Vec<&str> = Vec::new();
        for (i, ids) in files.iter_mut().enumerate() {
            let name = walked.name(i);
            ids.name = *numbered.entry(name).or_insert_with(|| {
                distinct.push(name);
                (distinct.len() - 1) as u32
            });
        }
        drop(numbered);
        let mut in_order: Vec<u32> = (0..distinct.len() as u32).collect();
        in_order.sort_unstable_by(|&a, &b| distinct[a as usize].cmp(distinct[b as usize]));
        // Names are pushed in order: a name's id orders as the name does.
        let mut names = Strings::default();
        let mut id_of = vec![0u32; distinct.len()];
        for (id, &number) in in_order.iter().enumerate() {
            id_of[number as usize] = id as u32;
            names.push(distinct[number as usize]);
        }
        drop((in_order, distinct));
        let mut next_slot = vec![0u32; id_of.len() + 1];
        for ids in &mut files {
            ids.name = id_of[ids.name as usize];
            next_slot[ids.name as usize + 1] += 1;
        }
        for id in 1..next_slot.len() {
            next_slot[id] += next_slot[id - 1];
        }
        let mut by_name = vec![0u32; n];
        for (i, ids) in files.iter().enumerate() {
            by_name[next_slot[ids.name as usize] as usize] = i as u32;
            next_slot[ids.name as usize] += 1;
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
    fn many_paths_whose_folders_hold_each_other_sort_as_their_text() {
        // Names that order on either side of `/` (`-` and `.` before it, `0` and letters
        // after), nested every way, found by three walkers in a scrambled order.
        const PARTS: [&str; 6] = ["a", "a-b", "a.b", "a0", "ab", "b"];
        let mut seed = 0x2545_f491_u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut all = Vec::new();
        for _ in 0..3000 {
            let depth = 1 + next(4);
            let path: String = (0..depth).map(|_| PARTS[next(6)]).collect::<Vec<_>>().join("/");
            all.push(path);
        }
        // A name that is also a folder of the same parent is a file of another walker's tree
        // in no real walk; keep the list to names that are not.
        let folders: std::collections::HashSet<String> =
            all.iter().flat_map(|p| p.match_indices('/').map(|(at, _)| p[..at].to_string())).collect();
        all.retain(|p| !folders.contains(p));
        let mut parts = vec![Walked::default(), Walked::default(), Walked::default()];
        for (i, path) in all.iter().enumerate() {
            parts[i % 3].push(path);
        }
        let paths = Paths::from_walk(parts);
        let mut expected = all.clone();
        expected.sort_unstable();
        expected.dedup();
        let built: Vec<String> = (0..paths.len()).map(|i| paths.path(i)).collect();
        assert_eq!(built, expected);
        for name in ["a", "a-b", "a.b", "a0", "ab", "b"] {
            let named: Vec<String> = paths.named(name).iter().map(|&i| paths.path(i as usize)).collect();
            let want: Vec<String> = expected.iter().filter(|p| p.rsplit('/').next() == Some(name)).cloned().collect();
            assert_eq!(named, want, "{name}");
        }
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
