"""The outputs' words come from the language profile: every word the templates and output modules ask
for is in the Dutch profile, with the same placeholders as its key, and a second profile changes
the words and the lang of what is written.
"""
import ast
import datetime
import re

import jinja2
import lxml.html
import pytest
from lxml import etree

from conftest import ROOT
from pipeline.core import lang
from pipeline.core.lang import Profile
from pipeline.outputs import markdown, pdf, text
from pipeline.outputs.book import compiling, view as pdf_view
from pipeline.outputs.site import editor, model, pages
from pipeline.outputs.diff import compare, render
from test_html import SAMPLE, sample_log

DUTCH = lang.profile("nl")
TEMPLATES = sorted(p for p in (ROOT / "templates").rglob("*") if p.suffix in (".html", ".j2", ".typ"))
MODULES = [ROOT / "pipeline" / "outputs" / name for name in
           ("html.py", "markdown.py", "pdf.py", "text.py", "diff/render.py")] + \
    sorted((ROOT / "pipeline" / "outputs" / "site").glob("*.py")) + sorted((ROOT / "pipeline" / "outputs" / "book").glob("*.py"))
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def template_keys(path):
    """(line, key) of every _("…") in a template, as jinja2's own extraction finds them."""
    env = jinja2.Environment(extensions=["jinja2.ext.i18n"])
    for line, _, message in env.extract_translations(path.read_text(encoding="utf-8")):
        yield line, message[0] if isinstance(message, tuple) else message


def module_keys(path):
    """(line, key) of every literal word an output module asks for: say(profile, "…"), self.say("…"),
    profile.word("…"), and the English of its word tables (REPORT_SECTIONS, MONTHS, STATUS, …)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            position = 1 if isinstance(node.func, ast.Name) and name == "say" else 0
            if name in ("say", "word") and len(node.args) > position:
                arg = node.args[position]
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    yield node.lineno, arg.value


def table_keys():
    """The English of the word tables the modules look words up in by name, not by literal."""
    yield from (w for _, title, intro in editor.REPORT_SECTIONS for w in (title, intro))
    yield from pdf_view.MONTHS
    yield from render.STATUS.values()
    yield from (editor.NOT_IN_CORPUS, pdf_view.PUBLISHER, text.TITLE)


def missing_words(path, keys, root=ROOT):
    return [f"{path.relative_to(root)} line {line}: no Dutch words for {key!r}"
            for line, key in keys(path) if key not in DUTCH.words]


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_word_a_template_asks_for_is_in_the_dutch_profile(path):
    missing = missing_words(path, template_keys)
    assert not missing, "\n".join(missing)


def test_a_template_word_the_profile_lacks_is_named_with_template_and_line(tmp_path):
    page = tmp_path / "page.html"
    page.write_text('<h1>{{ _("Article %(num)s", num=1) }}</h1>\n<p>{{ _("No such words") }}</p>\n')
    assert missing_words(page, template_keys, tmp_path) == ["page.html line 2: no Dutch words for 'No such words'"]


def test_the_templates_ask_for_their_words():
    # The extraction above finds something to check: the article page asks for its heading.
    assert (3, "Article %(num)s") in list(template_keys(ROOT / "templates/html/article.html"))
    assert any(key == "Contents" for _, key in template_keys(ROOT / "templates/pdf/book.typ.j2"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_word_an_output_module_asks_for_is_in_the_dutch_profile(path):
    missing = missing_words(path, module_keys)
    assert not missing, "\n".join(missing)


def test_a_module_word_the_profile_lacks_is_named_with_module_and_line(tmp_path):
    module = tmp_path / "writer.py"
    module.write_text('title = say(profile, "Article %(num)s", num=1)\nnote = profile.word("No such words")\n')
    assert missing_words(module, module_keys, tmp_path) == ["writer.py line 2: no Dutch words for 'No such words'"]


def test_every_word_of_the_word_tables_is_in_the_dutch_profile():
    assert [key for key in table_keys() if key not in DUTCH.words] == []


def test_the_modules_ask_for_their_words():
    assert "Commentary on article %(num)s" in {k for _, k in module_keys(ROOT / "pipeline/outputs/book/view.py")}
    assert "Editorial note on %(cite)s: %(text)s" in {k for _, k in module_keys(ROOT / "pipeline/outputs/markdown.py")}


def test_each_dutch_word_has_the_placeholders_of_its_key():
    wrong = [f"{key!r}: {value!r}" for key, value in DUTCH.words.items()
             if sorted(PLACEHOLDER.findall(key)) != sorted(PLACEHOLDER.findall(value))
             or "%" in PLACEHOLDER.sub("", value).replace("%%", "")]
    assert not wrong, "\n".join(wrong)


# ---------------------------------------------------------------- a second profile

# A made-up language: every word is its English key marked, so each one shows where it came from.
MADE_UP = Profile(code="xx", region="XQ", name="Test", rules=DUTCH.rules,
                  words={key: f"[xx] {key}" for key in DUTCH.words})


def article_page(profile, number="41"):
    site = model.Site(etree.fromstring(SAMPLE), sample_log(), profile)
    site.link_editions()
    site.fill("2017")
    article = next(a for a in site.articles["2017"] if a.num == number)
    source = pages.environment(profile).get_template("article.html").render(
        root="../", edition="2017", article=article, in_force="2017")
    return source, lxml.html.fromstring(source)


def test_an_article_page_speaks_the_language_of_its_profile():
    source, page = article_page(MADE_UP)
    assert page.get("lang") == "xx"
    assert page.findtext(".//h1") == "[xx] Article 41"
    assert page.findtext(".//title") == "[xx] Article 41 – Het begin van het spelen (2017) · " \
                                        "[xx] Laws of Duplicate Bridge"
    assert page.find(".//nav[@class='crumbs']").get("aria-label") == "[xx] Breadcrumb"
    assert page.findtext(".//section[@class='notes']/h2") == "[xx] Notes"
    # The dangling reference's title, a word the Site adds in Python.
    assert page.find(".//p//span[@class='ref missing']").get("title") == \
        "[xx] refers to an article that is not in this edition"
    assert "Artikel" not in source and "Uitgave" not in source and 'lang="nl"' not in source


def test_the_same_page_in_dutch():
    source, page = article_page(DUTCH)
    assert page.get("lang") == "nl"
    assert page.findtext(".//h1") == "Artikel 41"
    assert page.find(".//p//span[@class='ref missing']").get("title") == \
        "verwijst naar een artikel dat niet in deze uitgave staat"
    assert "[xx]" not in source


def test_markdown_pdf_and_diff_speak_the_language_of_their_profile():
    corpus = etree.fromstring(SAMPLE)
    assert markdown.render(corpus, "2017", MADE_UP).startswith(
        "# \\[xx\\] Laws of Duplicate Bridge — \\[xx\\] edition 2017\n\n## \\[xx\\] Article 41 ")
    edition = corpus.find("edition[@id='2017']")
    source = pdf.typst_source(edition, datetime.date(2025, 11, 30), profile=MADE_UP)
    assert 'lang: "xx", region: "XQ"' in source
    # Words in markup are escaped: the brackets print, they open no content block.
    assert "[\\[xx\\] Contents] <contents>" in source
    assert '#text(size: 9pt, "[xx] Sources as of [xx] [xx] November 30, 2025")' in source
    old, new = corpus.find("edition[@id='2007']"), edition
    page = lxml.html.fromstring(render.to_html(compare(old, new), MADE_UP))
    assert page.get("lang") == "xx"
    assert page.findtext(".//h1") == "[xx] Laws of Duplicate Bridge: 2007 → 2017"


def test_a_word_the_profile_lacks_is_named():
    with pytest.raises(KeyError, match="the xx profile has no words for 'refers to an article that is not in "
                                       "this edition'"):
        article_page(Profile(code="xx", region="XQ", name="Test", rules=DUTCH.rules, words={}))


def test_the_pdf_prints_the_profile_words_in_markup_as_written():
    import pypdfium2

    edition = etree.fromstring(SAMPLE).find("edition[@id='2017']")
    source = pdf.typst_source(edition, datetime.date(2025, 11, 30), profile=MADE_UP)
    document = pypdfium2.PdfDocument(compiling.render_pdf(source, datetime.datetime(2025, 11, 30,
                                                                              tzinfo=datetime.timezone.utc)))
    words = " ".join(" ".join(page.get_textpage().get_text_range().split()) for page in document)
    assert "[xx] Contents" in words
    assert "[[xx] Editorial note: the rest of 47E is in none of the sources]" in words
