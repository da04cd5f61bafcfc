import Foundation

/// Ed25519 public keys no signer should ever hold: the points of small order (order 1, 2, 4 or 8)
/// and encodings of a y coordinate at or above the field's prime. Verification on Linux is
/// cofactorless: with a small-order key, the signature (R = a small-order point, S = 0) checks for
/// one message in eight, so whoever delegated such a key could sign any manifest with no private
/// key at all. libsodium's `ge25519_has_small_order` refuses the same list.
enum WeakEd25519Keys {
    /// The small-order points' canonical encodings, sign bit cleared (each stands for its negation
    /// too): 0 (order 4), 1 (order 1), the two of order 8, and −1 (order 2).
    private static let smallOrder: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        [0x26, 0xe8, 0x95, 0x8f, 0xc2, 0xb2, 0x27, 0xb0, 0x45, 0xc3, 0xf4, 0x89, 0xf2, 0xef, 0x98, 0xf0,
         0xd5, 0xdf, 0xac, 0x05, 0xd3, 0xc6, 0x33, 0x39, 0xb1, 0x38, 0x02, 0x88, 0x6d, 0x53, 0xfc, 0x05],
        [0xc7, 0x17, 0x6a, 0x70, 0x3d, 0x4d, 0xd8, 0x4f, 0xba, 0x3c, 0x0b, 0x76, 0x0d, 0x10, 0x67, 0x0f,
         0x2a, 0x20, 0x53, 0xfa, 0x2c, 0x39, 0xcc, 0xc6, 0x4e, 0xc7, 0xfd, 0x77, 0x92, 0xac, 0x03, 0x7a],
        [0xec] + [UInt8](repeating: 0xff, count: 30) + [0x7f],
    ]

    /// Why `key` (32 raw bytes) is weak, or nil.
    static func weakness(of key: Data) -> String? {
        let bytes = [UInt8](key)
        guard bytes.count == 32 else { return nil }
        var y = bytes
        y[31] &= 0x7f
        if smallOrder.contains(y) { return "a point of small order, which verifies forged signatures" }
        // y ≥ p = 2^255 − 19: bytes 1–30 all 0xff, the top byte 0x7f, the lowest at least 0xed.
        if y[31] == 0x7f, y[1...30].allSatisfy({ $0 == 0xff }), y[0] >= 0xed {
            return "not a canonical encoding (its y coordinate is not below the field's prime)"
        }
        return nil
    }
}
