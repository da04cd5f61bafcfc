/// A short list kept without an allocation of its own when it holds no element or one: what a
/// planned job holds its dependencies, files read and cached files in. Most jobs of a build of
/// tiny masters name exactly one of each, and as arrays each was an allocation of its own
/// (about 64 bytes with the allocator's overhead) for each of 700,000 jobs, the dependencies
/// among them kept to the run's end (issue 54, item 14). Read back as an array.
struct CompactList<Element: Sendable>: Sendable {
    private enum Storage: Sendable {
        case none
        case one(Element)
        case many([Element])
    }

    private let storage: Storage

    init(_ elements: [Element]) {
        switch elements.count {
        case 0: storage = .none
        case 1: storage = .one(elements[0])
        default: storage = .many(elements)
        }
    }

    /// The elements, in the order given.
    var array: [Element] {
        switch storage {
        case .none: []
        case .one(let element): [element]
        case .many(let elements): elements
        }
    }

    /// Whether the list is held inline (no element or one), not in an array of its own.
    var isInline: Bool {
        if case .many = storage { return false }
        return true
    }
}
