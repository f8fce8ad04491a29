"""Matching a book's articles (outputs/diff/compare.Comparison.match, more than WEIGH_ALL_MAX pairs): an
article with the same number and title is paired whatever its text, one with the same number but another
title and text is not, and a duplicated number has its pairs weighed by their texts."""
from lxml import etree

from pipeline.outputs.diff.compare import WEIGH_ALL_MAX, Comparison

WORDS = "de leider mag een speler die buiten zijn beurt speelt straffen volgens deze regels".split()


def text(n):
    """A sentence of its own for article n: words no other article's sentence has in that order."""
    return " ".join(WORDS[(n * 7 + k) % len(WORDS)] + str(n) for k in range(8))


def edition(year, articles):
    ed = etree.Element("edition", id=year)
    for num, title, words in articles:
        article = etree.SubElement(ed, "article", id=f"{year}/{num}", num=num)
        etree.SubElement(article, "title").text = title
        etree.SubElement(article, "p").text = words
    return ed


def pairs(old, new):
    comparison = Comparison(old, new)
    return [(o.get("num") if o is not None else None, n.get("num") if n is not None else None, how)
            for o, n, how in comparison.match(list(old.iterchildren("article")), list(new.iterchildren("article")))]


def test_a_books_articles_pair_by_number_and_title_and_a_renumbered_one_by_its_text():
    old = [(str(n), f"Titel {n}", text(n)) for n in range(1, 26)]
    new = list(old)
    new[2] = ("3", "Titel 3", text(99))  # the same number and title, all its words new: still article 3
    new[6] = ("7", "Een ander opschrift", text(98))  # number 7 kept, title and text not: no pair
    new[9] = ("30", "Titel 10", text(10))  # article 10's text under number 30: renumbered
    assert len(old) * len(new) > WEIGH_ALL_MAX
    got = pairs(edition("2007", old), edition("2017", new))
    assert ("3", "3", "citation") in got
    assert ("7", None, None) in got and (None, "7", None) in got
    assert ("10", "30", "text") in got
    assert [p for p in got if p[2] == "citation"] == [(str(n), str(n), "citation") for n in range(1, 26)
                                                      if n not in (7, 10)]


def test_a_number_twice_in_a_book_pairs_the_article_whose_text_is_closer():
    old = [(str(n), f"Titel {n}", text(n)) for n in range(1, 26)]
    old.insert(4, ("4", "Titel 4", text(97)))  # a second article 4, its text unlike the new 4's
    new = [(str(n), f"Titel {n}", text(n)) for n in range(1, 26)]
    got = pairs(edition("2007", old), edition("2017", new))
    citation = [(o, n) for o, n, how in got if how == "citation"]
    assert citation.count(("4", "4")) == 1 and ("4", None, None) in got
    # The first 4, whose text is the new 4's, is paired; the second stands after it, on its own.
    assert got.index(("4", None, None)) > got.index(("4", "4", "citation"))
