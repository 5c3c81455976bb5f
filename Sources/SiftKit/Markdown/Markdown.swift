import CCmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The only file in SiftKit that calls cmark_*. Every C pointer is created, used and freed
// inside `Markdown.render`; what leaves is plain Swift values. Each call owns its parser and
// tree, allocated from its thread's arena, and libcmark 0.30 keeps no mutable globals, so
// pages render concurrently without locks.

/// A Markdown body rendered to HTML, with what the rest of the pipeline needs from it.
public struct RenderedMarkdown: Sendable, Hashable {
    /// The whole body as HTML, headings carrying `id` attributes.
    public var html: String
    /// The plain text of the first level-1 heading, if any.
    public var title: String?
    /// `html` without the title heading when that heading is the body's first block, else `html`.
    public var htmlWithoutTitle: String
    /// Every heading in document order.
    public var headings: [Heading]
    /// The text a reader sees, for the search index: no markup, code kept, blocks separated by "\n".
    public var plainText: String
    /// Every link's destination with its position in the source (1-based), for `sift check`.
    public var links: [MarkdownLink] = []

    /// Creates a rendering from its parts.
    public init(html: String, title: String?, htmlWithoutTitle: String, headings: [Heading], plainText: String, links: [MarkdownLink] = []) {
        self.links = links
        self.html = html
        self.title = title
        self.htmlWithoutTitle = htmlWithoutTitle
        self.headings = headings
        self.plainText = plainText
    }
}

extension RenderedMarkdown {
    /// The HTML to show: without the title heading when the page's title came from it.
    public func html(droppingTitle: Bool) -> String { droppingTitle ? htmlWithoutTitle : html }
}

/// A link of a Markdown body: where it points and where it is written (1-based, in the body).
public struct MarkdownLink: Sendable, Hashable {
    public var url: String
    public var line: Int
    public var column: Int
}

/// A heading of a rendered Markdown body.
public struct Heading: Sendable, Hashable {
    /// 1 to 6, as in `<h1>`…`<h6>`.
    public var level: Int
    /// The heading's plain text.
    public var text: String
    /// The anchor id: the slug of the text, `section` when that is empty, `-1`, `-2`… on repeats.
    public var id: String

    /// Creates a heading.
    public init(level: Int, text: String, id: String) {
        self.level = level
        self.text = text
        self.id = id
    }
}

/// CommonMark rendering through libcmark.
public enum Markdown {
    /// Renders a CommonMark body. Unless `unsafe`, raw HTML becomes cmark's
    /// `<!-- raw HTML omitted -->` and `javascript:`, `vbscript:`, `file:` and `data:` URLs
    /// (but `data:image/png|gif|jpeg|webp`) become empty. Safe to call from several threads.
    public static func render(_ source: String, unsafe: Bool = false) -> RenderedMarkdown {
        // No CMARK_OPT_VALIDATE_UTF8: a Swift String is valid UTF-8 already.
        let options = CMARK_OPT_DEFAULT | (unsafe ? CMARK_OPT_UNSAFE : 0)
        return CmarkDocument.render(source, options: options)
    }
}

/// Parses, rewrites the headings, renders and frees one document.
fileprivate enum CmarkDocument {
    static func render(_ source: String, options: Int32) -> RenderedMarkdown {
        // Bodies of ordinary size go to the calling thread's arena, freed all at once;
        // a huge one uses malloc, whose frees keep its peak lower.
        let arena = source.utf8.count <= CmarkArena.largestSource ? CmarkArena.current() : nil
        let mem = arena?.mem ?? cmark_get_default_mem_allocator()!
        defer { arena?.reset() }
        // cmark's allocator aborts rather than returning NULL, so these guards never fail
        // in practice; an empty rendering beats a crash if they ever do.
        guard let parser = cmark_parser_new_with_mem(options, mem) else { return empty }
        defer { cmark_parser_free(parser) }
        var source = source
        source.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                cmark_parser_feed(parser, $0, bytes.count)
            }
        }
        guard let document = cmark_parser_finish(parser) else { return empty }
        defer { if arena == nil { cmark_node_free(document) } }

        var walk = Walk(options: options, mem: mem, capacity: source.utf8.count)
        walk.run(document)

        let html: String
        if walk.rewritesHeadings {
            html = takeHTML(cmark_render_html(document, options), mem)
        } else {
            (html, walk.leadingTitleBytes) = takeHTML(cmark_render_html(document, options), mem, ids: walk.headings, titleLeads: walk.titleLeads)
        }
        var htmlWithoutTitle = html
        if walk.leadingTitleBytes > 0 {
            htmlWithoutTitle = String(Substring(html.utf8.dropFirst(walk.leadingTitleBytes)))
        }
        return RenderedMarkdown(
            html: html, title: walk.title, htmlWithoutTitle: htmlWithoutTitle,
            headings: walk.headings, plainText: walk.plainText(), links: walk.links)
    }

    static let empty = RenderedMarkdown(html: "", title: nil, htmlWithoutTitle: "", headings: [], plainText: "")
}

/// Copies a string cmark allocated and frees it.
fileprivate func takeHTML(_ pointer: UnsafeMutablePointer<CChar>?, _ mem: UnsafeMutablePointer<cmark_mem>) -> String {
    guard let pointer else { return "" }
    defer { mem.pointee.free(pointer) }
    return String(cString: pointer)
}

/// Copies safe-mode HTML cmark allocated, giving the n-th `<hN>` the n-th heading's id, and
/// frees it; also returns the UTF-8 length of the leading title heading when `titleLeads`.
///
/// Without `CMARK_OPT_UNSAFE` every `<` of text, code, attributes and raw HTML is escaped or
/// omitted, so each `<h1>`…`<h6>` in the output opens a heading node, in document order.
fileprivate func takeHTML(_ pointer: UnsafeMutablePointer<CChar>?, _ mem: UnsafeMutablePointer<cmark_mem>,
                          ids headings: [Heading], titleLeads: Bool) -> (String, Int) {
    guard let pointer else { return ("", 0) }
    defer { mem.pointee.free(pointer) }
    let count = strlen(pointer)
    if headings.isEmpty { return (String(cString: pointer), 0) }
    var extra = 0
    for h in headings { extra += h.id.utf8.count + 6 }
    var leading = 0
    let html = String(unsafeUninitializedCapacity: count + extra) { out in
        let src = UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self)
        // `copied`: source bytes already in `out`; `i`: where the search for `<` goes on.
        var n = 0, copied = 0, i = 0, next = 0
        func copy(to end: Int) {
            guard end > copied else { return }
            (out.baseAddress! + n).update(from: src + copied, count: end - copied)
            n += end - copied
            copied = end
        }
        while next < headings.count, i < count, let lt = memchr(src + i, 0x3C, count - i) {
            let at = UnsafeRawPointer(lt).assumingMemoryBound(to: UInt8.self) - src
            i = at + 1
            guard at + 3 < count, src[at + 1] == 0x68, src[at + 3] == 0x3E,
                  src[at + 2] == 0x30 &+ UInt8(headings[next].level) else { continue }
            copy(to: at + 3)
            for b in " id=\"".utf8 { out[n] = b; n += 1 }
            for b in headings[next].id.utf8 { out[n] = b; n += 1 }
            out[n] = 0x22; n += 1
            next += 1
            if next == 1 && titleLeads, at == 0, let close = strstr(pointer + copied, "</h1>\n") {
                leading = n + (close - (pointer + copied)) + 6
            }
        }
        copy(to: count)
        return n
    }
    return (html, leading)
}

/// A bump allocator for one document at a time, one per thread, handed to cmark as its
/// `cmark_mem`: a parse makes thousands of small nodes and buffers, and freeing them one by
/// one through malloc cost more than parsing. `reset()` frees everything at once.
fileprivate final class CmarkArena {
    /// Sources above this size use malloc: an arena never reuses what a growing buffer left behind.
    static let largestSource = 1 << 20
    static let chunkSize = 256 << 10
    /// Each block starts with its size, for realloc.
    static let header = 16

    var mem: UnsafeMutablePointer<cmark_mem>
    private var chunks: [(base: UnsafeMutableRawPointer, size: Int)] = []
    private var chunk = 0
    private var top: UnsafeMutableRawPointer
    private var end: UnsafeMutableRawPointer
    private var last: UnsafeMutableRawPointer?
    private var large: [UnsafeMutableRawPointer] = []

    private init() {
        let base = malloc(Self.chunkSize)!
        chunks = [(base, Self.chunkSize)]
        top = base
        end = base + Self.chunkSize
        mem = .allocate(capacity: 1)
        mem.initialize(to: cmark_mem(
            calloc: { n, size in CmarkArena.current().allocate(n * size, zeroed: true) },
            realloc: { p, size in CmarkArena.current().reallocate(p, size) },
            free: { p in CmarkArena.current().free(p) }))
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { p in
            guard let p else { return }
            Unmanaged<CmarkArena>.fromOpaque(p).takeRetainedValue().destroy()
        }
        return key
    }()

    /// This thread's arena.
    static func current() -> CmarkArena {
        if let p = pthread_getspecific(key) { return Unmanaged<CmarkArena>.fromOpaque(p).takeUnretainedValue() }
        let arena = CmarkArena()
        pthread_setspecific(key, Unmanaged.passRetained(arena).toOpaque())
        return arena
    }

    private func destroy() {
        reset()
        for c in chunks { Glibc.free(c.base) }
        mem.deallocate()
    }

    func allocate(_ size: Int, zeroed: Bool) -> UnsafeMutableRawPointer {
        let rounded = (size + 15) & ~15
        let need = rounded + Self.header
        if need > Self.chunkSize / 4 {
            let p = Glibc.malloc(need)!
            large.append(p)
            p.storeBytes(of: size, as: Int.self)
            if zeroed { memset(p + Self.header, 0, size) }
            return p + Self.header
        }
        if top + need > end {
            chunk += 1
            if chunk == chunks.count { chunks.append((Glibc.malloc(Self.chunkSize)!, Self.chunkSize)) }
            top = chunks[chunk].base
            end = top + chunks[chunk].size
        }
        top.storeBytes(of: size, as: Int.self)
        let p = top + Self.header
        top += need
        last = p
        if zeroed { memset(p, 0, size) }
        return p
    }

    func reallocate(_ p: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer {
        guard let p else { return allocate(size, zeroed: false) }
        let old = (p - Self.header).load(as: Int.self)
        if p == last, p + ((size + 15) & ~15) <= end {
            // The newest block grows in place.
            (p - Self.header).storeBytes(of: size, as: Int.self)
            top = p + ((size + 15) & ~15)
            return p
        }
        let q = allocate(size, zeroed: false)
        memcpy(q, p, min(old, size))
        return q
    }

    func free(_ p: UnsafeMutableRawPointer?) {
        guard let p, p == last else { return }
        top = p - Self.header
        last = nil
    }

    /// Frees every block; chunks beyond the first few are returned to malloc.
    func reset() {
        for p in large { Glibc.free(p) }
        large.removeAll(keepingCapacity: true)
        while chunks.count > 8 { Glibc.free(chunks.removeLast().base) }
        chunk = 0
        top = chunks[0].base
        end = top + chunks[0].size
        last = nil
    }
}

/// Bytes of a NUL-terminated literal cmark owns, valid until the node changes.
fileprivate func literalBytes(_ node: OpaquePointer) -> UnsafeRawBufferPointer {
    guard let literal = cmark_node_get_literal(node) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
    return UnsafeRawBufferPointer(start: literal, count: strlen(literal))
}

/// One pass over the tree that collects the plain text and the headings; with `unsafe`, it
/// also swaps each heading for a custom block holding its HTML with the `id` in place.
///
/// cmark's HTML renderer has no hook for attributes. In safe mode the ids go in while the
/// HTML is copied out (see `takeHTML(_:_:ids:titleLeads:)`). With `unsafe`, raw HTML may
/// contain `<h2>` itself, so each heading is rendered on its own and handed back as a custom
/// block's `on_enter` (which cmark emits verbatim), which never scans HTML.
fileprivate struct Walk {
    let options: Int32
    /// Whether headings are re-rendered into custom blocks (only with `unsafe`).
    var rewritesHeadings: Bool { options & CMARK_OPT_UNSAFE != 0 }
    /// Safe mode: the title heading is the document's first block.
    var titleLeads = false
    var text: [UInt8] = []
    var headings: [Heading] = []
    var title: String?
    /// The UTF-8 length of the title heading's HTML when it opens the document, else 0.
    var leadingTitleBytes = 0
    var usedIDs: Set<String> = []
    var nextSuffix: [String: Int] = [:]
    var headingStart = 0
    var links: [MarkdownLink] = []

    let mem: UnsafeMutablePointer<cmark_mem>

    init(options: Int32, mem: UnsafeMutablePointer<cmark_mem>, capacity: Int) {
        self.options = options
        self.mem = mem
        text.reserveCapacity(capacity)
    }

    mutating func run(_ document: OpaquePointer) {
        guard let iterator = cmark_iter_new(document) else { return }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { break }
            let entering = event == CMARK_EVENT_ENTER
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                text.append(contentsOf: literalBytes(node))
            case CMARK_NODE_SOFTBREAK:
                text.append(0x20)
            case CMARK_NODE_LINEBREAK:
                text.append(0x0A)
            case CMARK_NODE_CODE_BLOCK:
                endBlock()
                text.append(contentsOf: literalBytes(node))
                endBlock()
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE, CMARK_NODE_THEMATIC_BREAK:
                break
            case CMARK_NODE_LINK:
                if entering, let url = cmark_node_get_url(node) {
                    links.append(MarkdownLink(url: String(cString: url), line: Int(cmark_node_get_start_line(node)), column: Int(cmark_node_get_start_column(node))))
                }
            case CMARK_NODE_HEADING:
                if entering {
                    endBlock()
                    headingStart = text.count
                } else if rewritesHeadings {
                    let replacement = finishHeading(node)
                    endBlock()
                    // The heading is gone from the tree; resume from its stand-in.
                    cmark_iter_reset(iterator, replacement, CMARK_EVENT_EXIT)
                } else {
                    let plain = recordHeading(node)
                    if title == nil && headings[headings.count - 1].level == 1 {
                        title = plain
                        titleLeads = cmark_node_previous(node) == nil
                            && cmark_node_parent(node).map { cmark_node_get_type($0) == CMARK_NODE_DOCUMENT } == true
                    }
                    endBlock()
                }
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_BLOCK_QUOTE, CMARK_NODE_LIST, CMARK_NODE_ITEM,
                 CMARK_NODE_CUSTOM_BLOCK:
                if !entering { endBlock() }
            default:
                // Inline containers (emphasis, links, images) and the document add no breaks.
                break
            }
        }
    }

    /// Records the heading, replaces it in the tree and frees it; returns the replacement.
    mutating func finishHeading(_ node: OpaquePointer) -> OpaquePointer {
        let plain = recordHeading(node)
        let level = headings[headings.count - 1].level
        let id = headings[headings.count - 1].id

        // cmark renders a heading as `<hN>…</hN>\n`: the id goes after the first three bytes.
        var rendered = takeHTML(cmark_render_html(node, options), mem)
        rendered = "<h\(level) id=\"\(id)\"" + rendered.dropFirst(3)

        guard let block = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, mem) else { return node }
        cmark_node_set_on_enter(block, rendered)
        guard cmark_node_replace(node, block) == 1 else {
            cmark_node_free(block)
            return node
        }
        if level == 1 && title == nil {
            title = plain
            if cmark_node_previous(block) == nil,
               let parent = cmark_node_parent(block), cmark_node_get_type(parent) == CMARK_NODE_DOCUMENT {
                leadingTitleBytes = rendered.utf8.count
            }
        }
        cmark_node_free(node)
        return block
    }

    /// Adds the heading that ends here to `headings`; returns its plain text.
    mutating func recordHeading(_ node: OpaquePointer) -> String {
        let plain = String(decoding: text[headingStart...], as: UTF8.self)
        headings.append(Heading(level: Int(cmark_node_get_heading_level(node)), text: plain, id: uniqueID(for: plain)))
        return plain
    }

    /// Slugs are letters, digits and `-` only, so the id needs no escaping in the attribute.
    mutating func uniqueID(for plain: String) -> String {
        let slug = Slug.make(plain)
        let base = slug.isEmpty ? "section" : slug
        var id = base
        if usedIDs.contains(id) {
            var n = nextSuffix[base, default: 1]
            repeat {
                id = "\(base)-\(n)"
                n += 1
            } while usedIDs.contains(id)
            nextSuffix[base] = n
        }
        usedIDs.insert(id)
        return id
    }

    mutating func endBlock() {
        if let last = text.last, last != 0x0A { text.append(0x0A) }
    }

    func plainText() -> String {
        var end = text.count
        while end > 0 && text[end - 1] == 0x0A { end -= 1 }
        return String(decoding: text[..<end], as: UTF8.self)
    }
}
