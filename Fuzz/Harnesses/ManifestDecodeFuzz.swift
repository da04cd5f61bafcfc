import Delivery
import Foundation

/// libFuzzer entry point for `Manifest.decode`, the reader the build, the server and apps share:
/// any bytes decode or are refused with an error, never a crash; what decodes keeps every rule
/// (`violation()` is nil) and reads back equal after being written again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifestDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: size)) } ?? Data()
    guard let manifest = try? Manifest.decode(bytes, source: "fuzz.json") else { return 0 }
    if let violation = manifest.violation() { fatalError("decoded a manifest that breaks a rule: \(violation)") }
    guard let again = try? Manifest.decode(try! JSONEncoder().encode(manifest), source: "again.json") else {
        fatalError("a decoded manifest, written again, is refused")
    }
    if again != manifest { fatalError("a decoded manifest reads back different") }
    return 0
}
