import Delivery
import TesseraCore

/// Makes a `ManifestPatch` from one manifest's bytes to another's: the build side of manifest
/// updates (the applier is in Delivery).
///
/// Greedy copy/insert matching: the source is indexed by a rolling hash of every `window`-byte
/// run starting at a multiple of `stride`; the target is scanned with the same rolling hash, and
/// each hit is checked byte for byte and grown both ways. First the run that continues the last
/// copy is tried, as consecutive edits of a sorted JSON file leave the source and target
/// aligned between them. Deterministic: the same two manifests always give the same patch.
public enum ManifestDiffer {
    /// Matches shorter than `window + stride - 1` bytes may be missed; a SHA-256 in hex is 64.
    static let window = 32
    static let stride = 8

    /// The patch from `source` to `target`, its instructions compressed with xz at `level`.
    public static func patch(from source: [UInt8], to target: [UInt8], level: UInt32 = 9) throws(TesseraError) -> [UInt8] {
        let instructions = ManifestPatch.encoded(self.instructions(from: source, to: target))
        let header = ManifestPatch.Header(source: ManifestReference(of: source), target: ManifestReference(of: target),
                                          instructionsSize: instructions.count)
        return header.encoded() + (try XZ.compress(instructions, level: level))
    }

    /// The copy/insert steps that make `target` from `source`.
    static func instructions(from source: [UInt8], to target: [UInt8]) -> [ManifestPatch.Instruction] {
        var steps: [ManifestPatch.Instruction] = []
        var pending = 0  // where the target bytes no copy covers yet start
        var position = 0
        var lastCopyEnd = 0
        let index = SourceIndex(source)
        var hash: RollingHash?  // of target[position..<position + window], while sliding
        while position + window <= target.count {
            // The run that continues the previous copy first: the usual case after a changed value.
            var match = grow(source: source, at: lastCopyEnd, target: target, at: position, pending: pending)
            if (match?.length ?? 0) < window {
                let current = hash ?? RollingHash(target[position..<position + window])
                hash = current
                match = index.start(for: current.value).flatMap {
                    grow(source: source, at: $0, target: target, at: position, pending: pending)
                }
            }
            guard let found = match, found.length >= window else {
                if position + window < target.count {
                    hash?.roll(out: target[position], in: target[position + window])
                }
                position += 1
                continue
            }
            steps.append(ManifestPatch.Instruction(insert: target[pending..<found.targetStart], copyStart: found.sourceStart,
                                                   copyLength: found.length))
            pending = found.targetStart + found.length
            position = pending
            lastCopyEnd = found.sourceStart + found.length
            hash = nil
        }
        if pending < target.count {
            steps.append(ManifestPatch.Instruction(insert: target[pending...], copyStart: lastCopyEnd, copyLength: 0))
        }
        return steps
    }

    /// The match of `target[position...]` against `source[candidate...]`, grown backwards into
    /// the pending bytes and forwards as far as the bytes agree; nil when the bytes at the two
    /// positions differ.
    private static func grow(source: [UInt8], at candidate: Int, target: [UInt8], at position: Int,
                             pending: Int) -> (sourceStart: Int, targetStart: Int, length: Int)? {
        guard candidate < source.count, source[candidate] == target[position] else { return nil }
        var forward = 0
        while candidate + forward < source.count, position + forward < target.count,
              source[candidate + forward] == target[position + forward] { forward += 1 }
        var back = 0
        while position - back > pending, candidate - back > 0, source[candidate - back - 1] == target[position - back - 1] {
            back += 1
        }
        return (candidate - back, position - back, forward + back)
    }

    /// Source offsets by the rolling hash of the `window` bytes starting there, every `stride`
    /// bytes; the first offset wins, so the index is the same every run.
    private struct SourceIndex {
        private var starts: [UInt64: Int] = [:]

        init(_ source: [UInt8]) {
            guard source.count >= window else { return }
            starts.reserveCapacity(source.count / stride + 1)
            var offset = 0
            while offset + window <= source.count {
                let value = RollingHash(source[offset..<offset + window]).value
                if starts[value] == nil { starts[value] = offset }
                offset += stride
            }
        }

        func start(for value: UInt64) -> Int? { starts[value] }
    }

    /// A polynomial hash of a `window`-byte run, rolled one byte at a time.
    private struct RollingHash {
        static let base: UInt64 = 1_099_511_628_211
        /// base^(window - 1), for taking the outgoing byte off.
        static let outgoingFactor: UInt64 = {
            var factor: UInt64 = 1
            for _ in 1..<window { factor = factor &* base }
            return factor
        }()

        private(set) var value: UInt64 = 0

        init() {}

        init(_ run: ArraySlice<UInt8>) {
            for byte in run { value = value &* Self.base &+ UInt64(byte) }
        }

        mutating func roll(out: UInt8, in incoming: UInt8) {
            value = (value &- UInt64(out) &* Self.outgoingFactor) &* Self.base &+ UInt64(incoming)
        }
    }
}
