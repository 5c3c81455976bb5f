import CCmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The only file in SiftKit that calls cmark_*. Every C pointer is created, used and freed
// inside `Markdown.render`; what leaves is plain Swift values (RenderedMarkdown, Heading,
// MarkdownLink). Each call owns its parser and tree, allocated from its thread's arena
// (ThreadArena), and libcmark 0.30 keeps no mutable globals, so pages render concurrently
// without locks.

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
        guard source.utf8.count <= ThreadArena.largestSource else {
            return render(source, options: options, mem: cmark_get_default_mem_allocator()!, inArena: false)
        }
        defer { ThreadArena.current().reset() }
        var arena = cmark_mem(
            calloc: { n, size in ThreadArena.withCurrent { $0.allocate(n * size, zeroed: true) } },
            realloc: { pointer, size in ThreadArena.withCurrent { $0.reallocate(pointer, size) } },
            free: { pointer in ThreadArena.withCurrent { $0.free(pointer) } })
        return withUnsafeMutablePointer(to: &arena) { render(source, options: options, mem: $0, inArena: true) }
    }

    /// Renders with `mem`; a tree in the arena is left for the arena's reset to free.
    private static func render(_ source: String, options: Int32, mem: UnsafeMutablePointer<cmark_mem>, inArena: Bool) -> RenderedMarkdown {
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
        defer { if !inArena { cmark_node_free(document) } }

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
            headings: walk.headings, plainText: walk.plainText(), links: walk.links, headingOffsets: walk.headingOffsets)
    }

    static let empty = RenderedMarkdown(html: "", title: nil, htmlWithoutTitle: "", headings: [], plainText: "")
}

/// Copies a string cmark allocated and frees it.
fileprivate func takeHTML(_ pointer: UnsafeMutablePointer<CChar>?, _ mem: UnsafeMutablePointer<cmark_mem>) -> String {
    guard let pointer else { return "" }
    defer { mem.pointee.free(pointer) }
    return String(cString: pointer)
}

/// Copies safe-mode HTML cmark allocated with the headings' ids in place (HeadingAnchors) and
/// frees it; also returns the UTF-8 length of the leading title heading when `titleLeads`.
fileprivate func takeHTML(_ pointer: UnsafeMutablePointer<CChar>?, _ mem: UnsafeMutablePointer<cmark_mem>,
                          ids headings: [Heading], titleLeads: Bool) -> (String, Int) {
    guard let pointer else { return ("", 0) }
    defer { mem.pointee.free(pointer) }
    return HeadingAnchors.insert(headings, into: pointer, count: strlen(pointer), titleLeads: titleLeads)
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

    /// A level-1 heading's text as a title: without the white space left where its raw HTML or
    /// an image without text was (`# Title <img src=…>` was the title "Title ").
    static func titleText(_ plain: String) -> String {
        plain.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    /// The UTF-8 length of the title heading's HTML when it opens the document, else 0.
    var leadingTitleBytes = 0
    var ids = HeadingIDs()
    var headingStart = 0
    var headingOffsets: [Int] = []
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
                        title = Self.titleText(plain)
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
            title = Self.titleText(plain)
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
        headings.append(Heading(level: Int(cmark_node_get_heading_level(node)), text: plain, id: ids.id(for: plain)))
        headingOffsets.append(headingStart)
        return plain
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
