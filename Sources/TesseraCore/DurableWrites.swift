import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// glibc's `sync_file_range(2)`, which its Swift module hides behind `_GNU_SOURCE`.
@_silgen_name("sync_file_range")
private func syncFileRange(_ descriptor: Int32, _ offset: Int64, _ count: Int64, _ flags: UInt32) -> Int32
/// `SYNC_FILE_RANGE_WRITE`: start writing the file's dirty pages back, without waiting.
private let startWriteBack: UInt32 = 2
/// `SYNC_FILE_RANGE_WAIT_BEFORE | WRITE | WAIT_AFTER`: write them back and wait until they are.
private let writeBackAndWait: UInt32 = 7
/// glibc's `statfs(2)`, whose header the Swift module leaves out. The struct's first field is the
/// file system's magic number (`f_type`, a `long` on 64-bit Linux); 256 bytes hold the whole
/// struct (120 on x86-64 and arm64).
@_silgen_name("statfs")
private func fileSystemStatus(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutableRawPointer) -> Int32
/// `EXT4_SUPER_MAGIC` (ext2 and ext3 share it; both mount through ext4 today).
private let ext4Magic = 0xEF53
#endif

/// The durability record of what this process wrote: the files it renamed into place unflushed
/// (`AtomicFileWriter.commit(flushing: false)`, the cache's restored outputs) and the folders that
/// received them or a folder it made. `flush(under:)` makes exactly those durable — each file, then
/// each folder once (`fsync`), deepest first — so a crash after it leaves every file renamed
/// before it under its name with all its bytes.
///
/// It replaced one `syncfs` of the output's file system (issue 56), which also wrote back every
/// dirty page Tessera did not write: on a CI runner, the checkout git had just written, so a fresh
/// clone restored from the cache paid for the clone. Only the build's own files are written back
/// (`flushFiles` says how, per file system).
///
/// Process-wide because files are placed from every stage and the cache, and an `NSLock` for the
/// reason `OutputLedger` gives (this module is in the client's dependencies).
public enum DurableWrites {
    /// Makes a list of files, or one folder, durable; false when one could not be flushed. A test
    /// puts its own in for a folder (`use(_:under:)`) to see what a build flushes.
    public struct Flusher: Sendable {
        public var files: @Sendable ([String]) -> Bool
        public var folder: @Sendable (String) -> Bool

        public init(files: @escaping @Sendable ([String]) -> Bool, folder: @escaping @Sendable (String) -> Bool) {
            self.files = files
            self.folder = folder
        }

        /// `fsync` through the file system.
        public static let system = Flusher(files: flushFiles, folder: flushFolder)
    }

    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        var files: Set<String> = []
        var folders: Set<String> = []
        /// Folders this process made: each one's parent received an entry.
        var made: Set<String> = []
        var flushers: [String: Flusher] = [:]

        func withLock<Result>(_ body: (State) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(self)
        }
    }

    private static let state = State()

    /// Records the file at `path`, renamed into place without a flush, and its folder.
    public static func placed(_ path: String) {
        let file = OutputLedger.absolute(path)
        let folder = parent(of: file)
        state.withLock { state in
            state.files.insert(file)
            state.folders.insert(folder)
        }
    }

    /// Makes `folder` and any missing folder above it, recording the folder each new one was made
    /// in (its entry there is a write of this process too); false when it is not a folder after.
    @discardableResult
    public static func makeFolders(_ folder: String) -> Bool {
        guard !folder.isEmpty else { return true }
        if mkdir(folder, 0o777) == 0 {
            madeFolder(folder)
            return true
        }
        switch errno {
        case EEXIST:
            var info = stat()
            return stat(folder, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
        case ENOENT:
            guard let slash = folder.lastIndex(of: "/"), slash != folder.startIndex,
                  makeFolders(String(folder[..<slash])) else { return false }
            if mkdir(folder, 0o777) == 0 {
                madeFolder(folder)
                return true
            }
            return errno == EEXIST
        default:
            return false
        }
    }

    private static func madeFolder(_ folder: String) {
        let made = OutputLedger.absolute(folder)
        state.withLock { _ = $0.made.insert(made) }
    }

    /// Flushes what this process wrote under `root` (and the folders above it that it made) and
    /// forgets it: every file, then every folder once, children before parents, so a folder's
    /// entry is durable only after what it names. True when there was nothing or all of it flushed.
    @discardableResult
    public static func flush(under root: String) -> Bool {
        let top = OutputLedger.absolute(root)
        let (files, folders, flusher) = state.withLock { state in
            let files = state.files.filter { within(top, $0) }
            var folders = state.folders.filter { within(top, $0) }
            // A folder made under `root`, or `root` itself or a folder above it when this
            // process made them: the entry is in the folder above.
            let made = state.made.filter { within(top, $0) || within($0, top) }
            state.files.subtract(files)
            state.folders.subtract(folders)
            state.made.subtract(made)
            folders.formUnion(made.map(parent(of:)))
            return (files.sorted(), folders, state.flushers[top] ?? .system)
        }
        guard !files.isEmpty || !folders.isEmpty else { return true }
        var flushed = files.isEmpty || flusher.files(files)
        // Deepest first: a folder is flushed after every folder it holds that needed one.
        for folder in folders.sorted(by: { depth($0) > depth($1) || depth($0) == depth($1) && $0 < $1 }) {
            flushed = flusher.folder(folder) && flushed
        }
        #if canImport(Darwin)
        // Darwin's fsync leaves the bytes in the drive's cache; one F_FULLFSYNC empties it for all.
        flushed = fullFlush(top) && flushed
        #endif
        return flushed
    }

    /// Puts `flusher` in place of the system's for flushes under `root` (nil: the system's again).
    public static func use(_ flusher: Flusher?, under root: String) {
        let top = OutputLedger.absolute(root)
        state.withLock { $0.flushers[top] = flusher }
    }

    /// Whether the not-yet-flushed record holds `path` (a file or a folder); for tests.
    public static func pending(_ path: String) -> Bool {
        let absolute = OutputLedger.absolute(path)
        return state.withLock { $0.files.contains(absolute) || $0.folders.contains(absolute) || $0.made.contains(absolute) }
    }

    /// Threads for the files' `fsync`s: each mostly waits for the disk, and waiting together lets
    /// the file system's journal commit many at once (3,000 files on ext4: 24 s one by one, 10 s
    /// on 8 threads, 1.0 s on 32 after `sync_file_range`, 1.4 s on 64).
    static let flushThreads = 32

    /// Makes the files durable. On ext4, by writing their data back (`sync_file_range`, no cache
    /// flush) and then committing ext4's one journal (`commitJournal`), which holds every inode
    /// change of the file system so far (these files' sizes and blocks, the renames) and is written
    /// behind a cache flush of the disk, so the data written before it is durable too. An `fsync`
    /// per file did that commit and then flushed the disk's cache once per file (2,400 files of a
    /// 600-master build on a loop device: 1.5 s, against 0.04 s for the `syncfs` this replaced).
    /// Elsewhere, an `fsync` per file on `flushThreads` threads after their write-back started.
    private static func flushFiles(_ files: [String]) -> Bool {
        #if os(Linux)
        for file in files { writeBack(file, flags: startWriteBack) }
        if let first = files.first, onExt4(first) {
            var written = true
            for file in files where !writeBack(file, flags: writeBackAndWait) { written = false }
            // A folder whose times this user may not set (another's) cannot force the commit:
            // then the files are flushed one by one below.
            if written, files.contains(where: { commitJournal(parent(of: $0)) }) { return true }
        }
        #endif
        let next = Counter()
        let failed = Counter()
        let group = DispatchGroup()
        // Threads of their own: Dispatch's pool keeps to the cores, and these block in the kernel.
        for _ in 0..<min(flushThreads, files.count) {
            group.enter()
            Thread {
                while true {
                    let index = next.increment()
                    guard index < files.count else { break }
                    if !flushOne(files[index], folder: false) { _ = failed.increment() }
                }
                group.leave()
            }.start()
        }
        group.wait()
        return failed.increment() == 0
    }

    #if os(Linux)
    /// `sync_file_range` over the whole file; true when it is gone (nothing to write) or written.
    @discardableResult
    private static func writeBack(_ file: String, flags: UInt32) -> Bool {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        return syncFileRange(descriptor, 0, 0, flags) == 0
    }

    /// Commits ext4's journal as it is now, waiting for it: `fsync` of a folder whose inode was
    /// changed just before (its times set to what they are, which moves its change time), so the
    /// transaction that `fsync` commits is the running one, and ext4 commits transactions in
    /// order. (An unchanged folder's `fsync` commits only up to its own last change.)
    private static func commitJournal(_ folder: String) -> Bool {
        let descriptor = open(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        var times = [info.st_atim, info.st_mtim]
        return futimens(descriptor, &times) == 0 && fsync(descriptor) == 0
    }

    private static func onExt4(_ file: String) -> Bool {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
        defer { buffer.deallocate() }
        return fileSystemStatus(parent(of: file), buffer) == 0 && buffer.load(as: Int.self) == ext4Magic
    }
    #endif

    private static func flushFolder(_ folder: String) -> Bool {
        flushOne(folder, folder: true)
    }

    /// `fsync` of one path; a file gone since (an output removed by a later stage) needs none.
    private static func flushOne(_ path: String, folder: Bool) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | (folder ? O_DIRECTORY : 0))
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        return fsync(descriptor) == 0
    }

    #if canImport(Darwin)
    private static func fullFlush(_ root: String) -> Bool {
        let descriptor = open(root, O_RDONLY)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        return fcntl(descriptor, F_FULLFSYNC) == 0
    }
    #endif

    /// A shared count, returning the value before each increment.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0

        func increment() -> Int {
            lock.lock()
            defer { lock.unlock() }
            value += 1
            return value - 1
        }
    }

    private static func within(_ root: String, _ path: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func depth(_ path: String) -> Int {
        path.utf8.reduce(0) { $1 == UInt8(ascii: "/") ? $0 + 1 : $0 }
    }
}
