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
