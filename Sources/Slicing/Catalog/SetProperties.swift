/// A set's `properties`, typed: its tags and how it is drawn.
struct SetProperties {
    /// Keys Xcode writes; the ones Tessera does not act on (`localizable`, `auto-scaling`...) are
    /// accepted quietly.
    static let knownKeys: Set<String> = [
        "on-demand-resource-tags", "preserves-vector-representation", "template-rendering-intent",
        "compression-type", "localizable", "provides-namespace", "auto-scaling", "symbol-rendering-intent", "scales",
        "generate-swift-asset-symbol-extensions",
    ]
    static let renderingIntents: Set<String> = ["template", "original"]

    /// `scales`: one file for every scale, or one per scale.
    enum Scales: String {
        case single, individual
    }

    /// Valid tags, sorted; the set's group tags are added by the reader.
    var onDemandTags: [String] = []
    var preservesVectorRepresentation = false
    /// `template` or `original`; nil when unset.
    var templateRenderingIntent: String?
    var scales: Scales?

    /// The set says it is drawn at any scale: `scales: single`, or its vectors are kept.
    var declaresSingleScale: Bool { preservesVectorRepresentation || scales == .single }

    /// Reads `properties` (absent: all defaults). A value of the wrong type is an error and
    /// leaves its default.
    init(_ properties: ContentsField, problems: inout [CatalogProblem]) {
        if properties.value != nil, properties.object == nil { problems.append(properties.problem("expected an object")) }
        problems += properties.unknownKeys(known: Self.knownKeys.contains)
        onDemandTags = Self.onDemandTags(properties, problems: &problems)
        let vector = properties["preserves-vector-representation"]
        if let raw = vector.value {
            if let value = raw as? Bool { preservesVectorRepresentation = value } else {
                problems.append(vector.problem("expected true or false"))
            }
        }
        templateRenderingIntent = Self.renderingIntent(properties["template-rendering-intent"], problems: &problems)
        let scalesField = properties["scales"]
        if let raw = scalesField.value {
            if let value = (raw as? String).flatMap(Scales.init(rawValue:)) { scales = value } else {
                problems.append(scalesField.problem("expected \"single\" or \"individual\""))
            }
        }
    }

    /// A `template-rendering-intent` (a set's, or an entry's own); nil, with an error, when it is
    /// neither `template` nor `original`.
    static func renderingIntent(_ field: ContentsField, problems: inout [CatalogProblem]) -> String? {
        guard let raw = field.value else { return nil }
        guard let value = raw as? String, renderingIntents.contains(value) else {
            problems.append(field.problem("expected \"template\" or \"original\""))
            return nil
        }
        return value
    }

    /// `on-demand-resource-tags` of a set's or a group's `properties`, sorted and unique: an
    /// invalid tag is an error and is left out.
    static func onDemandTags(_ properties: ContentsField, problems: inout [CatalogProblem]) -> [String] {
        let field = properties["on-demand-resource-tags"]
        guard let raw = field.value else { return [] }
        guard let list = raw as? [String] else {
            problems.append(field.problem("expected a list of strings"))
            return []
        }
        var tags: [String] = []
        for tag in list {
            if let problem = OnDemandTag.problem(with: tag) {
                problems.append(field.problem(problem))
            } else {
                tags.append(tag)
            }
        }
        return Array(Set(tags)).sorted()
    }
}
