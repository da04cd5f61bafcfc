import Foundation
import TesseraCore

/// A document carried in a `SignedEnvelope`: root, signing keys, or a manifest statement.
/// Each has its own payload type, so an envelope opens only as the role it was signed for.
public protocol TrustDocument: Sendable, Codable, Equatable {
    static var payloadType: String { get }
    /// Why the document cannot be used even if its signatures are good, or nil.
    var violation: String? { get }
}

extension TrustDocument {
    /// Decodes the envelope's payload as this document; `source` names where it came from in errors.
    /// Signatures are not checked here (the caller knows which keys must have signed).
    public static func open(_ envelope: SignedEnvelope, source: String) throws(TesseraError) -> Self {
        guard envelope.payloadType == payloadType else {
            throw TesseraError(.untrusted, file: source, origin: .client,
                               reason: "a \(envelope.payloadType) document where a \(payloadType) one belongs")
        }
        let document = try StableJSON.decode(Self.self, from: Array(envelope.payload), source: source)
        if let violation = document.violation {
            throw TesseraError(.untrusted, file: source, origin: .client, reason: violation)
        }
        return document
    }

    /// The document's bytes as they are signed: sorted keys, no spaces.
    public func payload() throws(TesseraError) -> Data {
        Data(try StableJSON.compact(self))
    }
}
