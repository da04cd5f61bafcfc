import CAllocator
import Testing

/// glibc's allocator settings the command line applies (issue 28, docs/memory.md).
@Suite("Allocator settings")
struct AllocatorSettingsTests {
    @Test("the mmap threshold is set on glibc (a shim that tested for glibc before any libc header once set nothing)")
    func thresholdIsSet() {
        #if os(Linux)
        #expect(tessera_set_mmap_threshold(1 << 20) == 1)
        #endif
    }
}
