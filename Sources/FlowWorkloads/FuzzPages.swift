/// The pages the built-in fuzz targets splice fuzzer bytes into (`one-bad-widget`), pair
/// with fuzzer documents (`mutation`, `merge-diff`) and seed with (`page`).
///
/// The pages themselves are not here: they are files (`Corpus/pages/`, `Fuzz/pages/`) that
/// `Fuzz/pages.manifest` lists, read as `FuzzPages.all` when a process starts, only in the
/// FlowFuzzTargets module, which flow-core's own fuzz executables and tests link (a fuzz
/// binary reads them from `FLOW_FUZZ_PAGES`, else `<binary>.pages/` beside it, else the
/// checkout). The targets here take the list as a parameter. A fuzz input names its page by
/// index in that list, so the manifest is append-only.
public enum FuzzPages {
    public struct Page: Sendable {
        /// Where the text came from, relative to the repository root.
        public let source: String
        /// Whether the page object is the document root (decode with the bare-root option).
        public let bareRoot: Bool
        public let text: String

        public init(source: String, bareRoot: Bool, text: String) {
            self.source = source
            self.bareRoot = bareRoot
            self.text = text
        }
    }
}
