import FlowCore

/// `stepper_row`: `title` (required), `subtitle`, `min`, `max`, `initial` (integers).
public struct StepperRow: FlowDecodable, Hashable {
    public var title: TextData
    public var subtitle: TextData?
    public var min: Int?
    public var max: Int?
    public var initial: Int?

    public init(title: TextData, subtitle: TextData? = nil, min: Int? = nil, max: Int? = nil, initial: Int? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.min = min
        self.max = max
        self.initial = initial
    }

    public init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        self.init(
            title: try o.required("title"), subtitle: try o.optional("subtitle"), min: try o.optional("min"),
            max: try o.optional("max"), initial: try o.optional("initial"))
    }
}
