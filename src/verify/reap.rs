//! What the steps leave running. A step is stopped as a process group, but a process can
//! leave its group (`setsid daemon &`) and its parent can exit: it would then belong to init
//! and outlive verify, with the `[env]` values in its environment. verify makes itself the
//! reaper of its descendants instead ([`become_subreaper`]): such an orphan becomes its child,
//! and [`stop_descendants`] ends every one of them.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::process::POLL;

/// How long killed processes get to disappear after SIGKILL.
const KILL_WAIT: Duration = Duration::from_secs(5);
/// Rounds of looking again: a stopped process's own children become ours only once it is gone.
const ROUNDS: usize = 5;

/// A process a step left running, which verify stopped.
#[derive(Debug, Clone, Serialize)]
pub struct Leftover {
    pub pid: i32,
    /// Its command line, masked and cut short.
    pub command: String,
    /// What left it: the step, or `start or a test` when found outside any group at the end.
    pub after: String,
}

/// Make orphaned descendants this process's children rather than init's (Linux); false when
/// the system cannot.
pub fn become_subreaper() -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER takes one integer argument.
        unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        false
    }
}

/// Stop every live descendant of this process: SIGTERM, up to `grace` for them to go, then
/// SIGKILL; reap the ones that are our children. `describe` turns a command line into what
/// may be shown (masked). Returns what was running.
pub fn stop_descendants(grace: Duration, after: &str, describe: &dyn Fn(&str) -> String) -> Vec<Leftover> {
    let me = std::process::id() as i32;
    let mut found: Vec<Leftover> = Vec::new();
    for _ in 0..ROUNDS {
        reap_zombies(me);
        let live = descendants(me);
        if live.is_empty() {
            break;
        }
        for &pid in &live {
            if !found.iter().any(|l| l.pid == pid) {
                found.push(Leftover { pid, command: describe(&command_line(pid)), after: after.to_string() });
            }
            signal(pid, libc::SIGTERM);
        }
        wait_gone(me, &live, grace);
        for &pid in &live {
            signal(pid, libc::SIGKILL);
        }
        wait_gone(me, &live, KILL_WAIT);
    }
    reap_zombies(me);
    found
}

/// The processes still in a step's group once its shell has ended (`server &`), described
/// before the group is stopped.
pub fn left_in_group(pgid: libc::pid_t, after: &str, describe: &dyn Fn(&str) -> String) -> Vec<Leftover> {
    super::process::members(pgid)
        .into_iter()
        .map(|pid| Leftover { pid, command: describe(&command_line(pid)), after: after.to_string() })
        .collect()
}

/// Every live (not zombie) process below `root`, found through `/proc`.
pub fn descendants(root: i32) -> Vec<i32> {
    let table = process_table();
    let mut below = Vec::new();
    let mut queue = vec![root];
    while let Some(parent) = queue.pop() {
        for (&pid, &(ppid, zombie)) in &table {
            if ppid == parent {
                queue.push(pid);
                if !zombie {
                    below.push(pid);
                }
            }
        }
    }
    below.sort_unstable();
    below
}

/// pid → (parent pid, is a zombie), for every process.
fn process_table() -> HashMap<i32, (i32, bool)> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return HashMap::new() };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<i32>().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // Fields after the parenthesised command: state ppid …
            let mut fields = stat.rsplit_once(')')?.1.split_whitespace();
            let state = fields.next()?;
            let ppid = fields.next()?.parse::<i32>().ok()?;
            Some((pid, (ppid, state == "Z")))
        })
        .collect()
}

/// Wait until none of `pids` is alive below `me`, at most `wait`.
fn wait_gone(me: i32, pids: &[i32], wait: Duration) {
    let until = Instant::now() + wait;
    loop {
        reap_zombies(me);
        let live = descendants(me);
        if !pids.iter().any(|pid| live.contains(pid)) || Instant::now() >= until {
            return;
        }
        std::thread::sleep(POLL);
    }
}

/// Collect the exit status of our children that are zombies (a stopped orphan is one until
/// then). Only those: a child still running belongs to whoever started it.
fn reap_zombies(me: i32) {
    for (pid, (ppid, zombie)) in process_table() {
        if ppid == me && zombie {
            // SAFETY: waitpid(2) on one pid, without blocking; the status is not needed.
            unsafe {
                libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
            }
        }
    }
}

fn signal(pid: i32, signal: libc::c_int) {
    // SAFETY: kill(2) to one process of ours.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// `sleep 120`: the arguments, or the name when there are none to read.
fn command_line(pid: i32) -> String {
    let args = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
    let args: Vec<String> =
        args.split(|&b| b == 0).filter(|a| !a.is_empty()).map(|a| String::from_utf8_lossy(a).into_owned()).collect();
    if !args.is_empty() {
        return args.join(" ");
    }
    std::fs::read_to_string(format!("/proc/{pid}/comm")).map(|c| c.trim().to_string()).unwrap_or_default()
}
