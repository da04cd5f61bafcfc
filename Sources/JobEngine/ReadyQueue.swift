/// Ready jobs ordered by priority (highest first), then by a tie-break rank (lowest first).
///
/// A binary heap; `popFirst(where:)` lets the scheduler skip jobs that do not fit in the memory
/// budget right now without losing them.
struct ReadyQueue {
    struct Entry {
        let key: JobKey
        let priority: Int
        let rank: UInt64
    }

    private var heap: [Entry] = []

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.priority != b.priority ? a.priority > b.priority : a.rank < b.rank
    }

    mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var best = parent
            if left < heap.count, Self.precedes(heap[left], heap[best]) { best = left }
            if right < heap.count, Self.precedes(heap[right], heap[best]) { best = right }
            if best == parent { break }
            heap.swapAt(parent, best)
            parent = best
        }
        return top
    }

    /// Removes and returns the first entry, in queue order, that satisfies `fits`.
    mutating func popFirst(where fits: (Entry) -> Bool) -> Entry? {
        var passedOver: [Entry] = []
        defer { for entry in passedOver { push(entry) } }
        while let entry = pop() {
            if fits(entry) { return entry }
            passedOver.append(entry)
        }
        return nil
    }
}
