import FlowCore

/// `button_row`: `buttons` (required).
public struct ButtonRow: FlowDecodable, Hashable {
    public var buttons: [ButtonData]

    public init(buttons: [ButtonData]) { self.buttons = buttons }

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        guard let o = reader.object() else { throw ContentError.mismatch(expected: "an object", found: reader) }
        self.init(buttons: try o.required("buttons"))
    }
}
