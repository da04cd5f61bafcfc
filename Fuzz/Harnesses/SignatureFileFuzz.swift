import Delivery
import Foundation

/// libFuzzer entry point for the signature file reader (`manifest.json.sig`, a root file): the
/// bytes an app and `tessera query --trusted-root` fetch from any host. Any input is refused with
/// an error or checked, never a crash, a hang or a huge allocation. The first two bytes say how
/// many of the rest are the manifest; the others are the sidecar, and also read as a root file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSignatureFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard bytes.count >= 2 else { return 0 }
    let split = min(Int(bytes[0]) << 8 | Int(bytes[1]), bytes.count - 2)
    let manifest = Data(bytes[2..<2 + split]), sidecar = Array(bytes[(2 + split)...])
    _ = try? verifier.verify(manifest: manifest, sidecar: sidecar, state: TrustState(), now: now, source: "fuzz.json")
    _ = try? verifier.verify(manifest: manifest, sidecar: sidecar, state: TrustState(), now: nil, source: "fuzz.json")
    _ = try? TrustedRoot(json: Data(sidecar), source: "root.json")
    return 0
}

/// The root the seed in Fuzz/seeds/signature was signed under (`tessera keys root-init`), so that
/// mutations of a genuine sidecar reach every check past the root's; at a time the seed is valid.
private let verifier = TrustVerifier(pinned: try! TrustedRoot(json: Data(#"{"payload":"eyJrZXlzIjpbeyJrZXlpZCI6IjM5Y2NjZDdmYjNjZDgzNmFlNjUwOTkyNzhlMTU4MWJiIiwicHVibGljIjoia1Bsc3ZSZEVsOHN3aFAycFh2QWozbjVaUlduTzlFek9ZOGZvdkU3dlcyRT0ifV0sInRocmVzaG9sZCI6MSwidmVyc2lvbiI6MX0=","payloadType":"application/vnd.tessera.root+json","signatures":[{"keyid":"39cccd7fb3cd836ae65099278e1581bb","sig":"6coVkwq8784cuunIWkMZkX3c85X+FGygZ9Zyh4lRDmlz5z/mrp5KYs1BTXpHPhABsZpNmRJpRoN10W3oCcgfBg=="}]}"#.utf8), source: "root.json"), channel: "main")
private let now = Date(timeIntervalSince1970: 1_795_910_400)
