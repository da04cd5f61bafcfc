#if canImport(Glibc)
import Glibc
#endif
import Decoding
import Delivery
import JobEngine
import Manifests
import Slicing
import TesseraCore

/// A provided variant → a byte-for-byte copy, once a full pass over it has shown it is a valid image.
struct CopyStage: Stage {
    struct Input: Encodable, Sendable {
        /// The pass over the file that showed it valid: a decode, or the downscale made from it.
        let check: Upstream<MasterFacts>
        let source: SourceFacts
        let listing: VariantListing
    }
    typealias Output = WrittenVariant
    static let kind = JobKind.copy
    static let version = 1
    static let priority = StagePriority.write
    let outputFolder: String

    func job(check: Upstream<MasterFacts>, source: SourceFacts, variant: PlannedVariant) -> Job<WrittenVariant> {
        job(Input(check: check, source: source, listing: VariantListing(variant)))
    }

    func subject(of input: Input) -> String { jobSubject(of: input).text }
    func jobSubject(of input: Input) -> JobSubject { JobSubject(input.listing.path, under: outputFolder) }
    func memoryCost(of input: Input) -> JobMemory { JobMemory(running: min(input.source.fileSize, SourceCopy.chunk)) }
    func cacheRoot(for input: Input) -> String? { outputFolder }
    func cachedFiles(for input: Input) -> [String]? { [input.listing.path] }

    func run(_ input: Input, context: JobContext) throws -> WrittenVariant {
        let master = try input.check.value(in: context)
        let (copy, hash) = try SourceCopy.copy(input.source, to: subject(of: input), stage: ProblemOrigin(Self.kind), context: context)
        return input.listing.written(format: master.info.format, width: master.width, height: master.height,
                                     bytes: copy, sha256: hash, generated: false,
                                     warnings: master.warnings.map { StageNote(.decode, $0) })
    }
}

/// Copies a source's bytes, refusing a file that changed since planning: the manifest must
/// describe what was copied.
enum SourceCopy {
    /// A megabyte at a time, hashed as it goes: a copy holds one chunk, never the file (a 3x
    /// master is 15 MB, and copies run beside the downscales and encodes).
    static let chunk = 1 << 20

    /// The bytes copied and their SHA-256.
    static func copy(_ source: SourceFacts, to target: String, stage: ProblemOrigin,
                     context: JobContext) throws(TesseraError) -> (count: Int, sha256: ContentHash) {
        let descriptor = open(source.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw TesseraError(.io, file: source.path, origin: stage, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let writer = try AtomicFileWriter(path: target)
        // No larger than the file (at least a page): 100,000 tiny masters each mapped and
        // unmapped a megabyte (issue 54, item 14).
        var status = stat()
        let size = fstat(descriptor, &status) == 0 ? Int(status.st_size) : chunk
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(4096, min(chunk, size)), alignment: 16)
        defer { buffer.deallocate() }
        var hasher = ContentHasher()
        var count = 0
        while true {
            let read = Glibc.read(descriptor, buffer.baseAddress!, buffer.count)
            if read < 0 && errno == EINTR { continue }
            guard read >= 0 else {
                throw TesseraError(.io, file: source.path, origin: stage, reason: "read failed after \(count) bytes")
            }
            if read == 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<read])
            hasher.update(bytes)
            try writer.append(bytes)
            count += read
        }
        let hash = hasher.finalize()
        guard hash == source.contentHash else {
            // The writer, dropped uncommitted, deletes its temporary file.
            throw TesseraError(.io, file: source.path, origin: stage, reason: "the file changed during the run")
        }
        try context.checkCancellation()
        try writer.commit(flushing: false)
        return (count, hash)
    }
}
