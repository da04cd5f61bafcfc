import Testing
import TesseraCore

/// Bundle readers, bundle and bitmap writers and the PNG codecs all check with `CRC32`, so its
/// values are pinned here against the standard ones, not against another implementation.
@Suite("CRC-32")
struct CRC32Tests {
    @Test("the standard check values, and a CRC continued piece by piece equals the whole one")
    func checkValues() {
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        var continued: UInt32 = 0
        for start in stride(from: 0, to: bytes.count, by: 4099) {
            continued = CRC32.checksum(bytes[start..<min(start + 4099, bytes.count)], continuing: continued)
        }
        #expect(continued == CRC32.checksum(bytes))
    }
}
