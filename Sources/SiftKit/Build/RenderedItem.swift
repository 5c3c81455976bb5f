/// What the render stage makes of one item for the stages after it: the search record the
/// index takes, and the key of the item's page that the next build compares.
struct RenderedItem {
    var search: SearchRecord
    var pageKey: UInt64
}
