//! Children in their own process group, stopped as a whole: SIGTERM to the group, a grace
//! period, then SIGKILL, so that nothing a step started outlives it.

use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// How often running children are polled.
pub const POLL: Duration = Duration::from_millis(50);

/// How long killed processes get to disappear after SIGKILL.
const KILL_WAIT: Duration = Duration::from_secs(5);

/// Run a set-up command (no input, output dropped) to the end; when it fails, the reason in
/// a few words: `what`, then the last line it wrote to stderr.
pub fn run_quietly(mut cmd: Command, what: &str) -> Result<(), String> {
    cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    let output = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if output.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let last = stderr.lines().map(str::trim).rfind(|l| !l.is_empty()).unwrap_or("no message");
    let shown: String = last.chars().filter(|c| !c.is_control()).take(200).collect();
    Err(format!("{what}: {shown}"))
}

/// A child that leads its own process group (spawned with `process_group(0)`).
pub struct Group {
    child: Child,
    pgid: libc::pid_t,
    status: Option<ExitStatus>,
}

impl Group {
    pub fn new(child: Child) -> Group {
        let pgid = libc::pid_t::try_from(child.id()).unwrap_or(0);
        Group { child, pgid, status: None }
    }

    pub fn pgid(&self) -> libc::pid_t {
        self.pgid
    }

    /// The leader's exit status once it has exited (reaping it).
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        if self.status.is_none() {
            self.status = self.child.try_wait().ok().flatten();
        }
        self.status
    }

    /// Whether any process of the group is still alive (the leader counts until reaped).
    pub fn alive(&mut self) -> bool {
        self.try_wait();
        if self.pgid <= 0 {
            return false;
        }
        // SAFETY: signal 0 only checks for existence; a negative pid names the group.
        let rc = unsafe { libc::kill(-self.pgid, 0) };
        rc == 0 && (self.status.is_none() || group_has_live_member(self.pgid))
    }

    /// Stop every process of the group: SIGTERM, up to `grace` for it to go, then SIGKILL.
    /// Returns the leader's status.
    pub fn stop(&mut self, grace: Duration) -> Option<ExitStatus> {
        if self.pgid > 0 && self.alive() {
            self.signal(libc::SIGTERM);
            let until = Instant::now() + grace;
            while self.alive() && Instant::now() < until {
                std::thread::sleep(POLL);
            }
            if self.alive() {
                self.signal(libc::SIGKILL);
                // SIGKILL is delivered asynchronously: wait until the members are really gone.
                let until = Instant::now() + KILL_WAIT;
                while self.alive() && Instant::now() < until {
                    std::thread::sleep(POLL);
                }
            }
        }
        // The leader is dead by now (or soon); reap it so that it leaves no zombie.
        if self.status.is_none() {
            self.status = self.child.wait().ok();
        }
        self.status
    }

    fn signal(&self, signal: libc::c_int) {
        // SAFETY: plain kill(2) to a group we created.
        unsafe {
            libc::kill(-self.pgid, signal);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        // Never leave a group behind, whatever path led here.
        if self.pgid > 0 && self.alive() {
            self.signal(libc::SIGKILL);
        }
        if self.status.is_none() {
            let _ = self.child.wait();
        }
    }
}

/// Whether `pgid` still has a member that is not a zombie (zombies of processes reparented to
/// init vanish on their own; they no longer run anything).
fn group_has_live_member(pgid: libc::pid_t) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return true; // No /proc: trust kill(2) alone.
    };
    entries.flatten().any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // Fields after the parenthesised command: state ppid pgrp …
        let Some(after) = stat.rsplit_once(')').map(|(_, rest)| rest) else {
            return false;
        };
        let mut fields = after.split_whitespace();
        let state = fields.next();
        let group = fields.nth(1).and_then(|g| g.parse::<libc::pid_t>().ok());
        group == Some(pgid) && state != Some("Z")
    })
}

/// Every live process whose process group is `pgid`.
pub fn members(pgid: libc::pid_t) -> Vec<libc::pid_t> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<libc::pid_t>().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let after = stat.rsplit_once(')')?.1.to_string();
            let mut fields = after.split_whitespace();
            let state = fields.next()?;
            let group = fields.nth(1)?.parse::<libc::pid_t>().ok()?;
            (group == pgid && state != "Z").then_some(pid)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    use super::*;

    #[test]
    fn stop_ends_the_whole_group_even_when_the_leader_ignores_sigterm() {
        let child = Command::new("bash")
            .args(["-c", "trap '' TERM; sleep 300 & sleep 301 & wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        let mut group = Group::new(child);
        let pgid = group.pgid();
        let deadline = Instant::now() + Duration::from_secs(5);
        while members(pgid).len() < 3 && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
        assert_eq!(members(pgid).len(), 3, "bash and two sleeps");
        let started = Instant::now();
        group.stop(Duration::from_millis(500));
        assert!(started.elapsed() < Duration::from_secs(4));
        assert!(members(pgid).is_empty(), "no member of the group survives");
        assert!(!group.alive());
    }

    #[test]
    fn a_finished_leader_is_not_alive() {
        let child = Command::new("true").process_group(0).spawn().unwrap();
        let mut group = Group::new(child);
        let deadline = Instant::now() + Duration::from_secs(5);
        while group.try_wait().is_none() && Instant::now() < deadline {
            std::thread::sleep(POLL);
        }
        assert!(group.try_wait().is_some_and(|s| s.success()));
        assert!(!group.alive());
    }
}
