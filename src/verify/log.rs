//! A step's log: what it writes to stdout and stderr, read through a pipe and kept bounded —
//! its first [`HEAD_BYTES`] and its last [`TAIL_BYTES`], with a line saying how much was left
//! out between them. A step printing a gigabyte costs a few MiB and no time to summarise: the
//! last lines come from the tail, which is already in memory.
//!
//! Values are masked before anything is kept on disk or shown: each end is kept with a margin
//! as long as the longest masked value, so a value cut by an end is still seen whole.

use std::collections::VecDeque;
use std::io::Read;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use crate::envfile::ChildEnv;

/// The start of a log kept.
pub const HEAD_BYTES: usize = 256 << 10;
/// The end of a log kept.
pub const TAIL_BYTES: usize = 1 << 20;
/// A line shown in the report is cut to this many characters.
pub const MAX_SHOWN_LINE: usize = 300;

/// A log being written; clones share it.
#[derive(Clone)]
pub struct StepLog {
    shared: Arc<(Mutex<Kept>, Condvar)>,
}

struct Kept {
    /// The first `HEAD_BYTES + margin` bytes.
    head: Vec<u8>,
    /// The last `TAIL_BYTES + margin` bytes after the first `HEAD_BYTES`.
    tail: VecDeque<u8>,
    total: u64,
    margin: usize,
    /// Every writer is gone (end of file on the pipe).
    done: bool,
}

impl StepLog {
    /// An empty log; `margin` is the longest value that will be masked.
    pub fn new(margin: usize) -> StepLog {
        let kept = Kept { head: Vec::new(), tail: VecDeque::new(), total: 0, margin, done: false };
        StepLog { shared: Arc::new((Mutex::new(kept), Condvar::new())) }
    }

    /// A log fed from `reader` on a thread of its own, until end of file.
    pub fn pump(mut reader: impl Read + Send + 'static, margin: usize) -> StepLog {
        let log = StepLog::new(margin);
        let feed = log.clone();
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 << 10];
            loop {
                match reader.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => feed.append(&chunk[..n]),
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
            feed.finish();
        });
        log
    }

    pub fn append(&self, bytes: &[u8]) {
        let mut kept = self.lock();
        let head_room = (HEAD_BYTES + kept.margin).saturating_sub(kept.head.len());
        kept.head.extend_from_slice(&bytes[..head_room.min(bytes.len())]);
        // Bytes of this chunk that lie past the first HEAD_BYTES of the log.
        let before_tail = usize::try_from((HEAD_BYTES as u64).saturating_sub(kept.total)).unwrap_or(usize::MAX);
        if before_tail < bytes.len() {
            kept.tail.extend(&bytes[before_tail..]);
            let limit = TAIL_BYTES + kept.margin;
            if kept.tail.len() > limit {
                let excess = kept.tail.len() - limit;
                kept.tail.drain(..excess);
            }
        }
        kept.total += bytes.len() as u64;
    }

    /// Also a line of ours (a timeout, a port check).
    pub fn append_line(&self, line: &str) {
        self.append(format!("{line}\n").as_bytes());
    }

    /// No more writes.
    pub fn finish(&self) {
        self.lock().done = true;
        self.shared.1.notify_all();
    }

    /// Wait until every writer is gone, at most `wait`: a process that escaped its step may
    /// hold the pipe open, and what the step wrote before it ended is read in well under that.
    pub fn settle(&self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut kept = self.lock();
        while !kept.done {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            kept = self.shared.1.wait_timeout(kept, left).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    /// The log as kept, masked: all of it, or its head, a line saying how much was left out,
    /// and its tail.
    pub fn render(&self, env: &ChildEnv) -> Vec<u8> {
        let kept = self.lock();
        let tail: Vec<u8> = kept.tail.iter().copied().collect();
        if kept.total <= (HEAD_BYTES + TAIL_BYTES) as u64 {
            let mut whole = kept.head[..kept.head.len().min(HEAD_BYTES)].to_vec();
            whole.extend_from_slice(&tail);
            return env.mask_bytes(&whole, 0..whole.len());
        }
        let left_out = kept.total - (HEAD_BYTES + TAIL_BYTES) as u64;
        let mut out = env.mask_bytes(&kept.head, 0..HEAD_BYTES);
        out.extend_from_slice(format!("\n[hanzo-env: {left_out} bytes of output left out here]\n").as_bytes());
        out.extend_from_slice(&env.mask_bytes(&tail, tail.len() - TAIL_BYTES..tail.len()));
        out
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.shared.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The last `count` lines of `text` as a terminal would show them (codes stripped, runs of one
/// repeated line collapsed into one, `(×N)`), each cut to [`MAX_SHOWN_LINE`] characters, and
/// the last line holding `marker` (from the marker on; a tool may leave the cursor mid-line).
pub fn last_lines(text: &[u8], count: usize, marker: &str) -> (Vec<String>, Option<String>) {
    let mut found_marker = None;
    let mut tail: VecDeque<(String, usize)> = VecDeque::new();
    // A text ending with a newline has no line after it.
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    for line in text.split(|&b| b == b'\n') {
        // Looked for in all of the line: after a long unfinished line, the marker comes last.
        if let Some(at) = memchr::memmem::rfind(line, marker.as_bytes()) {
            found_marker = Some(shown_line(&line[at..]));
        }
        let line = shown_line(line);
        match tail.back_mut() {
            Some((last, repeats)) if *last == line => *repeats += 1,
            _ => {
                if tail.len() == count {
                    tail.pop_front();
                }
                tail.push_back((line, 1));
            }
        }
    }
    let lines = tail.into_iter().map(|(line, n)| if n > 1 { format!("{line} (×{n})") } else { line }).collect();
    (lines, found_marker)
}

/// The first line of `text` (as [`last_lines`] shows lines) for which `matches` holds.
pub fn first_line(text: &[u8], matches: impl Fn(&str) -> bool) -> Option<String> {
    text.split(|&b| b == b'\n').map(shown_line).find(|line| matches(line))
}

/// One line of a log as a terminal would finally show it, cut to [`MAX_SHOWN_LINE`].
fn shown_line(line: &[u8]) -> String {
    // Far past what is shown, nothing can bring a line back under the cut.
    let cut = line.len().min(MAX_SHOWN_LINE * 16);
    let text = strip_terminal_codes(&String::from_utf8_lossy(&line[..cut])).trim_end().to_string();
    if text.chars().count() <= MAX_SHOWN_LINE && cut == line.len() {
        return text;
    }
    let kept: String = text.chars().take(MAX_SHOWN_LINE).collect();
    format!("{kept}… ({} bytes in all)", line.len())
}

/// `text` without ANSI escape sequences (colours, cursor moves) and carriage-return
/// overwrites: what a terminal would finally show on the line.
pub fn strip_terminal_codes(text: &str) -> String {
    static ESCAPES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|\][^\x07]*\x07|[@-Z\\-_])").expect("a valid pattern")
    });
    let text = ESCAPES.replace_all(text, "");
    let last = text.trim_end_matches(['\r', '\n']).rsplit('\r').next().unwrap_or_default();
    last.to_string()
}

#[cfg(test)]
mod tests {
    use secrecy::SecretString;

    use super::*;
    use crate::envfile::Resolved;

    fn env(value: &str) -> ChildEnv {
        let resolved = vec![Resolved { name: "TOKEN".into(), value: SecretString::from(value), sensitive: true }];
        ChildEnv::build(resolved, &[], &|_| None).unwrap().0
    }

    #[test]
    fn a_small_log_is_kept_whole_and_masked() {
        let env = env("s3cr3t-value");
        let log = StepLog::new(env.longest_masked());
        log.append(b"one s3cr3t-");
        log.append(b"value two\n");
        assert_eq!(log.render(&env), b"one [TOKEN] two\n");
    }

    #[test]
    fn a_huge_log_keeps_its_ends_and_masks_values_cut_by_them() {
        let secret = "s3cr3t-value";
        let env = env(secret);
        let log = StepLog::new(env.longest_masked());
        // A value straddling the end of the head, and one straddling the start of the tail.
        let mut start = vec![b'a'; HEAD_BYTES - 4];
        start.extend_from_slice(secret.as_bytes());
        log.append(&start);
        let line = vec![b'x'; 1 << 20];
        for _ in 0..40 {
            log.append(&line);
        }
        log.append(secret.as_bytes());
        log.append(&vec![b'z'; TAIL_BYTES - 28]);
        log.append(b"\nthe end s3cr3t-value\n");
        let kept = log.render(&env);
        assert!(kept.len() < HEAD_BYTES + TAIL_BYTES + 200, "{}", kept.len());
        assert!(memchr::memmem::find(&kept, secret.as_bytes()).is_none(), "no piece of the value is kept");
        assert!(memchr::memmem::find(&kept, b"s3cr").is_none() && memchr::memmem::find(&kept, b"value").is_none());
        assert!(memchr::memmem::find(&kept, b"bytes of output left out here").is_some());
        let (lines, _) = last_lines(&kept, 2, "hanzo-env: ");
        assert_eq!(lines[1], "the end [TOKEN]");
        assert!(lines[0].starts_with("[TOKEN]zzz"), "{}", &lines[0][..20]);
        assert!(lines[0].ends_with(&format!("… ({} bytes in all)", TAIL_BYTES - 28 + 7)), "{}", lines[0]);
        assert!(lines[0].chars().count() < MAX_SHOWN_LINE + 40);
    }

    #[test]
    fn last_lines_collapse_repeats_and_find_the_marker() {
        let text = b"a\nhanzo-env: line 3: false (exit 1)\nb\nb\nb\n\x1b[31mred\x1b[0m\n";
        let (lines, marker) = last_lines(text, 3, "hanzo-env: ");
        assert_eq!(lines, ["hanzo-env: line 3: false (exit 1)", "b (×3)", "red"]);
        assert_eq!(marker.as_deref(), Some("hanzo-env: line 3: false (exit 1)"));
        let unfinished = [vec![b'x'; 100_000], b"hanzo-env: line 1: false (exit 1)\n".to_vec()].concat();
        let (_, marker) = last_lines(&unfinished, 3, "hanzo-env: ");
        assert_eq!(marker.as_deref(), Some("hanzo-env: line 1: false (exit 1)"));
    }

    #[test]
    fn terminal_codes_are_stripped() {
        assert_eq!(strip_terminal_codes("\x1b[0m\x1b[1;31merror\x1b[0m: x"), "error: x");
        assert_eq!(strip_terminal_codes("50%\r100% done\r\n"), "100% done");
        assert_eq!(strip_terminal_codes("\x1b]0;title\x07plain"), "plain");
    }
}
