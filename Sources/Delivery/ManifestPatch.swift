import TesseraCore

/// A patch that turns one manifest's exact bytes into another's (`patches/<from>-<to>.patch`,
/// `docs/updates.md`): copy/insert instructions, xz-compressed, after a fixed header naming both
/// manifests by SHA-256 and size.
///
/// ```
/// magic "TSMPATCH" | format u8 (1) | source sha256 (32) | source size u64 | target sha256 (32)
/// | target size u64 | instructions size u64 | xz stream of the instructions
/// instruction: insert length (varint) | inserted bytes | copy length (varint)
///              | copy offset (zig-zag varint, from where the previous copy ended)
/// ```
/// Integers little-endian; varints are LEB128. Instructions follow one another until the target's
/// size is reached. The format is Tessera's own because the applier must live here, in pure Swift
/// on both client platforms (xz aside, which both decode already): bsdiff's needs bzip2 and a
/// suffix-sorting differ's memory, zstd's `--patch-from` a vendored C decoder, while a manifest
/// change is a few edits among long unchanged runs, which copies and inserts say in a few hundred bytes.
///
/// The output is checked against the manifest the caller expects (the signed statement's SHA-256
/// and size) before anything parses it: a patch can only ever produce that exact manifest.
public enum ManifestPatch {
    public static let magic: [UInt8] = Array("TSMPATCH".utf8)
    public static let format: UInt8 = 1
    /// Magic, format, two references and the instructions' size.
    public static let headerSize = 8 + 1 + 40 + 40 + 8
    /// The file extension of patches in `patches/`.
    public static let fileExtension = "patch"

    /// What a patch says it turns into what.
    public struct Header: Sendable, Equatable {
        public var source: ManifestReference
        public var target: ManifestReference
        /// The decoded instructions' size.
        public var instructionsSize: Int

        public init(source: ManifestReference, target: ManifestReference, instructionsSize: Int) {
            self.source = source
            self.target = target
            self.instructionsSize = instructionsSize
        }

        package func encoded() -> [UInt8] {
            var bytes = ManifestPatch.magic
            bytes.append(ManifestPatch.format)
            for reference in [source, target] {
                bytes += reference.sha256.bytes
                bytes.appendLittleEndian(UInt64(reference.bytes))
            }
            bytes.appendLittleEndian(UInt64(instructionsSize))
            return bytes
        }

        /// Parses a header; nil when it is not one, or a size is over what a manifest may be.
        public static func decode(_ bytes: some Collection<UInt8>) -> Header? {
            let bytes = Array(bytes.prefix(ManifestPatch.headerSize))
            guard bytes.count == ManifestPatch.headerSize, bytes.starts(with: ManifestPatch.magic),
                  bytes[8] == ManifestPatch.format else { return nil }
            func reference(at offset: Int) -> ManifestReference? {
                let size = bytes.readLittleEndian(UInt64.self, at: offset + 32)
                guard size <= UInt64(ManifestLimits.maxBytes) else { return nil }
                return ManifestReference(sha256: ContentHash(bytes: Array(bytes[offset..<offset + 32])), bytes: Int(size))
            }
            let instructions = bytes.readLittleEndian(UInt64.self, at: 89)
            guard let source = reference(at: 9), let target = reference(at: 49),
                  instructions <= UInt64(ManifestPatch.maxInstructionsSize(target: target.bytes)) else { return nil }
            return Header(source: source, target: target, instructionsSize: Int(instructions))
        }
    }

    /// The longest instruction stream a patch to `target` bytes may have: every byte inserted,
    /// plus room for the lengths.
    static func maxInstructionsSize(target: Int) -> Int { target + target / 4 + 64 }

    /// The path of the patch from `source` to `target`, relative to the manifest's folder. Both
    /// hashes are in the name, so a patch never changes under its name (cache it as immutable).
    public static func path(from source: ContentHash, to target: ContentHash) -> String {
        "patches/\(source.hex)-\(target.hex).\(fileExtension)"
    }

    /// Applies `patch` to `source` (the manifest a device holds) and returns the bytes of
    /// `target`, the manifest the caller expects (the signed statement's, or the patch index's
    /// when unsigned). Refused, before any instruction runs, when the patch names another target
    /// or another source, or is not well formed; refused afterwards unless the output is exactly
    /// `target`'s size and SHA-256. Memory: the source, the output and the instructions, each
    /// bounded by the manifest limit.
    public static func apply(_ patch: [UInt8], to source: [UInt8], target: ManifestReference,
                             name: String = "patch") throws(TesseraError) -> [UInt8] {
        func refuse(_ reason: String) -> TesseraError {
            TesseraError(.invalidInput, file: name, origin: .manifest, reason: reason)
        }
        guard let header = Header.decode(patch) else { throw refuse("not a Tessera manifest patch (format \(format))") }
        guard header.target == target else {
            throw refuse("it makes manifest \(header.target.sha256.hex) (\(header.target.bytes) bytes), not the expected \(target.sha256.hex) (\(target.bytes) bytes)")
        }
        guard header.source == ManifestReference(of: source) else {
            throw refuse("it applies to manifest \(header.source.sha256.hex), not to the one held")
        }
        let instructions: [UInt8]
        do {
            instructions = try XZ.decompress(Array(patch[headerSize...]), expectedSize: header.instructionsSize,
                                             maxSize: maxInstructionsSize(target: target.bytes))
        } catch {
            throw refuse("its instructions do not decompress: \(error.reason)")
        }
        var output: [UInt8] = []
        output.reserveCapacity(target.bytes)
        var reader = VarintReader(bytes: instructions)
        var copyEnd = 0
        while output.count < target.bytes {
            guard let insert = reader.next(), insert <= target.bytes - output.count, let inserted = reader.take(insert) else {
                throw refuse("an insert runs past the instructions or the target")
            }
            output += inserted
            guard let length = reader.next(), let step = reader.nextSigned() else {
                throw refuse("the instructions end before the target is complete")
            }
            let (start, overflow) = copyEnd.addingReportingOverflow(step)
            guard !overflow, start >= 0, length <= source.count, start <= source.count - length,
                  length <= target.bytes - output.count else {
                throw refuse("a copy reaches outside the source or past the target")
            }
            output += source[start..<start + length]
            copyEnd = start + length
        }
        guard reader.isAtEnd else { throw refuse("instructions follow the complete target") }
        guard ContentHash.of(output) == target.sha256 else { throw refuse("its output's SHA-256 is not the expected manifest's") }
        return output
    }

    /// One step of a patch: bytes to insert, then a run to copy from the source.
    package struct Instruction: Equatable {
        package var insert: ArraySlice<UInt8>
        package var copyStart: Int
        package var copyLength: Int

        package init(insert: ArraySlice<UInt8>, copyStart: Int, copyLength: Int) {
            self.insert = insert
            self.copyStart = copyStart
            self.copyLength = copyLength
        }
    }

    /// The instruction stream of `instructions` (before compression).
    package static func encoded(_ instructions: [Instruction]) -> [UInt8] {
        var bytes: [UInt8] = []
        var copyEnd = 0
        for instruction in instructions {
            appendVarint(UInt64(instruction.insert.count), to: &bytes)
            bytes += instruction.insert
            appendVarint(UInt64(instruction.copyLength), to: &bytes)
            let step = instruction.copyStart - copyEnd
            appendVarint(UInt64(bitPattern: Int64((step << 1) ^ (step >> 63))), to: &bytes)
            copyEnd = instruction.copyStart + instruction.copyLength
        }
        return bytes
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// LEB128 varints read with every bound checked: a hostile patch can only be refused.
    private struct VarintReader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        /// The next varint, if it is complete and fits an `Int`.
        mutating func next() -> Int? { nextBits().flatMap { Int(exactly: $0) } }

        /// The next zig-zag varint.
        mutating func nextSigned() -> Int? {
            nextBits().map { Int(Int64(bitPattern: $0 >> 1) ^ -Int64(bitPattern: $0 & 1)) }
        }

        /// The next varint's 64 bits, if it is complete within ten bytes.
        private mutating func nextBits() -> UInt64? {
            var value: UInt64 = 0, shift: UInt64 = 0
            while offset < bytes.count, shift < 64 {
                let byte = bytes[offset]
                offset += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }

        /// The next `count` bytes, if there are that many.
        mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
            guard count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }
    }
}
