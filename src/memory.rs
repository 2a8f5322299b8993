//! The two settings of glibc's allocator that detect's peak memory depends on. Elsewhere
//! (musl, macOS) both do nothing.

/// One malloc arena for every thread. glibc gives each thread that allocates an arena of its
/// own and reuses what a thread freed only for allocations in that arena: detect's threads
/// (walkers, detection workers, the code scan) each grew their own, and a run's peak RSS
/// carried all of them — 36-42 MiB on the second bench tree, 33-35 MiB with one arena, at the
/// same CPU time. Call before any thread starts: glibc fixes the number of arenas at the first.
/// Not for `serve`, whose request threads would all wait on the one arena's lock.
pub fn use_one_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes an allocator setting; no allocation is moved or freed.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Hand the pages of freed memory back to the system. glibc returns only the free top of a
/// heap by itself; what is freed between live allocations (a parse that is done, a file that
/// was read) stays in the process until this.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages to the kernel; no live allocation moves.
    unsafe {
        libc::malloc_trim(0);
    }
}
