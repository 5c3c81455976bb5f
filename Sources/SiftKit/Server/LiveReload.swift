import Foundation

/// The build state that open pages follow through Server-Sent Events at `/__sift/events`.
final class LiveReload: @unchecked Sendable {
    /// What the last build did.
    enum State: Equatable, Sendable {
        case ok
        /// The error lines, `path:line:column: error: message`.
        case failed([String])
    }

    private let condition = NSCondition()
    private var _builds = 0
    private var _state = State.ok
    private var _version = 0
    private var stopped = false

    /// Successful builds so far; pages carry the number they were served at.
    var builds: Int {
        condition.lock(); defer { condition.unlock() }
        return _builds
    }

    /// Records a build that succeeded: open pages reload.
    func succeeded() { publish { $0._builds += 1; $0._state = .ok } }

    /// Records a build that failed: open pages show the errors and keep their content.
    func failed(_ lines: [String]) { publish { $0._state = .failed(lines) } }

    /// Wakes every stream so that it ends.
    func stop() { publish { $0.stopped = true } }

    private func publish(_ change: (LiveReload) -> Void) {
        condition.lock()
        change(self)
        _version += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until something is published after `version` or `timeout` passes; nil once stopped.
    private func next(after version: Int, timeout: Double) -> (version: Int, builds: Int, state: State)? {
        condition.lock(); defer { condition.unlock() }
        let until = Date().addingTimeInterval(timeout)
        while _version == version && !stopped {
            if !condition.wait(until: until) { break }
        }
        return stopped ? nil : (_version, _builds, _state)
    }

    private func snapshot() -> (version: Int, builds: Int, state: State) {
        condition.lock(); defer { condition.unlock() }
        return (_version, _builds, _state)
    }

    /// The `/__sift/events` response: `hello` with the build number first (a page served
    /// before the latest build reloads at once), then `reload` after each good build and
    /// `build-error` with the error lines after a bad one. Comments every 10 s find closed tabs.
    func events() -> HTTPReply {
        let head = HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store")])
        return .stream(head: head) { writer in
            var (version, builds, state) = self.snapshot()
            var text = "retry: 500\n\nevent: hello\ndata: \(builds)\n\n"
            if case .failed(let lines) = state { text += LiveReload.errorEvent(lines) }
            guard writer.write(Array(text.utf8)) else { return }
            while true {
                guard let now = self.next(after: version, timeout: 10) else { return }
                var out = ": ping\n\n"
                if now.version != version {
                    if now.builds != builds { out = "event: reload\ndata: \(now.builds)\n\n" }
                    else if case .failed(let lines) = now.state { out = LiveReload.errorEvent(lines) }
                }
                (version, builds, state) = now
                guard writer.write(Array(out.utf8)) else { return }
            }
        }
    }

    static func errorEvent(_ lines: [String]) -> String {
        // One data: line per error line; the browser joins them with "\n".
        let data = lines.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }.map { "data: \($0)\n" }.joined()
        return "event: build-error\n\(data.isEmpty ? "data: build failed\n" : data)\n"
    }

    /// The tag `serve` puts before `</body>` of every HTML page it sends.
    func scriptTag() -> String { "<script src=\"/__sift/live.js?v=\(builds)\"></script>" }

    /// `/__sift/live.js`: an external file, so pages with a strict Content-Security-Policy keep working.
    static let script = #"""
        // Live reload for `sift serve` (never part of `sift build` output): reloads the page
        // after each good build, shows a bad build's errors over the page until the next one.
        (() => {
          const me = document.currentScript;
          const served = me ? new URL(me.src, location.href).searchParams.get("v") : null;
          let overlay = null;
          const hide = () => { if (overlay) { overlay.remove(); overlay = null; } };
          const show = (text) => {
            hide();
            overlay = document.createElement("div");
            overlay.setAttribute("role", "alert");
            overlay.dataset.siftBuildError = "";
            Object.assign(overlay.style, {
              position: "fixed", inset: "0", zIndex: "2147483647", overflow: "auto", padding: "2rem",
              background: "rgba(20, 0, 0, 0.92)", color: "#fff", font: "14px/1.5 ui-monospace, monospace",
            });
            const title = document.createElement("strong");
            title.textContent = "sift: the build failed; this page is the last good one";
            const lines = document.createElement("pre");
            Object.assign(lines.style, { whiteSpace: "pre-wrap", color: "#ffb4b4" });
            lines.textContent = text;
            const close = document.createElement("button");
            close.type = "button";
            close.textContent = "Close";
            close.addEventListener("click", hide);
            overlay.append(title, lines, close);
            document.body.append(overlay);
          };
          const events = new EventSource("/__sift/events");
          events.addEventListener("hello", (e) => {
            if (served !== null && e.data !== served) location.reload();
            else hide();
          });
          events.addEventListener("reload", () => location.reload());
          events.addEventListener("build-error", (e) => show(e.data));
        })();

        """#
}
