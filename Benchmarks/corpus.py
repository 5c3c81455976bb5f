#!/usr/bin/env python3
"""The synthetic corpus `make bench` builds: N fictional places, each a CSV row and a Markdown page.

    python3 Benchmarks/corpus.py N OUTDIR [--seed 42] [--layouts sift,hugo] [--pages-every K] [--per-page P] [--force]

Writes, under OUTDIR:

    sift/         Content/site.yml, Content/items/{collection.yml, items.csv, <slug>.md}; items.csv
                  also holds three facet columns (climate, coastal, languages: 1 or 2 a cell)
    hugo/         config.toml, layouts/ (home page = every item sorted by title; detail pages
                  marked for Pagefind: data-pagefind-body, data-pagefind-meta="title",
                  data-pagefind-filter="category"), content/items/<slug>.md
    corpus.json   totals, category counts, name mix, and three query terms: a frequent word,
                  a mid-frequency word and a rare pseudo-word

`--pages-every K` writes a page for every K-th item only (0, K, 2K, ...: `make bench-1m` uses 10, a
page for 10 % of a million rows); the rows, and the pages written, are those of the full corpus.
`--per-page P` sets the sift collection's `per_page`. The Markdown pages are the same bytes in both layouts. Each page has YAML front matter
(`title`, `category`) and a body of 260-700 generated words (more once the last section is
finished) with ## and ### headings, lists, *em*, **strong**, inline code, blockquotes, links
to other items and to https://example.org/, and one fenced code block.

Deterministic from (N, seed) and nothing else (standard library only): item i draws from its
own random generator, seeded with (seed, i), and links only to items before it, so a smaller
corpus is a prefix of a larger one (the 1k corpus is the first 1,000 rows and pages of the 10k).

The shape follows the corpus docs/ measured its figures on, so that they stay comparable:
a 12,000-word vocabulary drawn with Zipf weights (exponent 1.05), "harbor" at rank 140 and
"volcano" at rank 212 (in about 30 % and 20 % of pages), the rare term at rank 5,000 (about 1 %);
names about 78 % plain Latin, 14 % with diacritics, 6 % Hanzi, 2 % Hangul; eight categories,
each item's drawn uniformly.
"""
import argparse
import csv
import itertools
import json
import os
import random
import re
import shutil
import sys
import unicodedata

# Written into corpus.json; change it when the output changes, so `make bench` regenerates
# the corpora a previous run left in its work folder.
GENERATOR = "Benchmarks/corpus.py 1"

CATEGORIES = ["Africa", "Asia", "Europe", "North America", "South America",
              "Oceania", "Middle East", "Caribbean"]
# Facet columns of items.csv (collection.yml's `facets`), drawn from a generator of their own so
# the names and bodies stay as they were: a climate (skewed), coastal or not, and one or two
# languages (a cell split on `list_separator`, the commoner ones likelier, in this order).
CLIMATES = ["Temperate", "Tropical", "Arid", "Continental", "Polar", "Mediterranean"]
CLIMATE_WEIGHTS = [30, 25, 18, 15, 4, 8]
LANGUAGES = ["English", "Spanish", "French", "Arabic", "Portuguese", "Russian", "Mandarin", "Swahili"]
LANGUAGE_WEIGHTS = [1 / (k + 1) for k in range(len(LANGUAGES))]


def facet_columns(seed, i):
    """An item's climate, coastal and languages cells."""
    rng = random.Random(f"{seed}/facets/{i}")
    climate = rng.choices(CLIMATES, CLIMATE_WEIGHTS)[0]
    coastal = "Yes" if rng.random() < 0.7 else "No"
    languages = set(rng.choices(LANGUAGES, LANGUAGE_WEIGHTS, k=rng.choice([1, 1, 2])))
    return climate, coastal, ",".join(l for l in LANGUAGES if l in languages)


# ---------------------------------------------------------------------------------------------
# Vocabulary: real English words at the top ranks, pseudo-words for the long tail.

COMMON_WORDS = """
the of and to in a is that for it as was with be by on not he this are or his from at which
but have an they you were her she there one all we their been has would more when if no out
so what up can its about into them than some could time these two may then do first any my
now such like our over man me even most made after also did many before must through back
years where much your way well down should because each just those people how too little
state good very make world still own see men work long get here between both life being
under never day same another know while last might us great old year off come since against
go came right used take three
""".split()

PLACE_WORDS = """
river mountain valley coast island capital border trade market festival railway bridge museum
cathedral harbour desert forest lake plateau climate rainfall export import population language
currency parliament province district village city town port airport highway culture cuisine
music dance literature history empire colony independence treaty economy agriculture fishing
mining textile tourism industry coffee tea rice wheat cotton copper gold silver oil gas timber
wool sugar cocoa banana spice salt monsoon glacier canyon delta estuary archipelago peninsula
steppe tundra savanna rainforest reef lagoon fjord strait gulf bay cape summit ridge basin
ancient medieval modern colonial royal federal national regional local coastal northern southern
eastern western central upper lower new small ceremony tradition ritual pilgrimage monastery
temple mosque shrine fortress palace castle garden square avenue boulevard quarter harbourfront
""".split()

VOCABULARY_SIZE = 12_000
ZIPF_EXPONENT = 1.05
# The suggested query terms and the ranks they are put at.
FREQUENT_TERM, FREQUENT_RANK = "harbor", 140
MID_TERM, MID_RANK = "volcano", 212
RARE_RANK = 5_000

# Syllables for pseudo-words (the vocabulary's tail) ...
WORD_ONSETS = ["", "", "b", "bl", "br", "c", "ch", "d", "dr", "f", "fl", "g", "gr", "h", "j", "k",
               "kr", "l", "m", "n", "p", "pr", "qu", "r", "s", "sh", "sl", "st", "t", "th", "tr",
               "v", "w", "z"]
WORD_VOWELS = ["a", "e", "i", "o", "u", "y", "ai", "ae", "ea", "ia", "io", "ou"]
WORD_CODAS = ["", "", "", "l", "m", "n", "nd", "ng", "r", "rt", "s", "sk", "st", "x"]


class Vocabulary:
    """Words ranked by frequency; `words(rng, k)` draws k of them with Zipf weights."""

    def __init__(self, seed):
        rng = random.Random(f"{seed}/vocabulary")
        ranked = list(dict.fromkeys(COMMON_WORDS + PLACE_WORDS))
        taken = set(ranked) | {FREQUENT_TERM, MID_TERM}
        while len(ranked) < VOCABULARY_SIZE - 2:
            word = "".join(rng.choice(WORD_ONSETS) + rng.choice(WORD_VOWELS) + rng.choice(WORD_CODAS)
                           for _ in range(rng.choice([1, 2, 2, 3, 3, 4])))
            if 3 <= len(word) <= 14 and word not in taken:
                taken.add(word)
                ranked.append(word)
        ranked.insert(FREQUENT_RANK, FREQUENT_TERM)
        ranked.insert(MID_RANK, MID_TERM)
        self.ranked = ranked
        self.cumulative = list(itertools.accumulate(1 / (rank + 1) ** ZIPF_EXPONENT
                                                    for rank in range(len(ranked))))

    def words(self, rng, k):
        return rng.choices(self.ranked, cum_weights=self.cumulative, k=k)

    def query_terms(self):
        return {"frequent": FREQUENT_TERM, "mid": MID_TERM, "rare": self.ranked[RARE_RANK]}


# ---------------------------------------------------------------------------------------------
# Names: "Vorania", "Republic of Tessmar", "Saint Bréluna", "腊罗美" (slug la-luo-mei), "서울".

NAME_ONSETS = ["", "", "b", "br", "ch", "d", "g", "k", "l", "m", "n", "p", "r", "s", "sh", "st",
               "t", "tr", "v", "z"]
NAME_VOWELS = ["a", "a", "e", "i", "o", "o", "u", "ai", "ia", "ou"]
ACCENTED_VOWELS = ["á", "å", "ã", "ç", "é", "è", "ë", "í", "ñ", "ô", "ö", "ø", "ú", "ü"]
NAME_CODAS = ["", "", "", "", "l", "n", "r", "s"]
NAME_ENDINGS = ["", "ania", "avia", "burg", "eria", "esia", "heim", "ia", "ica", "ivia", "land",
                "mar", "onia", "ora", "ovo", "stan", "uay"]
# (pattern, weight): {0} and {1} are made-up words.
NAME_PATTERNS = [("{0}", 30), ("{0} {1}", 14), ("Republic of {0}", 6), ("New {0}", 5),
                 ("Kingdom of {0}", 4), ("{0} and {1}", 4), ("Saint {0}", 4), ("{0} Islands", 4),
                 ("{0}-sur-{1}", 3), ("Côte d'{0}", 3), ("North {0}", 3), ("São {0}", 2),
                 ("United {0} States", 2), ("Federated States of {0}", 1), ("Grand Duchy of {0}", 1)]
# Characters with their romanisation, which the slug is made of.
HANZI = list(zip("俄罗斯中华日本韩国美利坚法兰西德意大澳加拿巴印度尼泰越南北东新坡马来亚埃及希腊瑞典士葡萄牙智秘鲁古海",
                 "e luo si zhong hua ri ben han guo mei li jian fa lan xi de yi da ao jia na ba yin du ni "
                 "tai yue nan bei dong xin po ma lai ya ai ji xi la rui dian shi pu tao ya zhi bi lu gu hai".split()))
HANGUL = list(zip("서울대한민부산광주인천제도강원",
                  "seo ul dae han min bu san gwang ju in cheon je do gang won".split()))


def made_up_word(rng, accent_chance):
    """A capitalised word of two or three syllables, sometimes with a country-like ending."""
    syllables = []
    for _ in range(rng.choice([2, 2, 2, 3, 3])):
        vowel = rng.choice(ACCENTED_VOWELS) if rng.random() < accent_chance else rng.choice(NAME_VOWELS)
        syllables.append(rng.choice(NAME_ONSETS) + vowel + rng.choice(NAME_CODAS))
    word = "".join(syllables)
    if rng.random() < 0.5:
        word = word.rstrip("aeiouy") + rng.choice(NAME_ENDINGS)
    if len(word) < 3:
        word += "ra"
    return word[0].upper() + word[1:]


def draw_name(rng):
    """(name, slug or None): None means the slug is derived from the name."""
    kind = rng.random()
    if kind < 0.06:
        characters = [rng.choice(HANZI) for _ in range(rng.choice([2, 3, 3, 4]))]
    elif kind < 0.08:
        characters = [rng.choice(HANGUL) for _ in range(rng.choice([2, 3]))]
    else:
        accent_chance = 0.25 if kind < 0.25 else 0.0
        pattern = rng.choices(*zip(*NAME_PATTERNS))[0]
        return pattern.format(made_up_word(rng, accent_chance), made_up_word(rng, accent_chance)), None
    return "".join(c for c, _ in characters), "-".join(reading for _, reading in characters)


def slugify(name):
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "item"


# ---------------------------------------------------------------------------------------------
# Bodies

HEADINGS = ["Architecture", "Climate", "Cuisine", "Culture", "Demographics", "Economy",
            "Education", "Festivals", "Geography", "History", "Infrastructure", "Languages",
            "Notable people", "Politics", "See also", "Sport", "Tourism", "Trade", "Transport",
            "Wildlife"]
CODE_LANGUAGES = ["json", "python", "sh", "swift", "toml", "yaml"]


class PageWriter:
    """One item's Markdown body, from its own generator."""

    def __init__(self, rng, vocabulary, earlier_items):
        self.rng = rng
        self.vocabulary = vocabulary
        self.earlier_items = earlier_items  # (slug, name) of items it may link to
        self.word_count = 0

    def sentence(self, shortest=8, longest=22):
        count = self.rng.randint(shortest, longest)
        self.word_count += count
        words = [self.decorate(word) for word in self.vocabulary.words(self.rng, count)]
        text = " ".join(words)
        return text[0].upper() + text[1:] + "."

    def decorate(self, word):
        """About 1 word in 17 becomes *em*, **strong**, `code` or a link."""
        roll = self.rng.random()
        if roll < 0.030:
            return f"*{word}*"
        if roll < 0.045:
            return f"**{word}**"
        if roll < 0.050:
            return f"`{word}`"
        if roll < 0.058:
            if self.earlier_items and self.rng.random() < 0.7:
                slug, name = self.rng.choice(self.earlier_items)
                return f"[{name}](/items/{slug}/)"
            return f"[{word}](https://example.org/{word})"
        return word

    def paragraph(self, shortest, longest):
        return " ".join(self.sentence() for _ in range(self.rng.randint(shortest, longest)))

    def code_block(self):
        language = self.rng.choice(CODE_LANGUAGES)
        keys = self.rng.choices(self.vocabulary.ranked[:400], k=self.rng.randint(3, 6))
        values = [self.rng.randint(0, 9999) for _ in keys]
        if language == "json":
            lines = ["{", ",\n".join(f'  "{k}": {v}' for k, v in zip(keys, values)), "}"]
        elif language == "swift":
            lines = [f"let {keys[0]} = [{', '.join(str(v % 100) for v in values)}]",
                     f"print({keys[0]}.reduce(0, +))"]
        else:
            lines = [f"{k} = {v}" for k, v in zip(keys, values)]
        return [f"```{language}", *lines, "```", ""]

    def extra_block(self, heading):
        """What follows a section's paragraphs: a list, a quote, a subsection, or nothing."""
        roll = self.rng.random()
        if roll < 0.35:
            return [f"- {self.sentence(3, 9)}" for _ in range(self.rng.randint(3, 6))] + [""]
        if roll < 0.55:
            return [f"{k}. {self.sentence(3, 9)}" for k in range(1, self.rng.randint(3, 5) + 1)] + [""]
        if roll < 0.65:
            return [f"> {self.sentence()}", ""]
        if roll < 0.75:
            return [f"### {heading} in detail", "", self.paragraph(2, 4), ""]
        return []

    def body(self, name, category):
        target = self.rng.randint(260, 700)
        lines = [f"**{name}** is a fictional place in the {category} region. "
                 + self.sentence() + " " + self.sentence(), ""]
        headings = self.rng.sample(HEADINGS, len(HEADINGS))
        has_code = False
        for heading in itertools.cycle(headings):
            if self.word_count >= target:
                break
            lines += [f"## {heading}", ""]
            for _ in range(self.rng.randint(1, 3)):
                lines += [self.paragraph(2, 5), ""]
            lines += self.extra_block(heading)
            if not has_code and (self.rng.random() < 0.3 or self.word_count > 0.6 * target):
                lines += self.code_block()
                has_code = True
        if not has_code:
            lines += self.code_block()
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The corpus

def generate(n, seed, pages_every=1):
    """Yields (slug, name, category, markdown, word count) for items 0..n-1, in order; markdown is
    None (and the word count 0) but for every `pages_every`-th item (0, k, 2k, ...)."""
    vocabulary = Vocabulary(seed)
    # "page" is a paginated list's (/items/page/2/): row 497,440 would take it.
    names, slugs, earlier = set(), {"page"}, []
    for i in range(n):
        rng = random.Random(f"{seed}/item/{i}")
        name, slug = draw_name(rng)
        while name in names:  # depends only on earlier items, so prefixes stay stable
            name, slug = draw_name(rng)
        names.add(name)
        base = slug or slugify(name)
        slug = base
        for k in itertools.count(2):
            if slug not in slugs:
                break
            slug = f"{base}-{k}"
        slugs.add(slug)
        category = rng.choice(CATEGORIES)
        earlier.append((slug, name))
        if i % pages_every:
            yield slug, name, category, None, 0
            continue
        links = [earlier[rng.randrange(i)] for _ in range(4)] if i else []
        writer = PageWriter(rng, vocabulary, links)
        body = writer.body(name, category)
        front_matter = f"---\ntitle: {yaml_string(name)}\ncategory: {yaml_string(category)}\n---\n\n"
        yield slug, name, category, front_matter + body, writer.word_count


def yaml_string(text):
    """A double-quoted YAML scalar (a JSON string is one)."""
    return json.dumps(text, ensure_ascii=False)


SIFT_SITE = "title: Synthetic corpus\nbase_url: /\n"
SIFT_COLLECTION = """title: Items
title_field: name
scope_field: category
scopes: [{scopes}]
search_fields: [name, category]
list_fields: [category]
facets: [climate, coastal, languages]
list_separator: ","
"""

HUGO_CONFIG = """baseURL = "/"
languageCode = "en"
title = "Synthetic corpus"
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404", "section"]
enableGitInfo = false
[markup.goldmark.renderer]
  unsafe = false
"""
HUGO_LAYOUTS = {
    "_default/baseof.html": """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ block "title" . }}{{ .Site.Title }}{{ end }}</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}
li small{color:#666}</style>
</head>
<body>
{{ block "main" . }}{{ end }}
</body>
</html>
""",
    "_default/single.html": """{{ define "title" }}{{ .Title }} – {{ .Site.Title }}{{ end }}
{{ define "main" }}
<nav><a href="/">All items</a></nav>
<main data-pagefind-body>
<h1 data-pagefind-meta="title">{{ .Title }}</h1>
<p class="category">Category: <span data-pagefind-filter="category">{{ .Params.category }}</span></p>
{{ .Content }}
</main>
{{ end }}
""",
    "index.html": """{{ define "main" }}
{{ $items := where .Site.RegularPages "Section" "items" }}
<h1>{{ .Site.Title }}</h1>
<div id="search"></div>
<p>{{ len $items }} items</p>
<ul>
{{ range $items.ByTitle }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <small>{{ .Params.category }}</small></li>
{{ end }}</ul>
{{ end }}
""",
}


def write_file(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(text)


def write_corpus(n, outdir, seed=42, layouts=("sift", "hugo"), pages_every=1, per_page=None):
    """Writes the layouts under outdir and returns the summary also written to corpus.json."""
    page_folders = []
    if "sift" in layouts:
        write_file(os.path.join(outdir, "sift", "Content", "site.yml"), SIFT_SITE)
        scopes = ", ".join(json.dumps(c) for c in CATEGORIES)
        write_file(os.path.join(outdir, "sift", "Content", "items", "collection.yml"),
                   SIFT_COLLECTION.format(scopes=scopes) + (f"per_page: {per_page}\n" if per_page is not None else ""))
        page_folders.append(os.path.join(outdir, "sift", "Content", "items"))
    if "hugo" in layouts:
        write_file(os.path.join(outdir, "hugo", "config.toml"), HUGO_CONFIG)
        for name, text in HUGO_LAYOUTS.items():
            write_file(os.path.join(outdir, "hugo", "layouts", name), text)
        page_folders.append(os.path.join(outdir, "hugo", "content", "items"))
    for folder in page_folders:
        os.makedirs(folder, exist_ok=True)

    rows = []
    summary = {"generator": GENERATOR, "n": n, "seed": seed, "layouts": sorted(layouts), "total_words": 0,
               "total_markdown_bytes": 0, "categories": {c: 0 for c in CATEGORIES}, "pages_every": pages_every,
               "per_page": per_page, "pages": 0}
    for slug, name, category, markdown, words in generate(n, seed, pages_every):
        data = markdown.encode("utf-8") if markdown is not None else b""
        summary["pages"] += markdown is not None
        for folder in page_folders if markdown is not None else ():
            with open(os.path.join(folder, slug + ".md"), "wb") as f:
                f.write(data)
        rows.append((slug, name, category, *facet_columns(seed, len(rows))))
        summary["total_words"] += words
        summary["total_markdown_bytes"] += len(data)
        summary["categories"][category] += 1
    if "sift" in layouts:
        with open(os.path.join(outdir, "sift", "Content", "items", "items.csv"), "w",
                  encoding="utf-8", newline="") as f:
            writer = csv.writer(f, lineterminator="\n")  # RFC 4180 quoting
            writer.writerow(["slug", "name", "category", "climate", "coastal", "languages"])
            writer.writerows(rows)

    names = [row[1] for row in rows]
    summary["avg_words"] = round(summary["total_words"] / max(n, 1), 1)
    summary["names"] = {
        "non_ascii": sum(not name.isascii() for name in names),
        "hanzi": sum(bool(re.search(r"[\u4e00-\u9fff]", name)) for name in names),
        "hangul": sum(bool(re.search(r"[\uac00-\ud7af]", name)) for name in names),
    }
    summary["names"]["diacritics"] = (summary["names"]["non_ascii"] - summary["names"]["hanzi"]
                                      - summary["names"]["hangul"])
    summary["query_terms"] = Vocabulary(seed).query_terms()
    with open(os.path.join(outdir, "corpus.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, ensure_ascii=False, indent=2)
    return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("n", type=int, help="number of items")
    parser.add_argument("outdir")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--layouts", default="sift,hugo", help="comma-separated: sift, hugo")
    parser.add_argument("--pages-every", type=int, default=1, help="a Markdown page for every K-th item only")
    parser.add_argument("--per-page", type=int, help="the sift collection's per_page")
    parser.add_argument("--force", action="store_true", help="delete OUTDIR first")
    args = parser.parse_args()
    layouts = {layout for layout in args.layouts.split(",") if layout}
    if not layouts <= {"sift", "hugo"}:
        parser.error(f"unknown layouts: {', '.join(sorted(layouts - {'sift', 'hugo'}))}")
    if os.path.exists(args.outdir):
        if not args.force:
            sys.exit(f"{args.outdir} exists (--force replaces it)")
        shutil.rmtree(args.outdir)
    summary = write_corpus(args.n, args.outdir, args.seed, layouts, args.pages_every, args.per_page)
    print(json.dumps(summary, ensure_ascii=False))


if __name__ == "__main__":
    main()
