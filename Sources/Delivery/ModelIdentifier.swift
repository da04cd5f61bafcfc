/// An Apple model identifier read as family, generation and model (`iPhone18,3` is family
/// `iPhone`, generation 18, model 3), ordered by generation then model.
struct ModelIdentifier: Comparable, Hashable {
    let family: String
    let generation: Int
    let model: Int

    init?(_ id: String) {
        guard let comma = id.firstIndex(of: ","), let firstDigit = id.firstIndex(where: \.isNumber),
              firstDigit > id.startIndex, firstDigit < comma,
              id[..<firstDigit].allSatisfy(\.isLetter),
              let generation = Int(id[firstDigit..<comma]), let model = Int(id[id.index(after: comma)...]),
              generation < 1000, model < 1000 else { return nil }
        family = String(id[..<firstDigit])
        self.generation = generation
        self.model = model
    }

    static func < (lhs: ModelIdentifier, rhs: ModelIdentifier) -> Bool {
        (lhs.generation, lhs.model) < (rhs.generation, rhs.model)
    }
}
