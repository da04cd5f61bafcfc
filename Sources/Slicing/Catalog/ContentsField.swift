/// One value of a Contents.json with the file and the key it was read from (`images[2].scale`),
/// so that every problem found in it names both.
///
/// The values are JSONSerialization's, read with its casts: that is how Xcode-written files have
/// always been read here, and `1` reading as `true` (as Foundation bridges it) is part of that.
struct ContentsField {
    /// The Contents.json, relative to the input folder.
    let file: String
    /// Dotted from the top (`properties.scales`, `images[0].idiom`); empty for the top itself.
    let key: String
    /// nil when the key is absent (JSON `null` is present: `NSNull`).
    let value: Any?
    /// `value` as an object, cast once: entries are looked into key by key.
    let object: [String: Any]?

    init(file: String, key: String, value: Any?) {
        self.file = file
        self.key = key
        self.value = value
        object = value as? [String: Any]
    }

    /// The member `name` of this object (absent when this is not an object).
    subscript(name: String) -> ContentsField {
        ContentsField(file: file, key: key.isEmpty ? name : "\(key).\(name)", value: object?[name])
    }

    /// The items of a list of objects, each keyed `key[index]`; nil when this is not one.
    var objects: [ContentsField]? {
        (value as? [[String: Any]])?.enumerated().map {
            ContentsField(file: file, key: "\(key)[\($0.offset)]", value: $0.element)
        }
    }

    /// A problem at this key (the top level names no key).
    func problem(_ reason: String, isError: Bool = true) -> CatalogProblem {
        CatalogProblem(isError: isError, file: file, key: key.isEmpty ? nil : key, reason: reason)
    }

    /// A warning for every member whose name is not `known`, in name order.
    func unknownKeys(known: (String) -> Bool) -> [CatalogProblem] {
        (object?.keys.sorted() ?? []).filter { !known($0) }.map { self[$0].problem("unknown key", isError: false) }
    }
}
