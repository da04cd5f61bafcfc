/// Reads the one thing Tessera needs from an ICC profile: its description, to tell sRGB from
/// Display P3. The decoders and the vector rasteriser both read profiles through it, so a PNG and a
/// PDF carrying the same profile are reported alike.
public enum ICCProfile {
    /// The colour space a profile describes, by its `desc` tag.
    public static func colorSpace(of profile: [UInt8]) -> ColorSpace {
        guard let description = description(of: profile) else { return .icc(description: "unnamed ICC profile") }
        let lowered = description.lowercased()
        if lowered.contains("display p3") || lowered.contains("p3 d65") { return .displayP3 }
        if lowered.contains("srgb") { return .sRGB }
        return .icc(description: description)
    }

    /// The profile description: a v2 `desc` (ASCII) or v4 `mluc` (UTF-16BE, first record) tag.
    public static func description(of profile: [UInt8]) -> String? {
        guard profile.count >= 132 else { return nil }
        let tagCount = Int(readUInt32(profile, 128))
        guard tagCount < 1000, profile.count >= 132 + tagCount * 12 else { return nil }
        for index in 0..<tagCount {
            let entry = 132 + index * 12
            guard profile[entry..<entry + 4].elementsEqual("desc".utf8) else { continue }
            let offset = Int(readUInt32(profile, entry + 4))
            let size = Int(readUInt32(profile, entry + 8))
            guard offset >= 0, size >= 12, offset <= profile.count - size else { return nil }
            let tag = Array(profile[offset..<offset + size])
            if tag.starts(with: Array("desc".utf8)) {
                let length = Int(readUInt32(tag, 8))
                guard length > 0, 12 + length <= tag.count else { return nil }
                let text = tag[12..<12 + length].prefix { $0 != 0 }
                return String(decoding: text, as: UTF8.self)
            }
            if tag.starts(with: Array("mluc".utf8)), tag.count >= 28 {
                let recordLength = Int(readUInt32(tag, 20))
                let recordOffset = Int(readUInt32(tag, 24))
                guard recordOffset + recordLength <= tag.count else { return nil }
                var units: [UInt16] = []
                var cursor = recordOffset
                while cursor + 1 < recordOffset + recordLength {
                    units.append(UInt16(tag[cursor]) << 8 | UInt16(tag[cursor + 1]))
                    cursor += 2
                }
                return String(decoding: units, as: UTF16.self)
            }
            return nil
        }
        return nil
    }

    private static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }
}
