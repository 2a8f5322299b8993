//! The one call into glibc's allocator that detect's peak memory depends on (elsewhere, musl
//! or macOS, it does nothing). One arena for all threads (`M_ARENA_MAX=1`) was tried and
//! left out: it gave no lower peak once freed pages are handed back, and it made detect's
//! parallel walk 80% slower on two cores (every thread waits on the one arena's lock).

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
