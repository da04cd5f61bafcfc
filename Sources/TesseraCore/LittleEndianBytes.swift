/// Fixed-width little-endian fields, for the binary formats Tessera writes (ready bitmaps, bundles).
extension Array where Element == UInt8 {
    public mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    /// Reads a `T` at `offset`; the caller has checked the bounds.
    public func readLittleEndian<T: FixedWidthInteger>(_ type: T.Type, at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size { value |= T(self[offset + index]) << (8 * index) }
        return value
    }
}
