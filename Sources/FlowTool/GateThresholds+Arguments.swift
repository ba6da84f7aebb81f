import FlowBenchmarks

extension GateThresholds {
    /// `--threshold PCT` sets every metric; `--wall-threshold PCT` then sets wall time's.
    init(_ arguments: ParsedArguments) throws(UsageError) {
        self = arguments.value("threshold") == nil ? .defaults
            : GateThresholds(uniform: try arguments.double("threshold", default: 0, range: 0...1000))
        if arguments.value("wall-threshold") != nil {
            wall = try arguments.double("wall-threshold", default: 0, range: 0...1000)
        }
    }
}
