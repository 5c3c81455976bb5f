/// What the render stage makes of one item for the stages after it: the search record the
/// index takes, and its page (relative to the output) with the key that the next build compares.
struct RenderedItem {
    var search: SearchRecord
    var page: String
    var pageKey: UInt64
}
