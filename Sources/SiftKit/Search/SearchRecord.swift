/// An item's search digest with the item's name (`collection/slug`) and the key of its search
/// inputs: what a build hands the index and the build cache for every item it renders.
struct SearchRecord {
    var item: String
    var key: UInt64
    var digest: SearchDigest
}
