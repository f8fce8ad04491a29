"""The book's words: what the reader of printed books looks for, made from the language profile once.

A language gives only its words (core/lang/<code>/rules.py): the article word as printed and as cited
("LAW", "Law"; "ARTIKEL", "Artikel", "Art."; "LOI", "Loi"), the titles of the book's parts. Every layer of
the reader matches them in any case, through the patterns here; no layer holds a word of a language.
"""
import re
from dataclasses import dataclass

from ...core import lang

DASH = r"[-\u00ad\u2010\u2013\u2014]"  # between an article's number and its title: "LOI 1 - LE JEU DE CARTES"
# A contents entry's leader dots and page number after its title ("Le jeu de cartes ....... 17"): no heading.
LEADER_DOTS = re.compile(r"\.{3,}\s*\d+\s*$")


@dataclass(frozen=True)
class BookWords:
    """The patterns of one language's book (book_words(profile) makes them)."""
    rules: lang.LanguageRules
    keyword: str  # the article word as the book prints its headings: "LAW", "ARTIKEL" (the messages' form)
    # An article heading alone on its line, the word in any case: "LAW 53", "Law 53", "Artikel 16" (group 1
    # the number) …
    article: re.Pattern[str]
    # … or with its title after a dash on the same line: "LOI 1 - LE JEU DE CARTES" (group 1, group 2 the title)
    titled: re.Pattern[str]
    # The heading in the printed capitals alone ("LAW 53", "ARTIKEL 24"): the form a running head never has.
    capitals: re.Pattern[str]
    # A line that starts like an article heading (the word, in capitals or capitalised, then a digit).
    start: re.Pattern[str]
    # A contents entry of an article: "LAW 9 - PROCEDURE FOLLOWING 12", "LOI 1 - Le jeu de cartes ..... 17",
    # "LAW 12 DIRECTOR'S POWERS": group 1 the number, group 2 the rest.
    contents_article: re.Pattern[str]
    contents_title: re.Pattern[str]  # the part titles, alone on a line, in any case
    definitions_title: re.Pattern[str]
    introduction_title: re.Pattern[str]
    index_title: re.Pattern[str]
    annex_title: re.Pattern[str] | None
    # What makes a number after it part of a citation: "by Law" + "19. Law 36 applies".
    citing: re.Pattern[str]
    # … a citation list going on: "Laws 4, 12C2 and".
    citing_list: re.Pattern[str]
    # What leads into a list whose first entry's text starts in lower case: punctuation, or a list word
    # ("He may: 1. require …; 2. forbid …", "… or 2. …").
    leads_in: re.Pattern[str]
    # The relative words before an item's marker that cite it ("see (a)") …
    relative: re.Pattern[str]
    # … and the directions after one ("(d) hereunder").
    direction: re.Pattern[str]

    def heading(self, text: str) -> tuple[str, str | None] | None:
        """(number, title on the same line or None) of an article heading, else None. The article word is
        capitalised or in capitals ("artikel 54" at a line's start is a citation wrapped there); a title
        after the dash starts with a capital and ends no sentence: "Law 12 - see Law 13." is running text."""
        if not text.lstrip()[:1].isupper():
            return None
        if m := self.article.match(text):
            return m.group(1), None
        if (m := self.titled.match(text)) and m.group(2)[:1].isupper() and not m.group(2).endswith((".", ";", ",")) \
                and not LEADER_DOTS.search(m.group(2)):
            return m.group(1), m.group(2).strip()
        return None


def heading_words(rules: lang.LanguageRules) -> tuple[str, ...]:
    """The words an article heading starts with: the printed and the cited article word, and an
    abbreviation written with its full stop ("Art.")."""
    short = tuple(w for w in rules.ARTICLE_SHORT if w.endswith("."))
    return tuple(dict.fromkeys((rules.ARTICLE_WORD_PRINTED, rules.ARTICLE_WORD, *short)))


def _title(text: str) -> re.Pattern[str]:
    """A part's title alone on its line, in any case, its spaces as the extractor wrote them."""
    return re.compile(r"\s*" + r"\s+".join(map(re.escape, text.split())) + r"\s*$", re.IGNORECASE)


@lang.compiled
def book_words(rules: lang.LanguageRules) -> BookWords:
    words = "|".join(re.escape(w) for w in heading_words(rules))
    keywords = "|".join(re.escape(w) for w in (rules.ARTICLES, rules.ARTICLE))
    # A title after the dash is the title's words: it starts with a letter (never "Law 12 - 14", a range).
    titled = rf"^\s*(?:{words})[\s\u00a0]*(\d+)[\s\u00a0]*{DASH}[\s\u00a0]*([^\W\d_].*?)\s*$"
    annex = getattr(rules, "ANNEX_TITLE", None)
    return BookWords(
        rules=rules,
        keyword=rules.ARTICLE_WORD_PRINTED,
        article=re.compile(rf"^\s*(?:{words})[\s\u00a0]*(\d+)\s*$", re.IGNORECASE),
        titled=re.compile(titled, re.IGNORECASE),
        capitals=re.compile(rf"^\s*{re.escape(rules.ARTICLE_WORD_PRINTED)}[\s\u00a0]+(\d+)\s*$"),
        start=re.compile(rf"\s*({words})[\s\u00a0]*\d", re.IGNORECASE),
        contents_article=re.compile(rf"^\s*(?:{words})[\s\u00a0]+(\d+)(?:[\s\u00a0]*{DASH}|[\s\u00a0])[\s\u00a0]*(.*)$",
                                    re.IGNORECASE),
        contents_title=_title(rules.CONTENTS_TITLE),
        definitions_title=_title(rules.DEFINITIONS_TITLE),
        introduction_title=re.compile(rf"\s*(?:{rules.INTRODUCTION_TITLE})", re.IGNORECASE),
        index_title=re.compile(rf"\s*(?:{rules.INDEX_TITLE})", re.IGNORECASE),
        annex_title=re.compile(rf"\s*(?:{annex})", re.IGNORECASE) if annex else None,
        citing=re.compile(rf"\b(?:{keywords})\s*$", re.IGNORECASE),
        citing_list=re.compile(rf"\b(?:{keywords})\s+\d[\dA-Za-z()]*(?:\s*,\s*\d[\dA-Za-z()]*)*\s*"
                               rf"(?:,|{'|'.join(map(re.escape, rules.LIST_WORDS))})\s*$", re.IGNORECASE),
        leads_in=re.compile(rf"(?:[:;,.]|\s(?:{'|'.join(map(re.escape, rules.LIST_WORDS))}))\s*$"),
        relative=re.compile(rf"\b(?:{'|'.join(map(re.escape, rules.RELATIVE))})\s*$", re.IGNORECASE),
        direction=re.compile(rf"\s*(?:{'|'.join(map(re.escape, (*rules.ABOVE, *rules.BELOW)))})\b", re.IGNORECASE),
    )
