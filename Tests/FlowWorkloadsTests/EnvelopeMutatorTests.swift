import FlowCore
import FlowFuzzTargets
import FlowJSON
import FlowWorkloads
import Foundation
import Testing

/// The envelope mutator (`LLVMFuzzerCustomMutator` of the page-shaped targets), run without
/// libFuzzer: a stand-in byte mutator records that it was called.
@Suite struct EnvelopeMutatorTests {
    static let pageShaped: [FuzzTarget] = [.page, .oneBadWidget, .mutation, .mergeDiff, .decodable]

    /// A few seeds of each target, spread over its seed list (every page, both pair framings).
    static func inputs(_ target: FuzzTarget, count: Int = 24) -> [[UInt8]] {
        let seeds = (try? target.seeds()) ?? []
        guard !seeds.isEmpty else { return [] }
        let step = max(1, seeds.count / count)
        return stride(from: 0, to: seeds.count, by: step).map { seeds[$0].bytes }
    }

    /// The JSON parts of an input in `target`'s format (what the mutator edits).
    static func jsonParts(_ input: [UInt8], _ target: FuzzTarget) -> [[UInt8]] {
        switch target.name {
        case "page": if let f = input.first, f & 0xC0 == 0x80 { return [Array(input.dropFirst())] } else { return [input] }
        case "one-bad-widget": return [Array(input.dropFirst(3))]
        case "mutation", "merge-diff":
            let rest = input.dropFirst()
            if input[0] & 0x20 != 0, let split = rest.firstIndex(of: 0) { return [Array(rest[..<split]), Array(rest[(split + 1)...])] }
            return [Array(rest)]
        default: return [input]
        }
    }

    static func noBytes(_ input: [UInt8]) -> [UInt8] { Issue.record("the byte mutator was called"); return input }

    @Test func sameSeedSameOutput() throws {
        for target in Self.pageShaped {
            let mutator = try #require(target.mutator, "\(target.name) has no mutator")
            for input in Self.inputs(target, count: 6) {
                for seed: UInt32 in [1, 7, 99, 123_456, .max] {
                    let a = mutator.mutate(input, maxSize: 1 << 20, seed: seed, bytes: { $0 + [1] })
                    let b = mutator.mutate(input, maxSize: 1 << 20, seed: seed, bytes: { $0 + [1] })
                    #expect(a.output == b.output && a.kind == b.kind, "\(target.name) seed \(seed)")
                }
            }
        }
    }

    /// Every edit of a valid input keeps its framing and every JSON part FlowJSON accepts.
    @Test func editsStayJSON() throws {
        for target in Self.pageShaped {
            let mutator = try #require(target.mutator)
            var edits = 0
            for input in Self.inputs(target) {
                guard Self.jsonParts(input, target).allSatisfy({ (try? JSONDocument(bytes: $0)) != nil }) else { continue }
                for seed: UInt32 in 0..<40 {
                    let (output, kind) = mutator.mutate(input, maxSize: 1 << 20, seed: seed, bytes: Self.noBytes)
                    guard kind != .bytes else { continue }
                    edits += 1
                    let parts = Self.jsonParts(output, target)
                    #expect(parts.count == Self.jsonParts(input, target).count, "\(target.name) \(kind): framing changed")
                    for part in parts {
                        #expect((try? JSONDocument(bytes: part)) != nil,
                                "\(target.name) \(kind) seed \(seed): not JSON: \(String(decoding: part.prefix(300), as: UTF8.self))")
                    }
                }
            }
            #expect(edits > 100, "\(target.name): only \(edits) edits")
        }
    }

    /// The oracles hold on the mutator's outputs (a sample: each output runs the whole oracle).
    @Test func outputsPassTheOracles() throws {
        for target in Self.pageShaped {
            let mutator = try #require(target.mutator)
            for input in Self.inputs(target, count: 4) {
                for seed: UInt32 in 0..<6 {
                    let (output, kind) = mutator.mutate(input, maxSize: 1 << 16, seed: seed, bytes: { $0 })
                    let failures = target.check(output)
                    #expect(failures.isEmpty, "\(target.name) \(kind): \(failures.prefix(3))")
                }
            }
        }
    }

    @Test func respectsMaxSize() throws {
        for target in Self.pageShaped {
            let mutator = try #require(target.mutator)
            for input in Self.inputs(target, count: 8) {
                for slack in [0, 10, 200] {
                    for seed: UInt32 in 0..<30 {
                        let maxSize = input.count + slack
                        var fellBack = false
                        let (output, kind) = mutator.mutate(input, maxSize: maxSize, seed: seed) { fellBack = true; return Array($0.prefix(maxSize)) }
                        #expect(output.count <= maxSize, "\(target.name) \(kind): \(output.count) bytes > \(maxSize)")
                        #expect(fellBack == (kind == .bytes))
                    }
                }
            }
        }
    }

    /// Each kind of the vocabulary is produced, over the targets and some seeds; each
    /// mutation kind of the page contract ("Mutations") is written into a response.
    @Test func everyKindShowsUp() throws {
        var seen: [EnvelopeMutator.Kind: Int] = [:]
        var mutationKinds = Set<String>()
        for target in Self.pageShaped {
            let mutator = try #require(target.mutator)
            for input in Self.inputs(target, count: 30) {
                for seed: UInt32 in 0..<60 {
                    let (output, kinds) = mutator.mutations(input, maxSize: 1 << 20, seed: seed, bytes: { $0 }, scalars: { b, _ in b + b })
                    for kind in kinds { seen[kind, default: 0] += 1 }
                    guard kinds.contains(.mutationInsert), let text = String(validating: output.dropFirst(), as: UTF8.self) else { continue }
                    for k in ["replace_widget", "remove_widget", "append_sections", "prepend_sections", "replace_page", "explode"]
                    where text.contains(#""kind":"\#(k)""#) { mutationKinds.insert(k) }
                }
            }
        }
        let edits = EnvelopeMutator.Kind.allCases.filter { ![.spliceWidget, .spliceSection, .spliceMutation, .bytes].contains($0) }
        for kind in edits { #expect(seen[kind, default: 0] > 0, "never produced: \(kind) (seen: \(seen))") }
        #expect(mutationKinds.count == 6, "mutation kinds written: \(mutationKinds.sorted())")
    }

    /// The structural kinds do what they say on a small page.
    @Test func kindsDoWhatTheySay() throws {
        let page = #"{"page":{"sections":[{"id":"s","widgets":[{"type":"separator","id":"a"},{"type":"accordion","id":"b","data":{"header":"h","items":[{"type":"separator","id":"i1"},{"type":"separator","id":"i2"}]}}]},{"id":"t","widgets":[]}]}}"#
        var mutator = EnvelopeMutator(format: .document, typeNames: ["separator", "accordion"], pages: [])
        mutator.maxEdits = 1
        var checked = Set<EnvelopeMutator.Kind>()
        for seed: UInt32 in 0..<400 {
            let (output, kind) = mutator.mutate(Array(page.utf8), maxSize: 1 << 20, seed: seed, bytes: Self.noBytes)
            // Edge strings may hold a lone surrogate, which JSONValue(parsing:) refuses.
            let document = try #require(try? JSONDocument(bytes: output), "\(kind): \(String(decoding: output, as: UTF8.self))")
            let value = document.withView { JSONValue(replacingLoneSurrogates: $0, at: 0) }
            let sections = value["page"]?["sections"]?.arrayValue ?? []
            let widgets = sections.flatMap { $0["widgets"]?.arrayValue ?? [] }
            let items = widgets.compactMap { $0["data"]?["items"]?.arrayValue }.flatMap { $0 }
            switch kind {
            case .dropWidget: #expect(widgets.count == 1)
            case .duplicateWidget: #expect(widgets.count == 3)
            case .dropSection: #expect(sections.count == 1)
            case .duplicateSection: #expect(sections.count == 3)
            case .dropItem: #expect(items.count == 1)
            case .duplicateItem: #expect(items.count == 3)
            case .idEmpty: #expect(widgets.contains { $0["id"] == .string("") } || items.contains { $0["id"] == .string("") })
            case .idRemoved: #expect(widgets.count + items.count == 4 && (widgets + items).contains { $0["id"] == nil })
            case .retypeEmpty: #expect((widgets + items).contains { $0["type"] == .string("") })
            case .deeperAccordion: #expect(output.count > page.utf8.count && String(decoding: output, as: UTF8.self).contains("Deeper"))
            default: continue
            }
            checked.insert(kind)
        }
        #expect(checked.count == 10, "checked: \(checked)")
    }

    /// The edits of a field's value each reach the shape they are for, one edit at a time,
    /// on one widget's data: a sign and a number past a range, two fields out of order, a
    /// field gone beside its companion, a string of digits grown or cut, an array reversed.
    @Test func valueEditsReachTheirShapes() throws {
        let page = #"{"page":{"sections":[{"widgets":[{"type":"canary","id":"c","data":{"label":"L","style":"badge","level":40,"code":"AB-17","low":1,"high":5,"steps":[2,4,8,16]}}]}]}}"#
        var mutator = EnvelopeMutator(format: .document, typeNames: ["canary"], pages: [])
        mutator.maxEdits = 1
        typealias Shape = (name: String, holds: (JSONValue) -> Bool)
        func int(_ v: JSONValue?) -> Int64? { v?.numberValue?.int64Value }
        let shapes: [EnvelopeMutator.Kind: [Shape]] = [
            .nudgeNumber: [("level below 0", { (int($0["level"]) ?? 0) < 0 }), ("level above 100", { (int($0["level"]) ?? 0) > 100 })],
            .numberFromDocument: [("low above high", { (int($0["low"]) ?? 0) > (int($0["high"]) ?? 0) })],
            .swapMembers: [("low above high", { (int($0["low"]) ?? 0) > (int($0["high"]) ?? 0) })],
            .dropMember: [("a badge without its label", { $0["style"] == .string("badge") && $0["label"] == nil })],
            .reshapeString: [
                ("code of digits", { $0["code"]?.stringValue.map { !$0.isEmpty && $0.allSatisfy(\.isNumber) } ?? false }),
                ("code grown", { ($0["code"]?.stringValue?.count ?? 0) > 5 }),
                ("code cut", { ($0["code"]?.stringValue?.count ?? 5) < 5 }),
            ],
            .stringFromDocument: [("style from another field", { $0["style"] == .string("L") || $0["style"] == .string("AB-17") })],
            .reshapeArray: [("steps falling", { $0["steps"] == [16, 8, 4, 2] })],
        ]
        var reached = Set<String>()
        for seed: UInt32 in 0..<3_000 {
            let (output, kind) = mutator.mutate(Array(page.utf8), maxSize: 1 << 16, seed: seed, bytes: Self.noBytes)
            guard let shapesOfKind = shapes[kind] else { continue }
            let document = try #require(try? JSONDocument(bytes: output), "\(kind): \(String(decoding: output, as: UTF8.self))")
            let value = document.withView { JSONValue(replacingLoneSurrogates: $0, at: 0) }
            guard let data = value["page"]?["sections"]?.arrayValue?.first?["widgets"]?.arrayValue?.first?["data"] else { continue }
            for shape in shapesOfKind where shape.holds(data) { reached.insert("\(kind): \(shape.name)") }
        }
        let expected = Set(shapes.flatMap { kind, list in list.map { "\(kind): \($0.name)" } })
        #expect(reached == expected, "not reached: \(expected.subtracting(reached).sorted())")
    }

    /// Edits stack: one mutation applies one to ``EnvelopeMutator/maxEdits`` edits, each
    /// further one half as likely, and never more.
    @Test func editsStack() throws {
        let mutator = try #require(FuzzTarget.page.mutator)
        let page = Array(FuzzPages.all[0].text.utf8)
        var counts = [Int](repeating: 0, count: mutator.maxEdits + 1)
        for seed: UInt32 in 0..<400 {
            let (_, kinds) = mutator.mutations(page, maxSize: 1 << 20, seed: seed, bytes: Self.noBytes)
            #expect(!kinds.contains(.bytes) && kinds.count <= mutator.maxEdits)
            counts[min(kinds.count, mutator.maxEdits)] += 1
        }
        #expect(counts[1] > 150 && counts[1] < 250 && counts[2] > 60 && counts[mutator.maxEdits] > 10, "edits per mutation: \(counts)")
    }

    /// libFuzzer's byte mutator is given one value at a time (``EnvelopeMutator/Kind/scalarBytes``),
    /// and what it returns is kept only while it is still a number, or a string, of JSON.
    @Test func scalarBytesKeepsValidValues() throws {
        var mutator = EnvelopeMutator(format: .document, typeNames: ["canary"], pages: [])
        mutator.maxEdits = 1
        let page = Array(#"{"page":{"sections":[{"widgets":[{"type":"canary","data":{"level":40,"code":"AB"}}]}]}}"#.utf8)
        var given = Set<String>()
        var kept = 0
        for seed: UInt32 in 0..<600 {
            let (output, kind) = mutator.mutate(page, maxSize: 1 << 16, seed: seed, bytes: Self.noBytes) { value, limit in
                given.insert(String(decoding: value, as: UTF8.self))
                #expect(limit >= value.count)
                // Valid for a number, not for a string's contents (a raw quote), every other seed.
                return seed % 2 == 0 ? Array("7".utf8) : Array("\"".utf8)
            }
            let text = String(decoding: output, as: UTF8.self)
            guard kind == .scalarBytes else { continue }
            kept += 1
            #expect(text.contains(#""level":7"#) || text.contains(#""code":"7""#), "\(text)")
            #expect((try? JSONDocument(bytes: output)) != nil, "\(text)")
        }
        #expect(given.isSuperset(of: ["40", "AB"]), "given: \(given.sorted())")
        #expect(kept > 10)
    }

    @Test func crossoverSplices() throws {
        let mutator = try #require(FuzzTarget.page.mutator)
        let pages = FuzzPages.all.filter { !$0.bareRoot }.map { Array($0.text.utf8) }
        var kinds = Set<EnvelopeMutator.Kind>()
        for (n, a) in pages.enumerated() {
            let b = pages[(n + 1) % pages.count]
            for seed: UInt32 in 0..<10 {
                guard let (output, kind) = mutator.crossOver(a, b, maxSize: 1 << 20, seed: seed) else { continue }
                kinds.insert(kind)
                #expect((try? JSONDocument(bytes: output)) != nil)
                #expect(output != a)
            }
        }
        #expect(kinds == [.spliceWidget, .spliceSection], "\(kinds)")

        // A response takes another response's mutations.
        let pair = try #require(FuzzTarget.mutation.mutator)
        let responses = Self.inputs(.mutation).filter { $0.first.map { $0 & 0x20 == 0 } ?? false }
        var spliced = false
        for (n, a) in responses.enumerated() {
            for seed: UInt32 in 0..<10 where pair.crossOver(a, responses[(n + 1) % responses.count], maxSize: 1 << 20, seed: seed)?.kind == .spliceMutation {
                spliced = true
            }
        }
        #expect(spliced)
        // Nothing to splice from bytes that are not JSON.
        #expect(mutator.crossOver(pages[0], Array("{\"page\": [".utf8), maxSize: 1 << 20, seed: 1) == nil)
    }

    @Test func fallsBackToBytes() throws {
        let mutator = try #require(FuzzTarget.page.mutator)
        for input in [Array("{\"page\": [".utf8), [0xFF, 0x00, 0x7B], [], [0x80], Array("not json".utf8)] {
            var called = 0
            let (output, kind) = mutator.mutate(input, maxSize: 4096, seed: 3) { called += 1; return $0 + [0x41] }
            #expect(called == 1 && kind == .bytes && output == input + [0x41])
        }
        // Share 0: byte mutations only, even of a page that parses.
        let page = Array(FuzzPages.all[0].text.utf8)
        for seed: UInt32 in 0..<20 {
            var called = false
            _ = mutator.mutate(page, maxSize: 1 << 20, seed: seed, envelopeShare: 0) { called = true; return $0 }
            #expect(called)
        }
        // Share 0.5: both, over seeds.
        let kinds = (0..<200).map { mutator.mutate(page, maxSize: 1 << 20, seed: UInt32($0), envelopeShare: 0.5, bytes: { $0 }).kind }
        let bytes = kinds.filter { $0 == .bytes }.count
        #expect(bytes > 50 && bytes < 150, "\(bytes) of 200 byte mutations at share 0.5")
    }

    /// Arbitrary bytes never trap: truncations and byte flips of seeds of every format, in
    /// the mutator and the crossover.
    @Test func arbitraryBytesNeverTrap() throws {
        var rng = SeededRandom(seed: 35)
        for target in Self.pageShaped {
            let mutator = try #require(target.mutator)
            let inputs = Self.inputs(target, count: 6)
            for input in inputs {
                for _ in 0..<30 {
                    var bytes = Array(input.prefix(rng.below(input.count + 1)))
                    if !bytes.isEmpty, rng.chance(0.5) { bytes[rng.below(bytes.count)] = UInt8(rng.below(256)) }
                    let seed = UInt32(truncatingIfNeeded: rng.next())
                    _ = mutator.mutate(bytes, maxSize: max(bytes.count, 64), seed: seed, bytes: { Array($0.prefix(64)) })
                    _ = mutator.crossOver(bytes, rng.pick(inputs), maxSize: 1 << 16, seed: seed)
                }
            }
        }
    }

    /// Large and deep inputs still take structured edits that stay JSON: a page of 5,000
    /// widgets, and arrays nested 500 deep (just under the scanner's depth limit). That the
    /// cost stays linear in the page's size is counted, not timed: the hostile shape
    /// `envelope-mutation` runs this mutator at two sizes under callgrind
    /// (HostileScalingTests, and the gate of `flow bench`).
    @Test func largeAndDeepInputsTakeStructuredEdits() throws {
        let widgets = Array(repeating: #"{"type":"separator","id":"w"}"#, count: 5_000).joined(separator: ",")
        let wide = Array(#"{"page":{"sections":[{"widgets":[\#(widgets)]}]}}"#.utf8)
        let deep = Array((String(repeating: "[", count: 500) + String(repeating: "]", count: 500)).utf8)
        let mutator = try #require(FuzzTarget.page.mutator)
        var structured = 0
        for seed: UInt32 in 0..<20 {
            for input in [wide, deep] {
                let (output, kind) = mutator.mutate(input, maxSize: 1 << 22, seed: seed, bytes: { $0 })
                guard kind != .bytes else { continue }
                structured += 1
                #expect((try? JSONDocument(bytes: Array(output.drop { $0 & 0xC0 == 0x80 }))) != nil, "\(kind)")
            }
        }
        #expect(structured >= 20, "\(structured) of 40 edits were structured")
    }

    struct PriceTag: Decodable, Sendable, Equatable { let amount: Int }

    /// A host's target: its framings kept (a one-bad-widget input behind a byte of 0xC0 or
    /// more, an option selector, a bare document), its registry's types used for retypes.
    @Test func hostTargetKeepsItsFramings() throws {
        var registry = WidgetRegistry()
        registry.register(PriceTag.self, as: "price_tag")
        let page = #"{"page":{"sections":[{"widgets":[{"type":"price_tag","id":"p","data":{"amount":3}},{"type":"price_tag","data":{"amount":4}}]}]}}"#
        let target = FuzzTarget.host(name: "host", registry: registry, pages: [OneBadWidget.basePage(source: "p", text: page)])
        let mutator = try #require(target.mutator)
        var retyped = false
        for seed in target.generatedSeeds() {
            for n: UInt32 in 0..<30 {
                let (output, kind) = mutator.mutate(seed.bytes, maxSize: 1 << 16, seed: n, bytes: Self.noBytes)
                guard kind != .bytes else { continue }
                let first = try #require(seed.bytes.first)
                let json: [UInt8]
                switch first {
                case 0xC0...: #expect(output[0] >= 0xC0); json = Array(output.dropFirst(4))
                case 0x80...: #expect(output[0] >= 0x80 && output[0] < 0xC0); json = Array(output.dropFirst())
                default: json = output.first.map { $0 >= 0x80 } == true ? Array(output.dropFirst()) : output
                }
                #expect((try? JSONDocument(bytes: json)) != nil, "\(seed.name) \(kind)")
                if kind == .retypeRegistered, String(decoding: json, as: UTF8.self).contains(#""type":"price_tag""#) { retyped = true }
                #expect(target.check(output).isEmpty, "\(seed.name) \(kind)")
            }
        }
        #expect(retyped)
    }
    /// `fuzz.sh --mutator` takes envelope, bytes, mix or a percentage, and says so before it
    /// builds anything.
    @Test func fuzzScriptRejectsAnUnknownMutatorMode() throws {
        for mode in ["sometimes", "101", "-1"] {
            let process = Process()
            process.executableURL = FuzzTargets.defaultRepositoryRoot.appendingPathComponent("Fuzz/fuzz.sh")
            process.arguments = ["page", "--mutator", mode]
            let output = Pipe()
            (process.standardOutput, process.standardError) = (output, output)
            try process.run()
            let written = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 64, "\(mode): \(written)")
            #expect(written.contains("--mutator expects envelope, bytes, mix or 0-100"), "\(mode): \(written)")
        }
    }
}
