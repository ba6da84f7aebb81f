import FlowJSON

/// The single-value container ``TapeDecoder`` hands out: reads the entry at its cursor.
struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let decoder: TapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.kind(decoder.index) == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try decoder.bool(decoder.index, nil) }
    func decode(_ type: String.Type) throws -> String { try decoder.string(decoder.index, nil) }
    func decode(_ type: Double.Type) throws -> Double { try decoder.number(Double.self, decoder.index, nil) }
    func decode(_ type: Float.Type) throws -> Float { try decoder.number(Float.self, decoder.index, nil) }
    func decode(_ type: Int.Type) throws -> Int { try decoder.integer(Int.self, decoder.index, nil) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decoder.integer(Int8.self, decoder.index, nil) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decoder.integer(Int16.self, decoder.index, nil) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decoder.integer(Int32.self, decoder.index, nil) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decoder.integer(Int64.self, decoder.index, nil) }
    func decode(_ type: UInt.Type) throws -> UInt { try decoder.integer(UInt.self, decoder.index, nil) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decoder.integer(UInt8.self, decoder.index, nil) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decoder.integer(UInt16.self, decoder.index, nil) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decoder.integer(UInt32.self, decoder.index, nil) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decoder.integer(UInt64.self, decoder.index, nil) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.unwrap(T.self) }
}
