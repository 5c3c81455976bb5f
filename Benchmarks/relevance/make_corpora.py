#!/usr/bin/env python3
"""Turns Debian's manual pages into the relevance benchmark's sites (see docs/relevance.md).

For each corpus (en, zh, ja) it writes, under OUT/<corpus>/:
  sift/Content/man/*.md     one Markdown page per manual page, a Sift collection (search_fields: [title], search_body: true)
  hugo/content/man/*.md     the same files, byte for byte, in a Hugo site whose pages Pagefind indexes
  pages.json                slug -> title and plain text (title + body, Markdown escapes removed), for the
                            recall ground truth and to check that every judged slug exists

Pages come from the packages' own file lists (`dpkg -L`), so the corpus is the same on every Debian 12 machine
with the same package versions. A page is rendered by mandoc (`-T utf8`, wide lines so that paragraphs are not
wrapped), its overstrike removed; lines at column 0 become `##` headings, lines indented by 3 `###` headings,
everything else paragraphs. Symbolic links and `.so` stubs (aliases of another page) are skipped.

Usage: make_corpora.py OUT [--only en,zh,ja]
       make_corpora.py --packages      the Debian packages the corpora (and their conversion) need
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

# English: the man-pages project (sections 2-7) and the commands a reader of a Linux system looks up.
EN_PACKAGES = """manpages manpages-dev coreutils findutils grep sed tar gzip bzip2 xz-utils zip unzip passwd login
util-linux mount procps psmisc lsof openssh-client git-man curl wget iproute2 net-tools systemd diffutils patch make
less man-db file strace bsdextrautils bsdutils hostname mawk binutils-common libc-bin systemd-sysv apt""".split()

CORPORA = {
    # name: (packages, man directory prefix, language, site title)
    "en": (EN_PACKAGES, "/usr/share/man/man", "en", "Linux manual pages"),
    # the translations that ship with the programs themselves (passwd, apt, ...) join those of manpages-zh/-ja
    "zh": (["manpages-zh"] + EN_PACKAGES, "/usr/share/man/zh_CN/man", "zh-cn", "Linux 中文手册页"),
    "ja": (["manpages-ja"] + EN_PACKAGES, "/usr/share/man/ja/man", "ja", "Linux 日本語マニュアル"),
}

PAGE_RE = re.compile(r"/man([1-8])/([^/]+)\.([1-8][a-z0-9]*)\.gz$")
OVERSTRIKE = re.compile(r".\x08")
MD_ESCAPE = re.compile(r"([\\`*_\[\]<>#|~&!])")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def slugify(s):
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-")


def page_files(packages, prefix):
    files = []
    for pkg in packages:
        out = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True).stdout
        for path in out.splitlines():
            if path.startswith(prefix) and PAGE_RE.search(path) and os.path.isfile(path) and not os.path.islink(path):
                files.append(path)
    return sorted(set(files))


def render(path):
    with gzip.open(path, "rb") as f:
        src = f.read()
    if re.match(rb"\s*\.so\s", src[:300]) and src.count(b"\n") <= 3:
        return None                                         # an alias of another page
    r = subprocess.run(["mandoc", "-K", "utf-8", "-T", "utf8", "-O", "width=900"],
                       input=src, capture_output=True)
    text = OVERSTRIKE.sub("", r.stdout.decode("utf-8", "replace"))
    return text if text.strip() else None


def escape_line(line):
    line = MD_ESCAPE.sub(r"\\\1", line)
    # a line that CommonMark would read as a list item, a setext underline or a thematic break
    line = re.sub(r"^([-+=])", r"\\\1", line)
    line = re.sub(r"^(\d+)([.)])", r"\1\\\2", line)
    return line


def convert(text):
    """mandoc's text -> (name line, [(level, heading)], markdown body, plain body)."""
    lines = text.split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    lines = lines[1:-1]                                     # the running header and footer
    md, plain, para = [], [], []
    first_para_of = {}
    current = None

    def flush():
        if para:
            md.append("\n".join(escape_line(p) for p in para))
            plain.append(" ".join(para))
            if current is not None and current not in first_para_of:
                first_para_of[current] = " ".join(para)
            para.clear()

    for raw in lines:
        if not raw.strip():
            flush()
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        s = raw.strip()
        if indent == 0:
            flush()
            current = len(md)
            md.append("## " + escape_line(s))
            plain.append(s)
        elif indent <= 4 and len(s) < 80:
            flush()
            md.append("### " + escape_line(s))
            plain.append(s)
        else:
            para.append(s)
    flush()
    name_line = first_para_of.get(min(first_para_of)) if first_para_of else ""
    return name_line, "\n\n".join(md) + "\n", "\n".join(plain)


def title_for(name, name_line):
    desc = ""
    m = re.search(r"\s[-\u2010-\u2015\u2212]{1,2}\s*(.+)$", name_line or "") or re.search(r"[-\u2014]\s*(.+)$", name_line or "")
    if m:
        desc = m.group(1).strip()
    desc = re.sub(r"\s+", " ", desc)
    return f"{name} — {desc}" if desc else name


def write_site(out, corpus, pages):
    packages, _, lang, site_title = CORPORA[corpus]
    base = os.path.join(out, corpus)
    if os.path.exists(base):
        shutil.rmtree(base)
    sift_dir = os.path.join(base, "sift", "Content", "man")
    hugo_dir = os.path.join(base, "hugo", "content", "man")
    os.makedirs(sift_dir)
    os.makedirs(hugo_dir)
    os.makedirs(os.path.join(base, "hugo", "layouts", "_default"))
    with open(os.path.join(base, "sift", "Content", "site.yml"), "w") as f:
        f.write(f"title: {json.dumps(site_title, ensure_ascii=False)}\nlanguage: {lang}\n")
    with open(os.path.join(sift_dir, "collection.yml"), "w") as f:
        f.write("title: Manual pages\nsearch_fields: [title]\nsearch_body: true\n")
    hugo = os.path.join(base, "hugo")
    with open(os.path.join(hugo, "config.toml"), "w") as f:
        f.write(f'baseURL = "/"\nlanguageCode = "{lang}"\ntitle = {json.dumps(site_title, ensure_ascii=False)}\n'
                'disableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n'
                # Hugo's typographer would turn "--all" into "–all" and quotes into curly ones in what Pagefind reads.
                '[markup.goldmark.extensions]\ntypographer = false\n')
    layouts = os.path.join(hugo, "layouts")
    with open(os.path.join(layouts, "_default", "baseof.html"), "w") as f:
        f.write('<!doctype html>\n<html lang="{{ .Site.LanguageCode }}">\n<head><meta charset="utf-8">'
                '<title>{{ .Title }}</title></head>\n<body>{{ block "main" . }}{{ end }}</body>\n</html>\n')
    with open(os.path.join(layouts, "_default", "single.html"), "w") as f:
        f.write('{{ define "main" }}<main data-pagefind-body>\n<h1 data-pagefind-meta="title">{{ .Title }}</h1>\n'
                '{{ .Content }}\n</main>{{ end }}\n')
    with open(os.path.join(layouts, "_default", "list.html"), "w") as f:
        f.write('{{ define "main" }}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>'
                '{{ end }}</ul>{{ end }}\n')
    with open(os.path.join(layouts, "index.html"), "w") as f:
        f.write('<!doctype html>\n<html lang="{{ .Site.LanguageCode }}"><head><meta charset="utf-8"><title>{{ .Site.Title }}</title>'
                '</head><body><ul>{{ range .Site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>'
                '{{ end }}</ul></body></html>\n')
    meta = {}
    for p in pages:
        doc = f"---\ntitle: {json.dumps(p['title'], ensure_ascii=False)}\nslug: {p['slug']}\n---\n\n{p['md']}"
        for d in (sift_dir, hugo_dir):
            with open(os.path.join(d, p["slug"] + ".md"), "w") as f:
                f.write(doc)
        meta[p["slug"]] = {"title": p["title"], "source": p["source"], "text": p["title"] + "\n" + p["plain"]}
    with open(os.path.join(base, "pages.json"), "w") as f:
        json.dump(meta, f, ensure_ascii=False)
    versions = {}
    for pkg in packages:
        v = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True).stdout
        versions[pkg] = v
    with open(os.path.join(base, "corpus.json"), "w") as f:
        json.dump({"corpus": corpus, "lang": lang, "pages": len(pages), "packages": versions}, f, indent=1)


def build_corpus(out, corpus):
    packages, prefix, _, _ = CORPORA[corpus]
    pages, seen = [], set()
    files = page_files(packages, prefix)
    with ThreadPoolExecutor(max_workers=2) as pool:
        texts = list(pool.map(render, files))
    for path, text in zip(files, texts):
        m = PAGE_RE.search(path)
        name, section = m.group(2), m.group(3)
        slug = slugify(f"{name}-{section}")
        if not slug or slug in seen:
            continue
        if text is None:
            continue
        name_line, md, plain = convert(text)
        if not md.strip():
            continue
        seen.add(slug)
        pages.append({"slug": slug, "title": title_for(name, name_line), "md": md, "plain": plain,
                      "source": path})
    if len(pages) < 100:
        sys.exit(f"{corpus}: only {len(pages)} manual pages under {prefix}*: is /usr/share/man excluded by a "
                 "path-exclude in /etc/dpkg/dpkg.cfg.d/ (as in Docker's minimal images)? Remove it and "
                 "`apt-get install --reinstall` the packages of `make_corpora.py --packages`.")
    write_site(out, corpus, pages)
    return len(pages)


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    if args[0] == "--packages":
        print(" ".join(["mandoc", "manpages-zh", "manpages-ja"] + EN_PACKAGES))
        return
    out = args[0]
    only = args[args.index("--only") + 1].split(",") if "--only" in args else list(CORPORA)
    for corpus in only:
        n = build_corpus(out, corpus)
        print(f"{corpus}: {n} pages -> {os.path.join(out, corpus)}")


if __name__ == "__main__":
    main()
