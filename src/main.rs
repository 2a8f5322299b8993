//! Entry point: parse the command line, run the command, map the result to an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    use_one_malloc_arena();
    hanzo_env::run_from_args(std::env::args_os())
}

/// One malloc arena for every thread. glibc gives each thread that allocates an arena of its
/// own and reuses what a thread freed only for allocations in that arena: detect's threads
/// (walkers, detection workers, the code scan) each grew their own, and a run's peak RSS
/// carried all of them — 36-43 MiB on a large tree, 34-35 MiB with one arena, at the same
/// CPU time. Set before any thread starts: glibc fixes the number of arenas at the first one.
fn use_one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes an allocator setting; no allocation is moved or freed.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}
