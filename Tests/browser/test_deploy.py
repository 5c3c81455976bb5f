"""The example site as a host serves it: built with `--base-url /repo/ --precompress`, served
under /repo/ by Debian's nginx with `gzip_static on` (a project site on GitHub Pages, or any
host that serves a build's own .gz files). nginx is started and stopped by the test."""
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

import siftsite

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

CONF = """daemon off;
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    access_log off;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    map $uri $sift_cache_control {{
        "~^/repo/search/immutable/"                 "public, max-age=31536000, immutable";
        "~^/repo/assets/.+\\.[0-9a-f]{{12}}\\.[^./]+$"  "public, max-age=31536000, immutable";
        default                                     "public, max-age=0, must-revalidate";
    }}
    server {{
        listen 127.0.0.1:{port};
        gzip_static on;
        add_header Cache-Control $sift_cache_control;
        location /repo/ {{ alias {tmp}/site/public/; }}
    }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def nginx():
    if not os.path.exists(NGINX):
        pytest.fail("nginx is missing: make browser-deps installs it (apt-get install nginx-light)")
    tmp = Path(tempfile.mkdtemp(prefix="sift-nginx-"))
    os.chmod(tmp, 0o755)  # nginx's workers run as an unprivileged user
    subprocess.run([siftsite.SIFT, "build", "--site", str(siftsite.REPO), "--output", str(tmp / "site/public"),
                    "--base-url", "/repo/", "--precompress", "--quiet"], check=True)
    port = free_port()
    (tmp / "nginx.conf").write_text(CONF.format(tmp=tmp, port=port))
    proc = subprocess.Popen([NGINX, "-p", str(tmp), "-c", str(tmp / "nginx.conf")], stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            break
        except OSError:
            time.sleep(0.05)
    try:
        yield url, tmp / "site/public"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)


def test_search_under_a_subpath_with_precompressed_files(page, nginx):
    url, built = nginx
    encodings = {}
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    headers = {}
    page.on("response", lambda r: encodings.__setitem__(r.url, r.headers.get("content-encoding")))
    page.on("response", lambda r: headers.__setitem__(r.url, r.headers.get("cache-control")))
    page.goto(url + "/repo/candies/")
    page.get_by_role("searchbox").fill("choc")
    expected = siftsite.search(built, "choc", collection="candies")
    # Each row's own link (links to the sections of a body match follow it).
    expect(page.locator("[data-sift-list=candies] > li > a:first-child:visible")).to_have_count(expected["total"])
    assert [r["url"] for r in expected["results"]][0].startswith("/repo/candies/")
    assert requests and all(u.startswith(url + "/repo/") for u in requests), [u for u in requests if not u.startswith(url + "/repo/")]
    manifest = url + "/repo/search/manifest.json"
    assert encodings.get(manifest) == "gzip", encodings
    assert (built / "search/manifest.json.gz").exists()
    # The cache headers of docs/deploy.md's nginx block: what _headers says.
    rules = {line.strip() for line in (built / "_headers").read_text().splitlines()}
    immutable = [u for u in headers if "/search/immutable/" in u or re.search(r"/assets/.+\.[0-9a-f]{12}\.", u)]
    assert immutable and "/repo/search/immutable/*" in rules
    for u in immutable:
        assert headers[u] == "public, max-age=31536000, immutable", u
    assert headers[manifest] == "public, max-age=0, must-revalidate"
    # The page loads the assets by their immutable names, compressed too.
    for stem, ext in [("sift", "js"), ("sift-core", "js"), ("sift", "css")]:
        loaded = [u for u in encodings if re.fullmatch(rf"{url}/repo/assets/{stem}\.[0-9a-f]{{12}}\.{ext}", u)]
        assert loaded and all(encodings[u] == "gzip" for u in loaded), (stem, ext, encodings)
