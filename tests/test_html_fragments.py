"""The law text of the site's pages (templates/html/fragments.html, installed by outputs/site/fragments.py):
every value escaped by autoescape, every word formatted in as jinja2's i18n _() does (the HTML tests hold
the whole pages)."""
import jinja2

from pipeline.core import lang
from pipeline.outputs import text
from pipeline.outputs.site import pages
from pipeline.outputs.site.fragments import Words


def jinja_words(profile, source, **values):
    """What a template of jinja2's own i18n _() (newstyle, autoescape) renders for `source`."""
    env = text.install(jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined), profile)
    return env.from_string(source).render(**values)


def macros(profile):
    """The law text's macros of the site's template environment in `profile`'s words."""
    return pages.environment(profile).get_template("fragments.html").module


def test_the_templates_words_are_what_jinja2s_own_gettext_gives():
    nl = lang.profile("nl")
    fragments = Words(nl)
    assert str(fragments.word("note %(number)s", number=3)) == jinja_words(nl, '{{ _("note %(number)s", number=3) }}') \
        == "noot 3"
    # A value is escaped, the words are trusted; asked twice (the second time from the kept words), the same.
    said = fragments.word("was %(cite)s", cite="<b>&")
    assert str(said) == jinja_words(nl, '{{ _("was %(cite)s", cite=c) }}', c="<b>&") == "was &lt;b&gt;&amp;"
    assert fragments.word("Skip to the content") == fragments.word("Skip to the content") == "Naar de inhoud"


def test_inline_pieces_are_escaped_and_marked_as_the_templates_marked_them():
    fragments = macros(lang.profile("nl"))
    pieces = [{"text": 'a < b & "c" '},
              {"ref": "artikel 12", "href": "../2017/12.html", "title": "ook: 13", "status": "suspect"},
              {"text": " "}, {"note": True, "number": 2, "anchor": "53A-noot2"},
              {"ref": "artikel 99", "href": None, "title": "<niet>", "status": "missing"}]
    assert str(fragments.inline(pieces)) == (
        'a &lt; b &amp; &#34;c&#34; <a class="ref suspect" href="../2017/12.html" title="ook: 13">artikel 12</a> '
        '<sup class="noteref" data-pagefind-ignore><a id="ref-53A-noot2" href="#53A-noot2" role="doc-noteref" '
        'aria-label="noot 2">2</a>'
        '</sup><span class="ref missing" title="&lt;niet&gt;">artikel 99</span>')


def test_a_nested_node_is_a_section_with_its_label_heading_and_content_on_lines_of_their_own():
    fragments = macros(lang.profile("nl"))
    item = {"cite": "50D2a", "shown": "50D2(a)", "mark": "(a)", "tag": "item", "heading": None, "inferred": True,
            "renumbered": None,
            "content": [{"kind": "gap", "reason": None}]}
    node = {"cite": "50D", "shown": "50D", "mark": "D.", "tag": "section", "heading": "Kaarten & co", "inferred": False,
            "renumbered": None, "content": [{"kind": "p", "pieces": [{"text": "Tekst"}]}, {"kind": "node", "node": item}]}
    assert str(fragments.content({"content": [{"kind": "node", "node": node}]})) == (
        '<section class="section" id="50D" aria-labelledby="h-50D">\n'
        '<h2 id="h-50D"><a class="cite" href="#50D">50D</a> '
        '<span class="heading">Kaarten &amp; co</span></h2>\n'
        '<p>Tekst</p>\n'
        '<section class="item" id="50D2a" aria-labelledby="h-50D2a">\n'
        '<h4 id="h-50D2a" class="hang"><a class="cite hang" href="#50D2a" data-mark="(a)">'
        '<span class="visually-hidden">50D2(a)</span></a>'
        '<abbr class="inferred" title="nummering afgeleid" role="img" aria-label="nummering afgeleid"></abbr></h4>\n'
        '<p class="gap" role="note"><span class="gap-label">Redactie:</span> '
        'hier ontbreekt tekst in de bronnen</p>\n\n'
        '</section>\n\n'
        '</section>\n')


def test_a_sub_level_with_heading_words_keeps_its_heading_line_and_hangs_only_its_number():
    fragments = macros(lang.profile("nl"))
    node = {"cite": "8B4", "shown": "8B4", "mark": "4.", "tag": "subsection", "heading": "Kop", "inferred": False,
            "renumbered": None, "content": [{"kind": "p", "pieces": [{"text": "Tekst"}]}]}
    assert str(fragments.content({"content": [{"kind": "node", "node": node}]})) == (
        '<section class="subsection" id="8B4" aria-labelledby="h-8B4">\n'
        '<h3 id="h-8B4"><a class="cite hang" href="#8B4" data-mark="4."><span class="visually-hidden">8B4</span></a> '
        '<span class="heading">Kop</span></h3>\n'
        '<p>Tekst</p>\n\n'
        '</section>\n')
