import TesseraCore

/// `BundleQuery` for the device a client names, which may be one the build made no class for:
/// then the answer is for the nearest built class (`KnownDevices.nearest`) and says so in `note`.
/// `tessera query`, `tessera serve` and `TesseraClient` all answer through here, so they answer alike.
public enum DeviceQuery {
    public static func answer(_ manifest: Manifest, device given: String, tags: [String],
                              installed: [String] = []) throws(TesseraError) -> BundleQuery.Answer {
        // `iPhone 15 Pro` and `iphone16,1` name iPhone16,1; a build's own Android classes and
        // spec ids are taken as written.
        let id = manifest.bundles.contains { $0.device == given } ? given : KnownDevices.canonicalIdentifier(given) ?? given
        var target = id, note: String?
        if !manifest.bundles.contains(where: { $0.device == id }),
           let match = KnownDevices.nearest(to: id, among: manifest.deviceClasses), !match.isExact {
            target = match.device.id
            note = match.note ?? "using \(target)"
        }
        var answer = try BundleQuery.answer(manifest, device: target, tags: tags, installed: installed)
        answer.note = note
        return answer
    }

    /// `a,b`, `a b` and the two values `a` and `b` all mean the tags a and b.
    public static func tagList(_ values: [String]) -> [String] {
        values.flatMap { $0.split { $0 == "," || $0.isWhitespace } }.map(String.init)
    }
}
