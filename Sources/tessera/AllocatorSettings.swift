import CAllocator

/// glibc's allocator, set for a process that allocates and frees bitmaps of tens of megabytes.
///
/// By default glibc raises its mmap threshold to the size of the largest block freed (up to
/// 32 MB), after which a 21 MB bitmap comes from the heap, and freed heap pages stay in the
/// process: the 40-master batch of issue 28 peaked at 265 MB of RSS with 56 MB of live heap
/// (heaptrack). A fixed 1 MiB threshold gives every bitmap and encode buffer its own mapping,
/// returned to the system when freed: about 155 MB, flat in the number of masters, at about the
/// same time (docs/memory.md). `MALLOC_MMAP_THRESHOLD_` in the environment still wins.
enum AllocatorSettings {
    static let mmapThreshold: Int32 = 1 << 20

    static func apply(environment: [String: String]) {
        guard environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return }
        _ = tessera_set_mmap_threshold(mmapThreshold)
    }
}

extension AllocatorSettings {
    /// How much freed memory a heap keeps for `tessera serve`, against glibc's 128 KiB.
    static let serveTrimThreshold: Int32 = 32 << 20

    /// For `tessera serve`: each bundle answer up to 256 KiB is one buffer, freed once written.
    /// With glibc's default trim threshold an event loop freeing a dozen 64 KiB answers gave
    /// the pages back about a thousand times a second (`madvise`), and the next answers faulted
    /// them in again (`perf stat`). What is kept is what the same load allocates a moment later.
    /// `MALLOC_TRIM_THRESHOLD_` in the environment still wins.
    static func applyForServing(environment: [String: String]) {
        guard environment["MALLOC_TRIM_THRESHOLD_"] == nil else { return }
        _ = tessera_set_trim_threshold(serveTrimThreshold)
    }
}
