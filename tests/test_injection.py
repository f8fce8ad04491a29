"""Hostile text: markup, entities, template syntax and Typst markup in a source come out as inert
text in every output (XML, JSON, Markdown, HTML, PDF); nothing in a source executes or is read
as markup. Control characters are refused or read as spaces (see test_errors.py)."""
import json

import pytest
from lxml import etree, html as lxml_html

from pipeline.publish import run as build_mod
from pipeline.outputs import serialise

from conftest import add_source

# One hostile article: each payload is on a line of its own, so a failure names the form.
PAYLOADS = [
    '<script>alert("xss")</script>',
    '<img src=x onerror=alert(1)>',
    '<!ENTITY xxe SYSTEM "file:///etc/passwd">',
    '<!DOCTYPE corpus [<!ENTITY lol "lol">]>',
    "&xxe; &lt; &amp;",
    "{{ 7*7 }} {{ config }}",
    "{% include '/etc/passwd' %}",
    "{# commentaar #}",
    '#set text(fill: red) #raw(read("/etc/passwd")) #let x = 1',
    '$x^2$ *vet* _schuin_ @label <label> `code` // regel /* blok */ \\ ] [',
    "]]> <![CDATA[ x ]]>",
    "</p></article><article id=\"2017/1\">",
    '"); } alert(1); //',
]
HOSTILE = ("ARTIKEL 95\n\nArtikel 95\n\nVijandige tekst <b>zonder</b> opmaak\n\n"
           + "".join(f"{n}. Geval {n}: {payload} einde.\n" for n, payload in enumerate(PAYLOADS, 1))
           + "\nTekst\tmet tab en een noot (Noot: noot met <script>alert(2)</script> en {{ 6*7 }}) einde.\n")


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory):
    """The real sources plus one hostile wiki page for 2017, built once for all tests here."""
    import shutil
    from conftest import SOURCES
    root = tmp_path_factory.mktemp("hostile")
    sources = root / "sources"
    shutil.copytree(SOURCES, sources)
    add_source(sources, "vijandig.txt", HOSTILE)
    out = root / "out"
    build_mod.build(sources, out)
    return out


def _words(text):
    return " ".join(text.split())


def test_xml_keeps_every_payload_as_text(hostile_build):
    data = (hostile_build / "corpus.xml").read_bytes()
    corpus = serialise.parse_xml(data)
    assert b"<!ENTITY" not in data and b"<!DOCTYPE" not in data and b"<script" not in data
    article = corpus.find(".//article[@id='2017/95']")
    text = _words(" ".join(article.itertext()))
    for payload in PAYLOADS:
        assert _words(payload) in text, payload
    # Nothing became an element: only the corpus vocabulary.
    tags = {el.tag for el in article.iter()}
    assert tags <= {"article", "title", "section", "subsection", "item", "heading", "p", "note", "ref", "gap"}, tags
    assert [n.text for n in article.iter("note")] == ["noot met <script>alert(2)</script> en {{ 6*7 }}"]


def test_json_keeps_every_payload_as_text(hostile_build):
    data = json.loads((hostile_build / "corpus.json").read_text(encoding="utf-8"))
    dumped = json.dumps(data, ensure_ascii=False)
    for payload in PAYLOADS:
        assert json.dumps(payload, ensure_ascii=False)[1:-1] in dumped, payload


def test_xml_parser_resolves_no_entity_and_fetches_nothing(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("GEHEIM", encoding="utf-8")
    evil = (f'<?xml version="1.0"?><!DOCTYPE corpus [<!ENTITY xxe SYSTEM "file://{secret}">'
            '<!ENTITY remote SYSTEM "http://127.0.0.1:9/x">'
            '<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'
            '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>'
            '<corpus>&xxe;&remote;&c;</corpus>').encode()
    corpus = serialise.parse_xml(evil)
    assert "GEHEIM" not in etree.tostring(corpus, encoding="unicode")
    assert "aaaaaaaaaa" not in "".join(corpus.itertext())


def html_pages(out):
    return sorted((out / "html").rglob("*.html")) if (out / "html").is_dir() else []


def test_html_keeps_every_payload_as_text(hostile_build):
    pages = html_pages(hostile_build)
    if not pages:
        pytest.skip("the HTML stage writes no pages yet")
    page = hostile_build / "html" / "2017" / "95.html"
    assert page.exists(), [p.name for p in pages]
    doc = lxml_html.fromstring(page.read_bytes())
    text = _words(doc.text_content())
    for payload in PAYLOADS:
        assert _words(payload) in text, payload
    assert "49" not in text.split() and "42" not in text.split()  # no template was evaluated
    for p in pages:
        doc = lxml_html.fromstring(p.read_bytes())
        for script in doc.iter("script"):
            assert "alert" not in (script.text or "") and "alert" not in (script.get("src") or ""), p
        for el in doc.iter():
            if isinstance(el.tag, str):
                assert not any(name.startswith("on") for name in el.attrib), (p, el.tag, dict(el.attrib))
        assert doc.find(".//img[@src='x']") is None, p


def test_markdown_escapes_the_payloads(hostile_build):
    md = hostile_build / "2017" / "lawbook.md"
    if not md.exists():
        pytest.skip("the Markdown stage writes nothing yet")
    from markdown_it import MarkdownIt
    rendered = MarkdownIt("commonmark", {"html": True}).render(md.read_text(encoding="utf-8"))
    assert "<script" not in rendered and "<img" not in rendered and "<b>" not in rendered
    assert "&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;" in rendered


def test_pdf_prints_the_payloads_as_text(hostile_build):
    pdf = hostile_build / "pdf" / "spelregels-2017.pdf"
    if not pdf.exists():
        pytest.skip("the PDF stage writes no PDF yet")
    pypdf = pytest.importorskip("pypdf")
    text = _words(" ".join(page.extract_text() or "" for page in pypdf.PdfReader(str(pdf)).pages))
    for token in ("<script>alert", "{{ 7*7 }}", "{% include", "#set text(fill: red)", '#raw(read("/etc/passwd"))',
                  "$x^2$", "*vet*", "_schuin_", "@label", "<!ENTITY xxe"):
        assert token in text, token
    assert "root:x:0" not in text  # no file was read into the PDF
