//! The calls into glibc's allocator that detect's peak memory depends on (elsewhere, musl
//! or macOS, they do nothing). One arena for all threads (`M_ARENA_MAX=1`) was tried and
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

/// The size from which a block comes from the system on its own (mmap) and goes back to it
/// when freed: file texts and parsed documents of a few hundred KiB.
const OWN_PAGES_FROM_BYTES: usize = 128 << 10;

/// Give blocks of [`OWN_PAGES_FROM_BYTES`] and more pages of their own, for the whole run.
/// glibc starts there too, but raises the bar to each mapped block freed (up to 32 MiB), so
/// after the first large file a run read, every later one came from the heap and left it
/// fragmented: detect on a tree of 160 projects peaked 2.5 MiB higher, and twice as
/// unevenly from run to run. Fixing the bar keeps glibc from moving it.
pub fn map_large_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a threshold for later allocations; none moves.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_PAGES_FROM_BYTES as libc::c_int);
    }
}
