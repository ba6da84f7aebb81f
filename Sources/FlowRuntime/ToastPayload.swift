import FlowCore
import FlowJSON

/// A toast's fields, as a `toast` action and an `api` response's `toast` carry them:
/// `message` (required string) and `duration` (seconds, 2.5 when absent or null).
///
/// Read from the object's JSON tree rather than through `Decodable`: a toast rides along on
/// every `api` round trip, and the keyed-container machinery costs several times the tree for
/// an object of two keys. Typed reads follow the decoder's rules: the first occurrence of a
/// key counts, and a duration past Double's range is not a number.
struct ToastPayload: Sendable, Equatable {
    var message: String
    var duration: Double

    /// The payload of a toast object, or what is wrong with it (for a log note).
    static func read(_ raw: RawJSON) -> Result<ToastPayload, Problem> {
        guard case .object(let object) = raw.value else { return .failure(Problem("not an object")) }
        let message: String
        switch object["message"] {
        case .string(let text)?: message = text
        case nil, .null?: return .failure(Problem("no \"message\""))
        case let other?: return .failure(Problem("\"message\" is \(other.kind), not a string"))
        }
        var duration = Presenter.defaultToastDuration
        switch object["duration"] {
        case nil, .null?: break
        case .number(let number)?:
            guard let seconds = number.doubleValue else {
                return .failure(Problem("\"duration\" \(number) is out of range"))
            }
            guard seconds >= 0 else { return .failure(Problem("\"duration\" cannot be negative, found \(number)")) }
            duration = seconds
        case let other?: return .failure(Problem("\"duration\" is \(other.kind), not a number"))
        }
        return .success(ToastPayload(message: message, duration: duration))
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
