import FlowJSON

/// A widget's width: `"fill"`, `"hug"`, a number, or a string holding a number (`"0.8"`).
/// Any other string is the wrong type.
public enum WidgetWidth: FlowDecodable, JSONWritable, Hashable {
    case fill
    case hug
    case fixed(Double)

    @usableFromInline package init<R: ValueReader>(from reader: R) throws {
        if let value = reader.double() {
            self = .fixed(value)
            return
        }
        guard let text = reader.string() else { throw ContentError.mismatch(expected: "\"fill\", \"hug\" or a number", found: reader) }
        switch text {
        case "fill": self = .fill
        case "hug": self = .hug
        default:
            // A string holding a number reads by the JSON number grammar and Foundation's
            // Double rules, the same on both decode paths.
            guard JSONNumber(text) != nil,
                  let value = Array(text.utf8).withUnsafeBufferPointer({ JSONNumberParsing.double($0) })
            else { throw ContentError("expected \"fill\", \"hug\" or a number, found the string \"\(text)\"") }
            self = .fixed(value)
        }
    }

    package func write(to writer: inout JSONWriter) {
        switch self {
        case .fill: "fill".write(to: &writer)
        case .hug: "hug".write(to: &writer)
        case .fixed(let v): v.write(to: &writer)
        }
    }
}
