@testable import SiftKit

/// Any bytes as a Mustache template, parsed, then rendered against a small context with the
/// template itself as every partial and parent (recursion must end in an error, not a crash),
/// within 1 MB of output: the 256 MB a page may have takes ASan longer than libFuzzer's 10 s
/// timeout to write (Tests/hardening's test_limits.py renders that much in a release build).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let template = try? MustacheTemplate(source: text, path: "fuzz.mustache") else { return 0 }
    let inner = Fields([("a", .string("<b>x</b>"))])
    let fields = Fields([("a", .string("<b>x</b>")), ("list", .list([.string("1"), .map(inner), .bool(true)]))])
    _ = try? template.renderUTF8(.map(fields), partials: SelfPartials(template: template), stepLimit: MustacheRenderer.maxSteps, outputLimit: 1 << 20)
    return 0
}

struct SelfPartials: PartialResolver {
    let template: MustacheTemplate
    func template(named name: String) throws -> MustacheTemplate? { name.isEmpty ? nil : template }
}

// SwiftPM links executables with `main=FuzzMustache_main`: hand that entry point to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ body: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzMustache_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc, argv = argv
    return runDriver(&argc, &argv, fuzz)
}
