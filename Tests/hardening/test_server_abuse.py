"""`sift serve` under abuse on loopback (docs/serve.md, docs/limits.md): idle and slow-dripping
connections, oversized request lines and heads, malformed requests, 1,000 connections at once.
After each, the server is alive and answers an ordinary GET at once. Every socket has a timeout.
"""
import re
import select
import shutil
import socket
import subprocess
import threading
import time

import pytest

from harden import SIFT, scratch, write_items

TIMEOUT = 5


@pytest.fixture(scope="module")
def server():
    site = scratch("sift-serve-abuse-")
    write_items(site, [(f"Item {i}", "ABC"[i % 3], "note") for i in range(20)])
    proc = subprocess.Popen([SIFT, "serve", "--site", str(site), "--port", "0", "--no-watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    port = None
    deadline = time.monotonic() + 30
    lines = []
    while port is None and time.monotonic() < deadline:
        line = proc.stdout.readline()
        lines.append(line)
        m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        port = int(m.group(1)) if m else None
    assert port, f"no address printed: {lines}"
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()
    yield proc, port
    proc.kill()
    proc.wait(timeout=10)
    shutil.rmtree(site, ignore_errors=True)


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    s.settimeout(TIMEOUT)
    return s


def exchange(port, raw: bytes, read_for=TIMEOUT) -> bytes:
    """Sends raw bytes and reads until the server closes or `read_for` seconds pass."""
    with connect(port) as s:
        try:
            s.sendall(raw)
        except (BrokenPipeError, ConnectionResetError):
            pass
        out = b""
        end = time.monotonic() + read_for
        s.settimeout(read_for)
        while time.monotonic() < end and not complete(out):
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                break
            except ConnectionResetError:
                break
            if not chunk:
                break
            out += chunk
        return out


def complete(response: bytes) -> bool:
    """A whole response is in: its head, and as many body bytes as Content-Length says."""
    head, sep, body = response.partition(b"\r\n\r\n")
    if not sep:
        return False
    m = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
    return len(body) >= int(m.group(1)) if m else True


def status(response: bytes):
    m = re.match(rb"HTTP/1\.[01] (\d{3})", response)
    return int(m.group(1)) if m else None


def healthy(proc, port, within=1.0):
    assert proc.poll() is None, "the server died"
    start = time.monotonic()
    r = exchange(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    assert status(r) == 200, r[:200]
    assert time.monotonic() - start < within, f"a plain GET took {time.monotonic() - start:.2f} s"


def test_oversized_request_line_and_head(server):
    proc, port = server
    assert status(exchange(port, b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")) == 414
    head = b"GET / HTTP/1.1\r\nHost: x\r\n" + b"".join(b"X-%d: %s\r\n" % (i, b"v" * 1000) for i in range(80)) + b"\r\n"
    assert status(exchange(port, head)) == 431
    # A header that never ends: answered 431 and closed after 64 KB, not buffered without end.
    with connect(port) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Long: ")
        sent, answer = 0, b""
        try:
            while sent < 10_000_000:
                s.sendall(b"v" * 65536)
                sent += 65536
        except (BrokenPipeError, ConnectionResetError, socket.timeout):
            pass
        try:
            answer = s.recv(4096)
        except (ConnectionResetError, socket.timeout):
            pass
        assert sent < 10_000_000, "the server kept reading a 10 MB header"
        assert answer == b"" or status(answer) == 431, answer[:100]
    healthy(proc, port)


MALFORMED = [
    b"\r\n\r\n",
    b"GET\r\n\r\n",
    b"GET / HTTP/9.9\r\nHost: x\r\n\r\n",
    b"GET / HTTP/1.1\r\n\r\n",                                   # no Host
    b"GET / HTTP/1.1\r\nHost x\r\n\r\n",                          # no colon
    b"GET / HTTP/1.1\r\nHost : x\r\n\r\n",                        # space before the colon
    b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /%00 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /../../../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET http://evil/ HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" + bytes(range(256)) * 2,   # a TLS ClientHello
    bytes(range(256)) * 16,
    b"\xff\xfe GET / HTTP/1.1\r\nHost: \xff\r\n\r\n",
]
# Odd but answerable: a 200 is as good as a 4xx for these.
ODD = [
    b"GET / HTTP/1.1\r\nHost: x\r\nRange: bytes=99999999999-1\r\n\r\n",
    b"GET / HTTP/1.1\nHost: x\n\n",                              # bare LF
    b"GET / HTTP/1.1\r\nHost: x\r\n" + b"A: b\r\n" * 2000 + b"\r\n",   # 2,000 headers in 12 KB
]


def test_malformed_requests_get_a_4xx_or_a_close(server):
    proc, port = server
    for raw in MALFORMED + ODD:
        r = exchange(port, raw, read_for=1)
        code = status(r)
        assert code is None or 400 <= code < 500 or (raw in ODD and code == 200), (raw[:60], r[:120])
        assert b"root:" not in r, "a traversal escaped the site"
        assert proc.poll() is None, f"the server died on {raw[:60]!r}"
    healthy(proc, port)


def test_idle_and_slow_connections_do_not_block_others(server):
    proc, port = server
    idle = [connect(port) for _ in range(150)]
    drippers = [connect(port) for _ in range(50)]
    try:
        for s in drippers:
            s.sendall(b"GET / HTTP/1.1\r\n")
        for _ in range(3):
            for s in drippers:
                s.sendall(b"X")
            healthy(proc, port)
            time.sleep(0.5)
        # The head must arrive within 10 s: the server answers 408 and closes the slow ones.
        start = time.monotonic()
        closed = 0
        for s in drippers + idle:
            s.settimeout(max(0.1, 13 - (time.monotonic() - start)))
            try:
                r = s.recv(4096)
                closed += 1
                assert r == b"" or status(r) == 408, r[:100]
            except (socket.timeout, ConnectionResetError):
                pass
        assert closed == len(drippers) + len(idle), f"only {closed} of {len(drippers) + len(idle)} slow connections were closed"
        healthy(proc, port)
    finally:
        for s in idle + drippers:
            s.close()


def test_a_thousand_connections_at_once(server):
    proc, port = server
    socks = []
    try:
        for _ in range(1000):
            socks.append(connect(port))
        for s in socks:
            try:
                s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass
        codes = {}
        for s in socks:
            try:
                code = status(s.recv(64))
            except (ConnectionResetError, socket.timeout):
                code = "reset"
            codes[code] = codes.get(code, 0) + 1
        print(f"\n1,000 connections at once: {codes}")
        # 503 past the cap; 408 for one that sat over a second without a request while the
        # server was full (a slow machine connects the thousand over more than a second).
        assert set(codes) <= {200, 503, 408}, codes
        assert codes.get(200, 0) >= 200, codes
    finally:
        for s in socks:
            s.close()
    time.sleep(0.2)
    healthy(proc, port)


def test_a_malformed_request_closes_its_connection(server):
    proc, port = server
    with connect(port) as s:
        s.sendall(b"GET /%zz HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
        assert status(answer) == 400 and b"Connection: close" in answer, answer[:200]
    healthy(proc, port)


def test_past_the_cap_idle_connections_make_room(server):
    """300 connections that never send a byte, then 20 that have sent one request and sit
    idle: an ordinary GET is still answered with 200 at once, the oldest waiting connections
    being closed to make room."""
    proc, port = server
    quiet = [connect(port) for _ in range(300)]
    kept = []
    try:
        time.sleep(1.2)
        for _ in range(20):
            s = connect(port)
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert status(s.recv(65536)) == 200
            kept.append(s)
        start = time.monotonic()
        with connect(port) as s:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert status(s.recv(65536)) == 200
        assert time.monotonic() - start < 1, "the newcomer waited for a slot"
        # Those closed to make room had sent nothing: each is told why (408). Which quiet ones
        # were the oldest waiting depends on when their threads started, and a kept-alive one
        # served just before is closed first, so every quiet connection is looked at, not the
        # first twenty (CI once saw none of those twenty chosen).
        answers = {}
        deadline = time.monotonic() + 2
        pending = list(quiet)
        while pending and time.monotonic() < deadline:
            ready, _, _ = select.select(pending, [], [], max(0, deadline - time.monotonic()))
            if not ready:
                break
            for s in ready:
                pending.remove(s)
                try:
                    r = s.recv(4096)
                except ConnectionResetError:
                    r = b""
                code = status(r) if r else "closed"
                answers[code] = answers.get(code, 0) + 1
        print(f"\nquiet connections after the newcomer: {answers}")
        assert set(answers) <= {408, 503, "closed"}, answers
        assert answers.get(408, 0) > 0, f"no connection closed to make room got a 408: {answers}"
    finally:
        for s in quiet + kept:
            s.close()
    healthy(proc, port)
