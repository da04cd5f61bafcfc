import TesseraCore

/// The colour space an embedded ICC profile describes, told by its description tag: the same
/// rule as the decoders' (which this stage module cannot import), so a PDF and a PNG carrying
/// the same profile are reported alike.
enum ICCDescription {
    static func colorSpace(of profile: [UInt8]) -> ColorSpace {
        guard let description = description(of: profile) else { return .icc(description: "unnamed ICC profile") }
        let lowered = description.lowercased()
        if lowered.contains("display p3") || lowered.contains("p3 d65") { return .displayP3 }
        if lowered.contains("srgb") { return .sRGB }
        return .icc(description: description)
    }

    /// A v2 `desc` (ASCII) or v4 `mluc` (UTF-16BE, first record) description.
    static func description(of profile: [UInt8]) -> String? {
        guard profile.count >= 132 else { return nil }
        let tagCount = Int(uint32(profile, 128))
        guard tagCount < 1000, profile.count >= 132 + tagCount * 12 else { return nil }
        for index in 0 ..< tagCount {
            let entry = 132 + index * 12
            guard profile[entry ..< entry + 4].elementsEqual("desc".utf8) else { continue }
            let offset = Int(uint32(profile, entry + 4)), size = Int(uint32(profile, entry + 8))
            guard size >= 12, offset <= profile.count - size else { return nil }
            let tag = Array(profile[offset ..< offset + size])
            if tag.starts(with: Array("desc".utf8)) {
                let length = Int(uint32(tag, 8))
                guard length > 0, 12 + length <= tag.count else { return nil }
                return String(decoding: tag[12 ..< 12 + length].prefix { $0 != 0 }, as: UTF8.self)
            }
            if tag.starts(with: Array("mluc".utf8)), tag.count >= 28 {
                let length = Int(uint32(tag, 20)), start = Int(uint32(tag, 24))
                guard start <= tag.count, length <= tag.count - start else { return nil }
                var units: [UInt16] = []
                var cursor = start
                while cursor + 1 < start + length {
                    units.append(UInt16(tag[cursor]) << 8 | UInt16(tag[cursor + 1]))
                    cursor += 2
                }
                return String(decoding: units, as: UTF16.self)
            }
            return nil
        }
        return nil
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        guard offset + 4 <= bytes.count else { return 0 }
        return bytes[offset ..< offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
