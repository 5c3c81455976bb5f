/// A document of the last build whose words changed: its number, its digest then and now.
struct DocumentChange {
    var document: Int32
    var before: SearchDigest
    var after: SearchDigest
}
