import Testing
@testable import FlowCore
import FlowWidgets

/// Long strings spelled the same bytes share one storage within a decode (`StringCache`),
/// and each string is exactly what its text says, whatever the cache held before.
@Suite struct StringCacheTests {
    static func storage(_ s: String) -> UnsafeRawPointer? {
        s.utf8.withContiguousStorageIfAvailable { UnsafeRawPointer($0.baseAddress) } ?? nil
    }

    func cached(_ cache: inout StringCache, _ text: String) -> String {
        Array(text.utf8).withUnsafeBufferPointer { cache.string($0) }
    }

    @Test func theSameBytesShareOneStorage() {
        var cache = StringCache()
        let a = cached(&cache, "Added to your list")
        let b = cached(&cache, "Added to your list")
        #expect(a == b)
        #expect(Self.storage(a) == Self.storage(b))
    }

    /// Strings that land in one slot (same length, same first and last eight bytes) are
    /// told apart by their bytes; so are thousands of different ones.
    @Test func differentBytesGiveTheirOwnString() {
        var cache = StringCache()
        #expect(cached(&cache, "12345678-a-87654321") == "12345678-a-87654321")
        #expect(cached(&cache, "12345678-b-87654321") == "12345678-b-87654321")
        #expect(cached(&cache, "12345678-a-87654321") == "12345678-a-87654321")
        for i in 0..<5_000 {
            let text = "a label number \(i) of many"
            #expect(cached(&cache, text) == text)
        }
        #expect(cached(&cache, "caf\u{E9} au lait, large") == "caf\u{E9} au lait, large")
    }

    /// A large page's repeated labels come out shared and equal to the reference decode; a
    /// small page's (under the sharing threshold) each have their own.
    @Test func aDecodeSharesRepeatedLabels() throws {
        let label = "Ends Sunday at midnight"
        func titles(count: Int, options: PageDecodingOptions) throws -> [String] {
            let widgets = (0..<count).map { #"{"type": "title_block", "data": {"title": "\#(label)", "subtitle": "Item \#($0) is a little longer"}}"# }
            let input = bytes(#"{"page": {"id": "p", "sections": [{"widgets": ["# + widgets.joined(separator: ",") + "]}]}}")
            let page = try PageDecoder(registry: starterRegistry, options: options).decode(input).page
            #expect(try ReferencePageDecoder(registry: starterRegistry).decode(input).page == page)
            return page.sections[0].widgets.compactMap { $0.model(as: TitleBlock.self)?.title.text }
        }
        var always = PageDecodingOptions()
        always.sharingMinimumBytes = 0
        let shared = try titles(count: 4, options: always)
        #expect(shared == Array(repeating: label, count: 4))
        #expect(Set(shared.map(Self.storage)).count == 1)
        let own = try titles(count: 4, options: PageDecodingOptions())
        #expect(own == shared)
        #expect(Set(own.map(Self.storage)).count == 4)
    }
}
