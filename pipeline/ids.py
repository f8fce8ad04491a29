"""All ID rules in one place.

An ID is the edition and the citation the law itself uses:
    2017/53      article 53
    2017/53A     section A
    2017/50D2    subsection 2 of section D
    2017/50D2a   item (a) of that subsection
Notes and commentary hang below their node: 2017/41A/noot1, 2017/54/toelichting1.
"""
import re

LEVELS = ("article", "section", "subsection", "item")

CITATION = re.compile(r"^(?P<article>\d+)(?P<section>[A-Z])?(?P<subsection>\d+)?(?P<item>[a-z])?$")
ID = re.compile(r"^(?P<edition>\d{4})/(?P<cite>\d+(?:[A-Z](?:\d+(?:[a-z])?)?)?)(?:/(?P<extra>[a-z]+\d+))?$")


def parse_citation(cite):
    """'50D2a' -> {'article': '50', 'section': 'D', 'subsection': '2', 'item': 'a'}; None when malformed."""
    m = CITATION.match(cite)
    if not m:
        return None
    parts = m.groupdict()
    # A subsection needs a section, an item needs a subsection: "50a" is no citation.
    if parts["subsection"] and not parts["section"]:
        return None
    if parts["item"] and not parts["subsection"]:
        return None
    return parts


def make_citation(article, section=None, subsection=None, item=None):
    return f"{article}{section or ''}{subsection or ''}{item or ''}"


def make_id(edition, article, section=None, subsection=None, item=None):
    return f"{edition}/{make_citation(article, section, subsection, item)}"


def note_id(node_id, n):
    return f"{node_id}/noot{n}"


def commentary_id(node_id, n):
    return f"{node_id}/toelichting{n}"


def split_id(node_id):
    """'2017/50D2a' -> ('2017', '50D2a')."""
    edition, _, cite = node_id.partition("/")
    return edition, cite.split("/")[0]


def is_well_formed(node_id):
    m = ID.match(node_id)
    return bool(m) and parse_citation(m.group("cite")) is not None


def parent_citation(cite):
    parts = parse_citation(cite)
    keys = [k for k in LEVELS if parts[k]]
    if len(keys) == 1:
        return None
    parts[keys[-1]] = None
    return make_citation(*(parts[k] for k in LEVELS))


def sort_key(num):
    """Order of numbers within one level: 1 < 2 < 10, A < B, a < b."""
    if num.isdigit():
        return (0, int(num), "")
    return (1, 0, num)


def letter_for(n, level):
    """List number n (1-based) as the letter used at `level`: sections A, B…; items a, b…"""
    letter = chr(ord("A") + n - 1)
    return letter if level == "section" else letter.lower()
