"""The HTML edition, without a browser: pages, anchors, links, notes, commentary, graph, editor's page, serve."""
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import lxml.html
import pytest
from lxml import etree

from pipeline.publish import run as build
from pipeline import serve
from pipeline.outputs import html
from pipeline.outputs.site import model
from pipeline.core import lang
from pipeline.core.errors import LawbookError
from pipeline.core.report import BuildLog
from pipeline.outputs.job import Job
from pipeline.core import lang

SAMPLE = """<corpus>
<edition id="2007">
  <article id="2007/41" num="41" sources="old.txt:1-4"><title sources="old.txt:1">Het begin van het spelen</title>
    <section id="2007/41A" num="A" sources="old.txt:2-4"><heading sources="old.txt:2">Gedekte uitkomst</heading>
      <p sources="old.txt:3">Uitkomst gedekt.</p>
    </section>
  </article>
</edition>
<edition id="2017">
  <article id="2017/41" num="41" sources="new.txt:1-9"><title sources="new.txt:1">Het begin van het spelen</title>
    <section id="2017/41A" num="A" numbering="inferred" evidence="section A of 2017/41 inferred from list number 1." sources="new.txt:2-4">
      <heading sources="new.txt:2">Gedekte uitkomst</heading>
      <p sources="new.txt:3">Met de beeldzijde naar beneden<note form="inline" id="2017/41A/noot1" sources="new.txt:3">Zie <ref to="2017/47E1" status="ok">artikel 47E1</ref>.</note> uitkomen (zie <ref to="2017/47E2" status="dangling">artikel 47E2</ref>).</p>
    </section>
  </article>
  <article id="2017/47" num="47" sources="new.txt:10-20">
    <section id="2017/47E" num="E" sources="new.txt:10-20"><heading sources="new.txt:10">Wijziging van het spelen</heading>
      <subsection id="2017/47E1" num="1" sources="new.txt:11-14">
        <p sources="new.txt:11">Tekst met &lt;script&gt;alert(1)&lt;/script&gt; &amp; R&amp;D.</p>
        <item id="2017/47E1a" num="a" sources="new.txt:12"><p sources="new.txt:12">Een speler mag terugnemen.</p></item>
      </subsection>
      <gap reason="the rest of 47E is in none of the sources"/>
    </section>
  </article>
  <article id="2017/53" num="53" sources="new.txt:21-30"><title sources="new.txt:21">Accepteren van voor de beurt voorspelen</title>
    <section id="2017/53A" num="A" sources="new.txt:22"><heading sources="new.txt:22">Voor de beurt</heading>
      <p sources="new.txt:23">Zie echter <ref to="2017/47E1" status="ok">artikel 47E1</ref> en <ref to="2017/47E1a 2017/47" status="suspect">47E1(a)</ref>.</p>
    </section>
  </article>
  <commentary id="2017/54/toelichting1" on="2017/54" author="Peter" sources="new.txt:40-42">
    <attribution>Op persoonlijke titel van Peter.</attribution>
    <p sources="new.txt:41">Dan geldt <ref to="2017/58" status="dangling">art 58</ref>.</p>
  </commentary>
</edition>
</corpus>"""


def sample_log():
    log = BuildLog()
    log.sources.append({"file": "new.txt", "edition": "2017", "format": "wiki", "origin": "test", "lines": 42,
                        "encoding": "utf-8"})
    log.add("repair", "new.txt", 11, "duplicated words collapsed", "2017/47E1", "de de", "de")
    log.add("inference", "new.txt", 2, "section A of 2017/41 inferred from list number 1.", "2017/41A")
    log.add("gap", "new.txt", 20, "the rest of 47E is in none of the sources", "2017/47E")
    log.add("dropped", "new.txt", 1, "page title: not law text")
    return log


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The sample corpus written as a site; returns a function page(path) -> parsed lxml.html document."""
    tmp = tmp_path_factory.mktemp("site")
    ctx = Job.of_tree(etree.fromstring(SAMPLE), tmp, lang.profile("nl"), sample_log())
    written = html.write_html(ctx)

    def page(path):
        return lxml.html.fromstring((tmp / "html" / path).read_bytes())
    page.root = tmp / "html"
    page.written = written
    page.ctx = ctx
    return page


def test_pages_written(site):
    # The edition in force (the newest) first; the comparison inside the site.
    assert site.written == ["index.html", "2017/index.html", "2017/verwijzingen.html", "2017/41.html",
                            "2017/47.html", "2017/53.html", "2017/54.html", "2007/index.html",
                            "2007/verwijzingen.html", "2007/41.html", "diff/2007-2017.html", "redactie.html",
                            "zoeken.html", "404.html", "manifest.webmanifest", "citaten.js", "lawbook.css", "site.js",
                            "icon.svg", "diff/redline.css", "sw.js"]
    for path in site.written:
        assert (site.root / path).is_file(), path
        if path.endswith(".html"):
            assert site(path).get("lang") == "nl"


def test_an_english_book_names_its_files_in_english_and_links_to_them(tmp_path):
    job = Job.of_tree(etree.fromstring(SAMPLE), tmp_path, lang.profile("en"), sample_log())
    written = html.write_html(job)
    assert written == ["index.html", "2017/index.html", "2017/references.html", "2017/41.html", "2017/47.html",
                       "2017/53.html", "2017/54.html", "2007/index.html", "2007/references.html", "2007/41.html",
                       "diff/2007-2017.html", "editorial.html", "search.html", "404.html", "manifest.webmanifest",
                       "citations.js", "lawbook.css", "site.js", "icon.svg", "diff/redline.css", "sw.js"]

    def page(path):
        return lxml.html.fromstring((tmp_path / "html" / path).read_bytes())
    links = page("index.html").xpath("//main//a/@href")
    assert {"2017/references.html", "2007/references.html", "search.html", "editorial.html"} <= set(links)
    assert "references.html" in page("2017/index.html").xpath("//a/@href")
    assert page("2017/41.html").xpath("//form[@role='search']/@action") == ["../search.html"]
    assert "citations.js" in page("search.html").xpath("//script/@src")
    assert page("search.html").xpath("//form[@id='zoekformulier']/@action") == ["search.html"]
    for path in written:  # not one Dutch file name left, the service worker's list included
        text = (tmp_path / "html" / path).read_text(encoding="utf-8")
        assert not [name for name in ("zoeken.html", "redactie.html", "verwijzingen.html", "citaten.js") if name in text]


def test_every_node_has_its_citation_as_anchor(site):
    doc = site("2017/47.html")
    assert [el.get("id") for el in doc.xpath("//section[@class='section' or @class='subsection' or "
                                             "@class='item']")] == ["47E", "47E1", "47E1a"]
    assert doc.xpath("//section[@id='47E1a']/h4/a[@class='cite hang']/@href") == ["#47E1a"]
    # Below a section the label is the number as the law prints it, hanging; the words read are the citation.
    [label] = doc.xpath("//section[@id='47E1a']/h4/a")
    assert (label.get("data-mark"), label.text_content()) == ("(a)", "47E1a")
    assert doc.xpath("//section[@id='47E1']/h3/a/@data-mark") == ["1."]
    assert doc.xpath("//section[@id='47E']/h2/a[@class='cite']/text()") == ["47E"]


def test_reference_is_a_link_and_dangling_reference_is_marked_text(site):
    doc = site("2017/53.html")
    link = doc.xpath("//section[@id='53A']//a[contains(@class, 'ref')]")
    assert [(a.get("href"), a.text_content()) for a in link] == [("../2017/47.html#47E1", "artikel 47E1"),
                                                                  ("../2017/47.html#47E1a", "47E1(a)")]
    assert link[1].get("class") == "ref suspect"
    assert link[1].get("title") == "verwijzing onzeker; ook: 47"
    doc = site("2017/41.html")
    missing = doc.xpath("//article//p//span[@class='ref missing']")
    assert [(s.text_content(), s.get("title")) for s in missing] == [
        ("artikel 47E2", "verwijst naar een artikel dat niet in deze uitgave staat")]
    assert not missing[0].xpath("ancestor::a")
    assert not doc.xpath("//*[contains(@class, 'dangling')]")  # the red mark is the editor's
    legend = [" ".join(li.text_content().split()) for li in doc.xpath("//ul[@class='legend']/li")]
    assert legend == ["artikel verwijst naar een artikel dat niet in deze uitgave staat",
                      "nummering afgeleid: de bronnen schrijven dit nummer niet, de volgorde van de tekst geeft het"]
    assert not site("2017/47.html").xpath("//ul[@class='legend']")  # no marks, no legend


def test_reference_to_an_article_with_only_commentary_links_to_its_page(tmp_path):
    corpus = etree.fromstring(SAMPLE.replace('<ref to="2017/58" status="dangling">art 58</ref>',
                                             '<ref to="2017/54" status="dangling">artikel 54</ref>'))
    html.write_html(Job.of_tree(corpus, tmp_path, lang.profile("nl"), sample_log()))
    doc = lxml.html.fromstring((tmp_path / "html" / "2017" / "54.html").read_bytes())
    assert doc.xpath("//aside//a[@class='ref']/@href") == ["../2017/54.html"]
    assert not doc.xpath("//aside//span[contains(@class, 'ref')]")


def test_cited_by_lists_each_citing_node(site):
    doc = site("2017/47.html")
    items = doc.xpath("//section[@class='cited-by']//li")
    assert [(li.xpath("a/@href")[0], " ".join(li.text_content().split())) for li in items] == [
        ("../2017/41.html#41A", "artikel 41A (noemt 47E1)"),
        ("../2017/53.html#53A", "artikel 53A (noemt 47)"),
        ("../2017/53.html#53A", "artikel 53A (noemt 47E1)"),
        ("../2017/53.html#53A", "artikel 53A (noemt 47E1a)")]


def test_notes_are_footnotes_with_back_links(site):
    doc = site("2017/41.html")
    marker = doc.xpath("//section[@id='41A']//sup[@class='noteref']/a")[0]
    assert (marker.get("id"), marker.get("href"), marker.text) == ("ref-41A-noot1", "#41A-noot1", "1")
    note = doc.get_element_by_id("41A-noot1")
    assert note.xpath("ancestor::section/@class") == ["notes"]
    assert note.xpath("a[@class='backref']/@href") == ["#ref-41A-noot1"]
    assert note.xpath("a[@class='ref']/@href") == ["../2017/47.html#47E1"]


def test_cited_by_leaves_out_the_articles_own_sections(tmp_path):
    corpus = etree.fromstring(SAMPLE.replace("<p sources=\"new.txt:11\">Tekst met",
                                             "<p sources=\"new.txt:11\">Zie <ref to=\"2017/47E1a\" status=\"ok\">(a)</ref>. Tekst met"))
    html.write_html(Job.of_tree(corpus, tmp_path, lang.profile("nl"), sample_log()))
    doc = lxml.html.fromstring((tmp_path / "html" / "2017" / "47.html").read_bytes())
    citing = doc.xpath("//section[@class='cited-by']//li/a/@href")
    assert "../2017/47.html#47E1" not in citing and len(citing) == 4


def test_article_page_starts_with_its_sections(site):
    doc = site("2017/47.html")
    nav = doc.xpath("//header[@class='article-head']/nav[@class='sections']")[0]
    assert [(a.get("href"), " ".join(a.text_content().split())) for a in nav.xpath(".//a")] == [
        ("#47E", "47E Wijziging van het spelen")]
    assert not site("2017/54.html").xpath("//nav[@class='sections']")


def test_the_apparatus_is_marked_for_the_editor_view_and_the_switch_is_on_every_article_page(site):
    # A missing title: the editorial box is apparatus (shown in the editor view only, lawbook.css).
    doc = site("2017/47.html")
    [box] = doc.xpath("//header[@class='article-head']/p[contains(@class, 'gap')]")
    assert (box.get("class"), " ".join(box.text_content().split())) == (
        "gap apparatus", "Redactie: de titel van dit artikel staat in geen van de bronnen.")
    # In the contents, too: a missing title is said in the editor view only.
    [said] = site("2017/index.html").xpath("//ol[@class='toc']//a[@href='47.html']/span[@class='toc-title']/em")
    assert (said.get("class"), said.text) == ("apparatus", "titel ontbreekt")
    # The legend: the reader's lines plain, the inferred numbering's line apparatus.
    doc = site("2017/41.html")
    assert [(li.get("class"), " ".join(li.text_content().split())) for li in doc.xpath("//ul[@class='legend']/li")] == [
        (None, "artikel verwijst naar een artikel dat niet in deze uitgave staat"),
        ("apparatus", "nummering afgeleid: de bronnen schrijven dit nummer niet, de volgorde van de tekst geeft het")]
    # The one switch, hidden until the script shows it, off.
    [switch] = doc.xpath("//p[@class='editor-toggle']")
    assert switch.get("hidden") is not None
    assert [(b.get("id"), b.get("aria-pressed"), b.text_content()) for b in switch.xpath("button")] == [
        ("editor-view", "false", "Redactieweergave")]
    # What a screen reader could announce of inferred numbering: only the marks the style sheet hides.
    said = doc.xpath("//*[@aria-label='nummering afgeleid']")
    assert [(el.tag, el.get("class")) for el in said] == [("abbr", "inferred")]
    css = (site.root / "lawbook.css").read_text(encoding="utf-8")
    assert "abbr.inferred, .apparatus { display: none; }" in css


def test_a_legend_of_inferred_numbering_alone_is_apparatus_as_a_whole(tmp_path):
    corpus = etree.fromstring("""<corpus><edition id="2020">
  <article id="2020/8" num="8" sources="x.txt:1-3"><title sources="x.txt:1">Ronde</title>
    <section id="2020/8A" num="A" numbering="inferred" evidence="made up" sources="x.txt:2-3">
      <p sources="x.txt:3">Tekst.</p>
    </section>
  </article></edition></corpus>""")
    html.write_html(Job.of_tree(corpus, tmp_path, lang.profile("nl"), BuildLog()))
    doc = lxml.html.fromstring((tmp_path / "html" / "2020" / "8.html").read_bytes())
    assert [ul.get("class") for ul in doc.xpath("//ul[contains(@class, 'legend')]")] == ["legend apparatus"]


def test_commentary_is_a_separate_attributed_box(site):
    doc = site("2017/54.html")
    box = doc.xpath("//aside[@class='commentary']")[0]
    assert box.get("id") == "54-toelichting1"
    assert box.xpath("h2")[0].text == "Toelichting — Peter"
    assert not box.xpath("ancestor::article")  # outside the law text
    assert box.xpath("p[@class='attribution']")[0].text_content() == "Op persoonlijke titel van Peter."
    assert "alleen de toelichting" in doc.xpath("//p[@class='gap']")[0].text_content()


def test_gap_and_inferred_numbering_are_editorial_marks(site):
    gap = site("2017/47.html").xpath("//section[@id='47E']/p[@class='gap']")[0]
    assert "the rest of 47E is in none of the sources" in gap.text_content()
    assert gap.get("role") == "note"
    mark = site("2017/41.html").xpath("//section[@id='41A']/h2/abbr[@class='inferred']")[0]
    # Readers get Dutch without file names; the evidence is on the editor's page.
    assert (mark.get("title"), mark.text_content()) == ("nummering afgeleid", "")
    assert "inferred from list number" not in (site.root / "2017" / "41.html").read_text()


def test_other_edition_and_comparison_links(site):
    new = site("2017/41.html").xpath("//ul[@class='editions']//a")
    assert [(a.get("href"), a.get("class"), a.text) for a in new] == [
        ("../2007/41.html", "same-place", "Dit artikel in uitgave 2007"),
        ("../diff/2007-2017.html#art-41", None, "Vergelijk 2007–2017")]
    assert site("2007/41.html").xpath("//ul[@class='editions']//a/@href") == ["../2017/41.html",
                                                                             "../diff/2007-2017.html#art-41"]
    assert not site("2017/53.html").xpath("//ul[@class='editions']")
    # The comparison is a page of the site and holds the anchor; it links both editions' pages.
    diff = site("diff/2007-2017.html")
    assert diff.xpath("//section[@id='art-41']//p[@class='article-places']//a/@href") == ["../2007/41.html",
                                                                                         "../2017/41.html"]
    assert diff.xpath("//header[@class='site']//form[@role='search']")
    assert diff.xpath("//link[@rel='stylesheet']/@href") == ["../lawbook.css", "redline.css"]
    assert [" ".join(el.text_content().split()) for el in diff.xpath("//section[@id='art-53']/h2/span[@class='badge not-comparable']")] == [
        "niet te vergelijken: ontbreekt in de bronnen van 2007"]
    assert site("index.html").xpath("//ul[@class='comparisons']//a/@href") == ["diff/2007-2017.html"]
    assert site("2017/index.html").xpath("//p[@class='lead']/a/@href") == ["../diff/2007-2017.html"]


def test_edition_in_force_is_named_and_listed_first(site):
    doc = site("index.html")
    assert [" ".join(h.text_content().split()) for h in doc.xpath("//ul[@class='edition-list']/li/h2")] == [
        "Uitgave 2017 geldend", "Uitgave 2007"]
    assert site("2017/index.html").xpath("//p[@class='lead']/text()")[0].strip() == "Dit is de geldende uitgave."
    # One link to the editor's page, from the index; none in the readers' footers.
    assert doc.xpath("//main//a[@href='redactie.html']") and not doc.xpath("//footer//a[@href='redactie.html']")
    assert not site("2017/41.html").xpath("//a[contains(@href, 'redactie')]")


def test_graph_is_svg_with_clickable_article_nodes(site):
    doc = (site.root / "2017" / "verwijzingen.html").read_text()
    svg = etree.fromstring(doc[doc.index("<svg"):doc.index("</svg>") + 6])
    ns = {"s": "http://www.w3.org/2000/svg"}
    # 54 is known only from its commentary: a page, drawn as one; its commentary's reference to 58 is
    # the commentary's edge, dashed.
    assert svg.xpath("//s:a/@href", namespaces=ns) == ["41.html", "47.html", "53.html", "54.html"]
    assert svg.xpath("//s:a[@href='54.html']/@class", namespaces=ns) == ["node commentary"]
    missing = svg.xpath("//s:g[@class='node missing']/s:title/text()", namespaces=ns)
    assert missing == ["artikel 58: niet in deze uitgave"]
    edges = svg.xpath("//s:path[s:title]/s:title/text()", namespaces=ns)
    assert edges == ["artikel 41 → artikel 47 (2×)", "artikel 53 → artikel 47 (2×)",
                     "toelichting bij artikel 54 → artikel 58 (1×)"]
    assert svg.xpath("//s:path[s:title]/@class", namespaces=ns) == ["edge law", "edge law", "edge commentary"]


def segments(d):
    """The straight pieces of SVG path data 'M x y C x y x y x y …' (dot's cubic curves), each curve
    followed at 24 points."""
    words = d.split()
    assert words[0] == "M" and all(w == "C" for w in words[3::7]), d
    numbers = [float(w) for w in words if w not in ("M", "C")]
    points = list(zip(numbers[::2], numbers[1::2]))
    line = [points[0]]
    for i in range(1, len(points), 3):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = points[i - 1:i + 3]
        for k in range(1, 25):
            t = k / 24
            a, b, c, e = (1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3
            line.append((a * x0 + b * x1 + c * x2 + e * x3, a * y0 + b * y1 + c * y2 + e * y3))
    return list(zip(line, line[1:]))


def crossings(paths):
    """How many pairs of pieces of different edges cross."""
    def cross(p, q):
        (a, b), (c, d) = p, q
        def side(o, s, t):
            return (s[0] - o[0]) * (t[1] - o[1]) - (s[1] - o[1]) * (t[0] - o[0])
        return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0
    drawn = [segments(d) for d in paths]
    return sum(1 for i in range(len(drawn)) for j in range(i + 1, len(drawn))
               for p in drawn[i] for q in drawn[j] if cross(p, q))


def test_graph_is_layered_citing_above_cited_without_crossings(site):
    graph = model.Site(site.ctx.corpus, site.ctx.log, site.ctx.profile).graph("2017")
    y = {n["num"]: n["y"] for n in graph["nodes"]}
    assert y["41"] == y["53"] < y["47"] and y["54"] < y["58"]
    assert crossings([e["d"] for e in graph["edges"]]) == 0


def test_every_edge_runs_from_the_citing_circle_to_the_cited_one(site):
    """Each path starts on the rim of its citing article's circle and ends on the cited one's."""
    graph = model.Site(site.ctx.corpus, site.ctx.log, site.ctx.profile).graph("2017")
    centre = {n["num"]: (n["x"], n["y"]) for n in graph["nodes"]}
    for e in graph["edges"]:
        pieces = segments(e["d"])
        for (x, y), num in ((pieces[0][0], e["from"]), (pieces[-1][1], e["to"])):
            cx, cy = centre[num]
            assert abs(((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 - graph["r"]) < 2, (e, num)


def test_graph_of_the_real_2017_crosses_less_than_a_circle():
    # Measured on the sources as they are (the corrections add 24E's edge to 51).
    ctx = build.make_corpus("sources", {"no_corrections": True})
    graph = model.Site(ctx.corpus, ctx.log, ctx.profile).graph("2017")
    drawn = crossings([e["d"] for e in graph["edges"]])
    # The same edges between the same nodes on a circle (an earlier layout) cross 24 times.
    assert drawn <= 6, drawn


def test_editor_page_lists_entries_with_source_and_line(site):
    doc = site("redactie.html")

    def entries(section):
        return [" ".join(li.text_content().split()) for li in doc.xpath(f"//details[@id='{section}']//li")]
    # Each section's entries under their source, named by its origin with its file name beside it.
    assert [" ".join(h.text_content().split()) for h in doc.xpath("//details[@id='repair']/h3")] == ["test new.txt"]
    assert entries("repair") == ["regel 11 2017/47E1 dubbel geschreven woorden tot één teruggebracht de de → de"]
    assert doc.xpath("//details[@id='repair']//span[@class='reading before']/del/text()") == [" de"]
    assert entries("inference") == ["regel 2 2017/41A paragraaf A van 2017/41 afgeleid uit lijstnummer 1."]
    # A message the profile's words do not know stays as the report writes it, marked English.
    assert entries("gap") == ["regel 20 2017/47E the rest of 47E is in none of the sources"]
    assert doc.xpath("//details[@id='gap']//span[@class='message']/@lang") == ["en"]
    # One entry per cited place, as `lawbook check` counts: the suspect reference has two.
    assert entries("verwijzingen") == ["regel 3 2017/41A ‘artikel 47E2’ → 2017/47E2 (onopgelost)",
                                       "regel 23 2017/53A ‘47E1(a)’ → 2017/47 (twijfelachtig)",
                                       "regel 23 2017/53A ‘47E1(a)’ → 2017/47E1a (twijfelachtig)",
                                       "regel 41 2017/54/toelichting1 ‘art 58’ → 2017/58 (onopgelost)"]
    assert "2 onopgelost, 2 twijfelachtig, 0 bekend ontbrekend" in doc.xpath("//details[@id='verwijzingen']/p")[0].text_content()
    assert entries("overig") == ["regel 1 weggelaten page title: not law text"]
    assert doc.xpath("//details[@id='repair']//a[@class='node-id']/@href") == ["2017/47.html#47E1"]
    # Every section folds: its heading is its <summary>, and it is closed until opened.
    assert [(d.get("id"), d.get("open"), " ".join(d.xpath("string(summary/h2)").split())) for d in doc.xpath("//details")] == [
        ("repair", None, "Reparaties 1"), ("inference", None, "Afgeleide nummering 1"), ("variant", None, "Varianten 0"),
        ("gap", None, "Ontbrekende tekst 1"), ("correcties", None, "Correcties 0"),
        ("verwijzingen", None, "Verwijzingen die niet kloppen 4"), ("overig", None, "Overige meldingen 1"),
        ("bronnen", None, "Bronnen 1")]
    assert entries("bronnen") == ["test new.txt: uitgave 2017, wiki, utf-8, 42 regels"]


def test_script_and_ampersand_in_the_corpus_render_as_text(site):
    raw = (site.root / "2017" / "47.html").read_text()
    assert "Tekst met &lt;script&gt;alert(1)&lt;/script&gt; &amp; R&amp;D." in raw
    doc = site("2017/47.html")
    assert doc.xpath("//script/@src") == ["../site.js"] and not doc.xpath("//script[not(@src)]")
    assert doc.xpath("//section[@id='47E1']/p")[0].text_content() == "Tekst met <script>alert(1)</script> & R&D."


def test_script_and_ampersand_in_a_source_render_as_text(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "sources.toml").write_text('[[source]]\nfile = "a.txt"\nedition = "2017"\norigin = "test"\n'
                                          'format = "wiki"\n')
    (sources / "a.txt").write_text("Artikel 12\n\nOnregelmatigheden & <b>straffen</b>\n\n"
                                   "A. Bevoegdheid & <script>alert('x')</script>\n"
                                   "De wedstrijdleider & <script>alert(1)</script> beslist.\n", encoding="utf-8")
    ctx = Job.of(build.make_corpus(sources), tmp_path / "out")
    html.write_html(ctx)
    page = (ctx.tmp / "html" / "2017" / "12.html").read_text()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; beslist." in page
    assert "Onregelmatigheden &amp; &lt;b&gt;straffen&lt;/b&gt;" in page
    doc = lxml.html.fromstring(page)
    assert not doc.xpath("//script[not(@src)]") and not doc.xpath("//main//b")


def test_no_external_urls_and_same_bytes_every_time(site, tmp_path):
    for path in (p for p in site.written if p.endswith(".html")):
        doc = site(path)
        for url in doc.xpath("//@href | //@src"):
            assert "//" not in url and not url.startswith(("http:", "https:", "/")), (path, url)
    ctx = Job.of_tree(site.ctx.corpus, tmp_path, lang.profile("nl"), site.ctx.log)
    html.write_html(ctx)
    for path in site.written:
        assert (tmp_path / "html" / path).read_bytes() == (site.root / path).read_bytes(), path


def test_serve_binds_loopback_and_serves_the_site(site):
    port = serve.free_port()
    out = site.root.parent
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "serve", "--out", str(out), "--port", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=Path(__file__).resolve().parent.parent)
    try:
        assert proc.stdout.readline().strip() == f"serving {out}/html on http://127.0.0.1:{port}/ (Ctrl-C stops)"
        for _ in range(50):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/2017/53.html", timeout=2) as response:
                    assert response.headers["Content-Type"] == "text/html; charset=utf-8"
                    assert b"Accepteren van voor de beurt voorspelen" in response.read()
                break
            except ConnectionError:
                time.sleep(0.05)
    finally:
        proc.terminate()
        proc.wait(timeout=5)


def test_serve_without_a_site_is_one_clear_error(tmp_path):
    (tmp_path / "html").mkdir()
    with pytest.raises(LawbookError) as info:
        serve.make_server(tmp_path / "html", 0)
    assert info.value.file == str(tmp_path / "html")
    assert info.value.message == "this folder holds no site: it has no index.html"
    assert info.value.fix == (f"build the site first (lawbook build --out {tmp_path}, or make build), or give --out "
                              "the folder a build wrote")


def test_serve_answers_an_unknown_page_with_a_dutch_404_in_the_sites_style(site):
    server = serve.make_server(site.root, 0, quiet=True)
    import threading
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}/2017/99.html", timeout=5)
        assert info.value.code == 404
        doc = lxml.html.fromstring(info.value.read())
        assert doc.get("lang") == "nl" and doc.findtext(".//h1") == "Pagina niet gevonden"
        assert doc.xpath("//link[@rel='stylesheet']/@href") == ["/lawbook.css"]
        assert doc.xpath("//main//a/@href") == ["/index.html", "/zoeken.html"]
    finally:
        server.shutdown()
        server.server_close()


# -- the committee's corrections in the site -------------------------------------------------------
# 24E as the shipped corrections.toml leaves it (24E's words replaced; 51 is not in this corpus) and 47E2a
# renumbered from 47E1a under a 47E2 the correction created.
CORRECTED = """<corpus><edition id="2017">
  <article id="2017/24" num="24" sources="a.txt:1-3"><title sources="a.txt:1">Kaarten</title>
    <section id="2017/24E" num="E" sources="a.txt:2-3"><heading sources="a.txt:2">Tegenspelers</heading>
      <corr kind="replace" was="artikel 50 en artikel 50" now="artikel 50 en artikel 51" paragraph="1" start="8"
            end="32" line="20" basis="WBF Laws 2017, Law 24E: 'Laws 50 and 51'"/>
      <p sources="a.txt:3">(zie de <ref to="2017/50" status="ok">artikel 50</ref> en <ref to="2017/51" status="dangling">artikel 51</ref>).</p>
    </section>
  </article>
  <article id="2017/47" num="47" sources="a.txt:4-6"><title sources="a.txt:4">Terugnemen</title>
    <section id="2017/47E" num="E" sources="a.txt:5-6"><heading sources="a.txt:5">Wijziging</heading>
      <subsection id="2017/47E2" num="2" numbering="inferred" evidence="created by the correction at corrections.toml:7" sources="a.txt:6">
        <item id="2017/47E2a" num="a" sources="a.txt:6">
          <corr kind="renumber" was="2017/47E1a" line="7" basis="WBF Laws 2017, Law 47E2(a)"/>
          <p sources="a.txt:6">Een speler mag terugnemen.</p>
        </item>
      </subsection>
    </section>
  </article>
  <article id="2017/50" num="50" sources="a.txt:7"><title sources="a.txt:7">Strafkaarten</title>
    <p sources="a.txt:7">Een kaart.</p></article>
</edition></corpus>"""
SAID_24E = ("gecorrigeerd door de regelcommissie naar het origineel; de bronnen zeggen: ‘artikel 50 en artikel 50’; "
            "grond: WBF Laws 2017, Law 24E: 'Laws 50 and 51'")


@pytest.fixture(scope="module")
def corrected(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("corrected")
    html.write_html(Job.of_tree(etree.fromstring(CORRECTED), tmp, lang.profile("nl"), BuildLog()))

    def page(path):
        return lxml.html.fromstring((tmp / "html" / path).read_bytes())
    return page


def test_corrected_words_are_marked_with_what_the_sources_say_and_the_basis(corrected):
    doc = corrected("2017/24.html")
    [p] = doc.xpath("//section[@id='24E']/p")
    assert p.text_content() == "(zie de artikel 50 en artikel 51)."  # the reading text is the law's, as corrected
    [mark] = p.xpath("span[@class='corr']")
    assert (mark.get("id"), mark.get("title"), mark.text_content()) == ("corr-24E-1", SAID_24E,
                                                                        "artikel 50 en artikel 51")
    # The references inside stay whole: a link and the quiet missing reference.
    assert [(el.tag, el.get("class"), el.text_content()) for el in mark] == [
        ("a", "ref", "artikel 50"), ("span", "ref missing", "artikel 51")]
    [link] = p.xpath("a[@class='corr-mark']")
    assert link.getprevious() is mark and link.tail == ")."
    assert (link.get("href"), link.get("title"), link.get("aria-label"), link.text_content()) == (
        "../redactie.html#corr-2017-24E-1", SAID_24E, "correctie: wat de bronnen zeggen", "")
    legend = [" ".join(li.text_content().split()) for li in doc.xpath("//ul[@class='legend']/li")]
    assert legend == ["artikel verwijst naar een artikel dat niet in deze uitgave staat",
                      "woorden gecorrigeerd door de regelcommissie naar het origineel; het teken wijst naar wat de "
                      "bronnen zeggen, en waarom"]


def test_a_renumbered_node_shows_its_number_in_the_sources_and_the_basis(corrected):
    doc = corrected("2017/47.html")
    [h4] = doc.xpath("//section[@id='47E2a']/h4")
    assert [(el.tag, el.get("class")) for el in h4] == [("a", "cite hang")]
    assert h4.get("class") == "hang"  # the mark is no part of the heading: the label hangs in its margin
    # The sources' number after the heading, a tap that says what it means and links to the editor's page entry.
    mark = h4.getnext()
    assert (mark.tag, mark.get("class"), mark.get("id")) == ("details", "renumbered", "corr-47E2a-1")
    assert (mark[0].tag, mark[0].text_content()) == ("summary", "was 47E1a")
    assert " ".join(mark[1].text_content().split()) == (
        "vernummerd door de regelcommissie naar het origineel; de bronnen nummeren het 47E1a; "
        "grond: WBF Laws 2017, Law 47E2(a). De vermelding op de redactiepagina")
    assert mark[1].xpath("a/@href") == ["../redactie.html#corr-2017-47E2a-1"]
    assert doc.xpath("//section[@id='47E2']/h3/abbr[@class='inferred']")  # the created part: inferred, no mark
    assert not doc.xpath("//section[@id='47E2']/*[contains(@class, 'renumbered')]")
    assert [" ".join(li.text_content().split()) for li in doc.xpath("//ul[@class='legend']/li")] == [
        "was … vernummerd door de regelcommissie naar het origineel: het nummer dat de bronnen geven",
        "nummering afgeleid: de bronnen schrijven dit nummer niet, de volgorde van de tekst geeft het"]
    assert not corrected("2017/50.html").xpath("//*[contains(@class, 'corr')]")  # no correction, no mark


def test_the_editors_page_lists_each_correction_linked_both_ways(corrected):
    doc = corrected("redactie.html")
    entries = doc.xpath("//details[@id='correcties']/ol/li")
    assert [(li.get("id"), " ".join(li.text_content().split())) for li in entries] == [
        ("corr-2017-47E2a-1", "corrections.toml:7 2017/47E2a vernummering grond: WBF Laws 2017, Law 47E2(a) "
                              "2017/47E1a → 2017/47E2a"),
        ("corr-2017-24E-1", "corrections.toml:20 2017/24E woorden vervangen grond: WBF Laws 2017, Law 24E: "
                            "'Laws 50 and 51' artikel 50 en artikel 50 → artikel 50 en artikel 51")]
    assert entries[1].xpath(".//del/text()") == ["50"] and entries[1].xpath(".//ins/text()") == ["51"]
    assert [li.xpath("a[@class='node-id']/@href")[0] for li in entries] == ["2017/47.html#corr-47E2a-1",
                                                                           "2017/24.html#corr-24E-1"]
    # Each way the link lands on an element of that id.
    for li in entries:
        page, anchor = li.xpath("a[@class='node-id']/@href")[0].split("#")
        [target] = corrected(page).xpath(f"//*[@id='{anchor}']")
        # the corrected words' mark beside them, or the renumbered node's mark (a <details>) holding the link
        assert target.get("href") == f"../redactie.html#{li.get('id')}" or \
            target.getnext().get("href") == f"../redactie.html#{li.get('id')}" or \
            target.xpath("p/a/@href") == [f"../redactie.html#{li.get('id')}"]
    assert doc.xpath("//details[@id='correcties']/summary/h2")[0].text_content() == "Correcties 2"


def test_without_corrections_the_section_says_none(site):
    doc = site("redactie.html")
    assert doc.xpath("//details[@id='correcties']/p[@class='none']/text()") == ["Geen."]
    assert not doc.xpath("//details[@id='origineel']")  # no reference given: no comparison with it
    assert not doc.xpath("//*[contains(@class, 'corr')]")


def test_a_mark_takes_in_a_reference_it_would_cut_and_leaves_a_note_at_its_edge_outside():
    text = {"text": "zie "}
    ref = {"ref": "artikel 50", "href": "../2017/50.html", "title": None, "status": "ok"}
    note = {"note": True, "number": 1, "anchor": "24E-noot1"}
    rest = {"text": " en 51 nu"}
    spans = [(0, 4, text), (4, 14, ref), (14, 14, note), (14, 23, rest)]
    # "50 en 51" starts inside the reference: the mark begins where the reference does.
    out = model.wrap_correction(spans, 12, 20, {"now": "50 en 51"})
    assert [(a, b, p) for a, b, p in out] == [
        (0, 4, text), (4, 20, {"corr": {"now": "50 en 51"}, "pieces": [ref, note, {"text": " en 51"}]}),
        (20, 23, {"text": " nu"})]
    # A note exactly where the corrected words begin stays before the mark.
    out = model.wrap_correction(spans, 14, 20, {"now": " en 51"})
    assert [p for _, _, p in out] == [text, ref, note, {"corr": {"now": " en 51"}, "pieces": [{"text": " en 51"}]},
                                      {"text": " nu"}]


def test_a_correction_record_that_does_not_fit_the_text_marks_nothing(tmp_path):
    corpus = etree.fromstring(CORRECTED.replace('start="8"', 'start="9"').replace('end="32"', 'end="33"'))
    html.write_html(Job.of_tree(corpus, tmp_path, lang.profile("nl"), BuildLog()))
    doc = lxml.html.fromstring((tmp_path / "html" / "2017" / "24.html").read_bytes())
    assert not doc.xpath("//span[@class='corr']")
    assert doc.xpath("//section[@id='24E']/p")[0].text_content() == "(zie de artikel 50 en artikel 51)."


def test_the_home_page_links_each_editions_book_where_the_pdf_stage_writes_it(site, tmp_path):
    """../pdf/spelregels-2017.pdf from html/index.html: the file the PDF stage writes beside html/ (text.file_names),
    which `serve` answers at /pdf/ (tests/test_serve.py); a build without PDF links none."""
    links = site("index.html").xpath("//a[@type='application/pdf']")
    assert [(a.get("href"), a.text_content()) for a in links] == [("../pdf/spelregels-2017.pdf", "Het boek als pdf"),
                                                                 ("../pdf/spelregels-2007.pdf", "Het boek als pdf")]
    from pipeline.outputs.text import file_names
    assert [os.path.normpath(site.root / a.get("href")) for a in links] == [
        str(site.root.parent / file_names(lang.profile("nl")).pdf(ed))
                                                          for ed in ("2017", "2007")]
    from dataclasses import replace
    from pipeline.core.options import Options
    plain = Job.of_tree(etree.fromstring(SAMPLE), tmp_path, lang.profile("nl"), sample_log())
    html.write_html(Job(replace(plain.context, options=Options(no_pdf=True)), tmp_path))
    assert lxml.html.fromstring((tmp_path / "html" / "index.html").read_bytes()).xpath("//a[@type='application/pdf']") == []
