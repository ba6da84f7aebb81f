@testable import FlowJSON

/// Scans `text`, returning the error instead of throwing it.
func scanError(_ text: String, options: JSONScanOptions = JSONScanOptions()) -> JSONSyntaxError? {
    scanError(Array(text.utf8), options: options)
}

func scanError(_ bytes: [UInt8], options: JSONScanOptions = JSONScanOptions()) -> JSONSyntaxError? {
    do {
        _ = try JSONDocument(bytes: bytes, options: options)
        return nil
    } catch {
        return error
    }
}

/// Validates (scan plus string decoding), returning the error.
func validationError(_ bytes: [UInt8]) -> JSONSyntaxError? {
    let result = bytes.withUnsafeBytes { buffer in
        Result { () throws(JSONSyntaxError) in try JSONDocument.validate(buffer) }
    }
    if case .failure(let error) = result { return error }
    return nil
}

func parse(_ text: String) throws -> JSONValue {
    try JSONValue(parsing: Array(text.utf8))
}

/// The tape as (kind, flag, offset, payload) tuples, for readable assertions.
func entries(_ text: String) throws -> [String] {
    let document = try JSONDocument(text)
    return document.withView { view in
        (0..<view.count).map { i in
            let k = view.kind(i)
            let payload = (k == .array || k == .object) ? view.next(i) : view.byteRange(i).count
            return "\(k.rawValue) \(view.flag(i) ? 1 : 0) \(view.offset(i)) \(payload)"
        }
    }
}
