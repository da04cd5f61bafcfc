import Delivery
import Foundation
import TesseraCore

extension SignedEnvelope {
    /// An envelope holding `document`, signed by each of `keys`.
    public static func signing<Document: TrustDocument>(_ document: Document, with keys: [KeyFile]) throws(TesseraError) -> SignedEnvelope {
        var envelope = SignedEnvelope(payloadType: Document.payloadType, payload: try document.payload())
        let message = envelope.preAuthenticationEncoding
        for key in keys {
            envelope.signatures.append(Signature(keyid: key.keyid, sig: try key.signature(over: message)))
        }
        return envelope
    }
}
