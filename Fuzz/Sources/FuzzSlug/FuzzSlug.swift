import SiftKit

/// Any bytes through Slug.make and Fold.fold; a slug must be stable (slug(slug(s)) == slug(s)).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let slug = Slug.make(text)
    precondition(Slug.make(slug) == slug, "slug is not idempotent for \(Array(text.unicodeScalars))")
    precondition(!slug.hasPrefix("-") && !slug.hasSuffix("-"), "slug keeps a dash at an end")
    _ = Fold.fold(text)
    return 0
}

// SwiftPM links executables with `main=FuzzSlug_main`: hand that entry point to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzSlug_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return runDriver(&argc, &argv, fuzz)
}
