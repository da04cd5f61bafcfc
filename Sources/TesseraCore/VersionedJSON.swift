/// `{"version": 1, …payload's keys}` or `{"version": 1, "<key>": payload}`: the one shape of every
/// JSON result the command line prints (`--json`) and of the server's query answers, so a reader
/// can check the version before anything else, and a list sits under a key, never bare.
public struct VersionedJSON<Payload: Encodable>: Encodable {
    let payload: Payload
    let key: String?

    public init(_ payload: Payload, under key: String? = nil) {
        self.payload = payload
        self.key = key
    }

    private struct Key: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(1, forKey: Key("version"))
        if let key {
            try container.encode(payload, forKey: Key(key))
        } else {
            // The payload writes its own keys into the same object.
            try payload.encode(to: encoder)
        }
    }
}
