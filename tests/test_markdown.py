"""The Markdown edition: read back with markdown-it-py it gives the corpus's structure and text."""
import re

import pytest
from lxml import etree
from markdown_it import MarkdownIt

from pipeline.publish import run as build
from pipeline.core import ids, lang, tree
from pipeline.outputs import markdown
from pipeline.outputs.job import Job
from pipeline.core import lang

NL = lang.profile("nl")

# A small corpus with everything Markdown could misread: markup characters, an entity,
# a paragraph that looks like a list item, a note followed by "(", references (resolved,
# dangling, across editions), a gap and commentary.
SAMPLE = """<corpus>
<edition id="2007">
  <article id="2007/41" num="41" sources="a.txt:1"><title sources="a.txt:1">Het begin</title>
    <section id="2007/41A" num="A" sources="a.txt:2"><heading sources="a.txt:2">Gedekte uitkomst</heading>
      <p sources="a.txt:3">Oud: zie <ref to="2017/47E1" status="ok">artikel 47E1 (2017)</ref>.</p>
    </section>
  </article>
</edition>
<edition id="2017">
  <article id="2017/47" num="47" sources="b.txt:1">
    <section id="2017/47E" num="E" sources="b.txt:2"><heading sources="b.txt:2">Wijziging *van* [het] spelen</heading>
      <subsection id="2017/47E1" num="1" sources="b.txt:3">
        <p sources="b.txt:3">Tekst met &lt;script&gt;alert("x")&lt;/script&gt;, R&amp;D, &amp;amp; en a_b_c * ster.</p>
        <item id="2017/47E1a" num="a" numbering="inferred" evidence="from list number 1." sources="b.txt:4">
          <p sources="b.txt:4">1. zijn partner speelt<note form="inline" id="2017/47E1a/noot1" sources="b.txt:4">Zie <ref to="2017/53A" status="ok">artikel 53A</ref>.</note>(niet voortijdig).</p>
        </item>
      </subsection>
      <gap reason="the rest of 47E is in none of the sources"/>
    </section>
  </article>
  <article id="2017/53" num="53" sources="c.txt:1"><title sources="c.txt:1">Accepteren</title>
    <section id="2017/53A" num="A" sources="c.txt:2"><heading sources="c.txt:2">Voor de beurt</heading>
      <p sources="c.txt:3"># Geen kop: zie <ref to="2017/47E1" status="ok">artikel 47E1</ref> en <ref to="2017/99Z" status="dangling">artikel 99Z</ref>.</p>
    </section>
  </article>
  <commentary id="2017/54/toelichting1" on="2017/54" author="Peter" sources="c.txt:9">
    <attribution>Op persoonlijke titel.</attribution>
    <p sources="c.txt:10">1. zijn partner verricht geen handeling &amp; <ref to="2017/58" status="dangling">art 58</ref>.</p>
  </commentary>
</edition>
</corpus>"""


# ---------------------------------------------------------------- the expected reading, from the tree

def segments(el, labels):
    """Mixed content as ('text', s) / ('link', words, href) / ('note', label), adjacent text merged."""
    out = []

    def add(kind, *value):
        if kind == "text" and out and out[-1][0] == "text":
            out[-1] = ("text", out[-1][1] + value[0])
        elif kind != "text" or value[0]:
            out.append((kind, *value))

    add("text", el.text or "")
    for child in el:
        if child.tag == "note":
            add("note", labels(child))
        elif child.tag == "ref":
            target = (child.get("to") or "").split()[0]
            if child.get("status") not in ("dangling", "known-missing") and target in labels.nodes:
                edition, cite = ids.split_id(target)
                here = ids.split_id(el.xpath("ancestor-or-self::*[@id][1]")[0].get("id"))[0]
                add("link", tree.plain_text(child), f"#{cite}" if edition == here else f"../{edition}/lawbook.md#{cite}")
            else:
                add("text", tree.plain_text(child))
        add("text", child.tail or "")
    # A paragraph's leading and trailing blanks are no text to a Markdown reader.
    if out and out[0][0] == "text":
        out[0] = ("text", out[0][1].lstrip())
    if out and out[-1][0] == "text":
        out[-1] = ("text", out[-1][1].rstrip())
    return [s for s in out if s != ("text", "")]


class Labels:
    def __init__(self, corpus):
        self.nodes = {el.get("id") for el in corpus.iter(*tree.NODE_TAGS)}
        # A note the book numbers is labelled by its number (tests/test_note_numbers.py tests the rule).
        self.numbers = {}
        for edition in corpus.iterchildren("edition"):
            self.numbers.update(markdown.book_number_labels(corpus, edition.get("id")))

    def __call__(self, note):
        if note.get("id") in self.numbers:
            return self.numbers[note.get("id")]
        node_id, _, tail = note.get("id").rpartition("/")
        return f"{ids.split_id(node_id)[1]}-{tail}"


def expected_reading(corpus, edition_id):
    """headings [(level, cite, title)], paragraphs {cite: [segments]}, gaps {cite: [reason]},
    footnotes {label: segments}, commentary [(author, attribution, [paragraph segments])]."""
    labels = Labels(corpus)
    edition = next(e for e in corpus.iterchildren("edition") if e.get("id") == edition_id)
    reading = {"headings": [], "paragraphs": {}, "gaps": {}, "footnotes": {}, "commentary": []}
    for el in edition.iter(*tree.NODE_TAGS):
        cite = ids.split_id(el.get("id"))[1]
        label = el.find("title") if el.tag == "article" else el.find("heading")
        reading["headings"].append((markdown.HEADING_LEVEL[el.tag], cite, label.text if label is not None else ""))
        reading["paragraphs"][cite] = [segments(p, labels) for p in el.iterchildren("p")]
        reading["gaps"][cite] = [g.get("reason") for g in el.iterchildren("gap")]
        for note in el.xpath("./p/note"):
            reading["footnotes"][labels(note)] = segments(note, labels)
    for c in edition.iterchildren("commentary"):
        reading["commentary"].append((c.get("author"), tree.plain_text(c.find("attribution")),
                                      [segments(p, labels) for p in c.iterchildren("p")]))
    return reading


# ---------------------------------------------------------------- the same, read back from Markdown

HEADING = re.compile(r"^(?:Artikel )?(?P<cite>\d+[A-Z]?\d*[a-z]?)(?: (?P<title>.*?))? \{#(?P=cite)(?: [^{}]*)?\}$")
GAP = re.compile(r"^\[Redactie bij (?P<cite>\w+): (?P<reason>.*)\]$")
MARKER = re.compile(r"\[\^([^\]]+)\]")


def inline_segments(inline):
    out = []

    def add_text(s):
        for i, piece in enumerate(MARKER.split(s)):
            if i % 2:
                out.append(("note", piece))
            elif piece:
                if out and out[-1][0] == "text":
                    out[-1] = ("text", out[-1][1] + piece)
                else:
                    out.append(("text", piece))

    children = iter(inline.children)
    for tok in children:
        if tok.type == "link_open":
            words = []
            for inner in children:
                if inner.type == "link_close":
                    break
                words.append(inner.content)
            out.append(("link", "".join(words), tok.attrs["href"]))
        elif tok.type in ("text", "softbreak"):
            add_text(tok.content if tok.type == "text" else " ")
        elif tok.type in ("em_open", "em_close", "strong_open", "strong_close"):
            out.append((tok.type,))
        else:
            raise AssertionError(f"unexpected inline token {tok.type}: {tok.content!r}")
    return out


def read_back(text):
    """The reading of a Markdown edition, by markdown-it-py (CommonMark; footnotes are read as text)."""
    md = MarkdownIt("commonmark").disable("reference")
    reading = {"headings": [], "paragraphs": {}, "gaps": {}, "footnotes": {}, "commentary": []}
    tokens = md.parse(text)
    cite, in_quote, level = None, False, None
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open":
            level = int(tok.tag[1])
        elif tok.type == "blockquote_open":
            in_quote = True
            reading["commentary"].append([None, None, []])
        elif tok.type == "blockquote_close":
            in_quote = False
        elif tok.type == "inline" and tokens[i - 1].type == "heading_open":
            if level == 1:
                continue
            m = HEADING.match(tok.content.replace("\\", ""))
            if m is None:  # commentary on an article the sources lack
                assert tok.content.startswith("Toelichting bij artikel "), tok.content
                cite = None
                continue
            cite = m.group("cite")
            reading["headings"].append((level, cite, re.sub(r"\\(.)", r"\1", m.group("title") or "")))
            reading["paragraphs"][cite], reading["gaps"][cite] = [], []
        elif tok.type == "inline":
            segs = inline_segments(tok)
            if in_quote:
                entry = reading["commentary"][-1]
                if segs[0] == ("strong_open",):
                    entry[0] = segs[1][1].removeprefix("Toelichting — ")
                elif segs[0] == ("em_open",):
                    entry[1] = segs[1][1]
                else:
                    entry[2].append(segs)
            elif segs[0] == ("em_open",) and GAP.match(segs[1][1]):
                m = GAP.match(segs[1][1])
                if m.group("cite") in reading["gaps"]:  # not the remark on a missing article
                    reading["gaps"][m.group("cite")].append(m.group("reason"))
            elif segs[0][0] == "note" and len(segs) > 1 and segs[1][1].startswith(": "):
                rest = segs[1][1].removeprefix(": ")
                reading["footnotes"][segs[0][1]] = ([("text", rest)] if rest else []) + segs[2:]
            else:
                reading["paragraphs"][cite].append(segs)
    reading["commentary"] = [tuple(c) for c in reading["commentary"]]
    return reading


# ---------------------------------------------------------------- tests

@pytest.fixture(scope="module")
def real_corpus(five_sources):
    return five_sources.corpus


def test_sample_round_trips_through_markdown_it():
    corpus = etree.fromstring(SAMPLE)
    for edition in ("2007", "2017"):
        assert read_back(markdown.render(corpus, edition, NL)) == expected_reading(corpus, edition)


def test_real_corpus_round_trips_through_markdown_it(real_corpus):
    for edition in ("2007", "2017"):
        expected = expected_reading(real_corpus, edition)
        assert read_back(markdown.render(real_corpus, edition, NL)) == expected
        assert expected["headings"]  # the comparison is not vacuous


def test_headings_anchors_and_links_are_written_as_documented():
    text = markdown.render(etree.fromstring(SAMPLE), "2017", NL)
    lines = text.splitlines()
    assert lines[0] == "# Spelregels voor Wedstrijdbridge — uitgave 2017"
    # Each heading's attributes: its citation, where its text came from, and the evidence of an inferred number.
    assert '## Artikel 47 {#47 origin="b.txt:1"}' in lines
    assert r'### 47E Wijziging \*van\* \[het\] spelen {#47E origin="b.txt:2"}' in lines
    assert '#### 47E1 {#47E1 origin="b.txt:3"}' in lines
    assert '##### 47E1a {#47E1a origin="b.txt:4" evidence="from list number 1."}' in lines
    # A resolved reference is a link to the anchor; a dangling one stays plain words.
    assert r"\# Geen kop: zie [artikel 47E1](#47E1) en artikel 99Z." in lines
    # A paragraph that starts like a list item, and a note marker followed by "(", stay text.
    assert r"1\. zijn partner speelt[^47E1a-noot1]\(niet voortijdig)." in lines
    assert "[^47E1a-noot1]: Zie [artikel 53A](#53A)." in lines
    assert "*\\[Redactie bij 47E: the rest of 47E is in none of the sources\\]*" in lines
    assert "> **Toelichting — Peter**" in lines
    # Across editions the link points into the other edition's file.
    old = markdown.render(etree.fromstring(SAMPLE), "2007", NL)
    assert "Oud: zie [artikel 47E1 (2017)](../2017/lawbook.md#47E1)." in old


def test_script_and_ampersand_render_as_text():
    corpus = etree.fromstring(SAMPLE)
    text = markdown.render(corpus, "2017", NL)
    assert r'Tekst met \<script\>alert("x")\</script\>, R&D, \&amp; en a\_b\_c \* ster.' in text
    html = MarkdownIt("commonmark").render(text)
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;, R&amp;D, &amp;amp; en a_b_c * ster." in html


def test_write_markdown_writes_one_file_per_edition(tmp_path, real_corpus):
    ctx = Job.of_tree(real_corpus, tmp_path, lang.profile("nl"))
    written = markdown.write_markdown(ctx)
    assert [p.relative_to(tmp_path).as_posix() for p in written] == ["2007/lawbook.md", "2017/lawbook.md"]
    first = (tmp_path / "2017" / "lawbook.md").read_bytes()
    markdown.write_markdown(ctx)
    assert (tmp_path / "2017" / "lawbook.md").read_bytes() == first  # deterministic
    assert ('## Artikel 53 Accepteren van voor de beurt voorspelen {#53 origin="000_8d35bcdf16b9ca3e.txt:3,5,7-8,11-12,'
            '15-16 001_0c222c0b6955047f.txt:3,5,7-8,11-12,15-16"}') in first.decode()
