import FlowCore

/// `stepper_row`: `title` (required), `subtitle`, `min`, `max`, `initial` (integers).
public struct StepperRow: FlowDecodable, Hashable {
    public var title: TextData
    public var subtitle: TextData?
    public var min: Int?
    public var max: Int?
    public var initial: Int?
    private var memberwise = Memberwise()

    enum Field: Int, CaseIterable { case title, subtitle, min, max, initial }
    static let fields = FieldTable<Field>(["title", "subtitle", "min", "max", "initial"])
}

extension StepperRow {
    public init(title: TextData, subtitle: TextData? = nil, min: Int? = nil, max: Int? = nil, initial: Int? = nil) {
        self.init(title: title, subtitle: subtitle, min: min, max: max, initial: initial, memberwise: Memberwise())
    }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        let f = o.fields(Self.fields)
        self.init(
            title: try f.required(.title), subtitle: try f.optional(.subtitle), min: try f.optional(.min),
            max: try f.optional(.max), initial: try f.optional(.initial))
    }
}
