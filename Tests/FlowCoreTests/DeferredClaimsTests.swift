import Testing
@testable import FlowCore
import FlowWorkloads

/// The sparse claim log reads back exactly what was queued, whatever breaks its guesses.
@Suite struct DeferredClaimsTests {
    @Test func readsBackEveryClaimAsQueued() {
        var rng = SeededRandom(seed: 42)
        for round in 0..<200 {
            var log = DeferredClaims()
            var queued: [(DeferredClaims.Kind, Int, Int)] = []
            var mark = 0, section = round % 3
            for _ in 0..<(round % 40 + 1) {
                // A section, maybe a header, then widgets; sometimes a diagnostic or a
                // dropped element in between.
                if rng.next() % 4 == 0 { mark += 1 }
                if rng.next() % 5 == 0 { section += 1 }
                queued.append((.section, mark, section))
                section += 1
                if rng.next() % 2 == 0 {
                    if rng.next() % 3 == 0 { mark += 2 }
                    queued.append((.header, mark, -1))
                }
                var widget = 0
                for _ in 0..<(rng.next() % 6) {
                    if rng.next() % 4 == 0 { mark += 1 }
                    if rng.next() % 4 == 0 { widget += 1 + Int(rng.next() % 3) }
                    queued.append((.widget, mark, widget))
                    widget += 1
                }
            }
            for (kind, mark, position) in queued { log.append(kind, diagnosticMark: mark, position: position) }
            var reader = log.reader()
            for (kind, mark, position) in queued {
                let claim = reader.next(kind)
                #expect(claim.diagnosticMark == mark && claim.position == position, "round \(round)")
            }
            #expect(reader.isAtEnd)
        }
    }
}
