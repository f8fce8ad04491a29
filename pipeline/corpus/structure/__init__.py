"""Blocks to article trees: restore the law's numbering and give every node its ID.

Reads: a Reading (blocks of one source, text already repaired) and its format's Rules
(reading.rules, declared in reading/formats): what the layout writes and what must be restored.
Writes: a Fragment: the articles and commentary this source shows, as lxml
elements (see tree.py), plus a ledger line -> Placed(node ID) or Accounted(reason)
for every line used.
Guarantees:
  - a shown article belongs to its own number, whatever page shows it;
  - list numbers become the letters/numbers of the level they stand for, from the
    evidence of the page ("Artikel 50D" then "1." = subsection 50D1) and the
    indentation; a number the format's rules do not take as written (Rules.list_numbers)
    is logged as an inference with the citations in the sources that confirm it
    ("artikel 53A", "(maar zie B)", "C2 hierboven");
  - every block ends up in exactly one node, or in the ledger with a reason;
  - a table block (kind "table", its rows) is a <table> in the node open where it stands (after a
    definition: that definition's; among the introduction's paragraphs: the introduction's), in order
    among the node's paragraphs; its lines, its rows' and its notes' are the node's, in its sources and
    the ledger;
  - numbering never goes back inside one showing of an article (a section, subsection
    or item that begins again, or comes after a later one, is an error: it is how the
    text of an article whose heading line was not recognised shows up), and an article
    whose sections are numbered gets no section from a lone heading-like line (where the
    rules read such lines as sections at all);
  - where the rules say the source is the book's pages in order, the article numbers go up;
  - one article shown twice in one source is merged as merge.py merges two sources:
    the same text once (the repeat logged), different text a conflict.

One job per module: build.py (a reading to its fragment), articles.py (one article's nodes), parts.py
(definitions, introduction, commentary, what is kept apart), evidence.py (the citations that confirm an
inferred number), fragment.py (what the stage makes of one source), memo.py (the fragments kept for a
rebuild).
"""
from .fragment import Fragment
from .evidence import (ANY_NUMBER, AskedEvidence, CONFIRMED, Evidence, INDENTED, RelativePlaces, UNCONFIRMED,
    rests_on_indentation)
from .parts import (APART, APART_SUMMARY, add_introduction, commentary_of, definition_of, merge_repeat, num_in, part_table,
    remarks_of, table_element, table_lines, write_node_sources)
from .articles import ArticleBuilder, LEVEL_INDEX
from .build import build_fragment
from .memo import Built, fragment, fragments, lines_digest

__all__ = ["ANY_NUMBER", "APART", "APART_SUMMARY", "ArticleBuilder", "AskedEvidence", "Built", "CONFIRMED",
           "Evidence", "Fragment", "INDENTED", "LEVEL_INDEX", "RelativePlaces", "UNCONFIRMED", "add_introduction",
           "build_fragment", "commentary_of", "definition_of", "fragment", "fragments", "lines_digest",
           "merge_repeat", "num_in", "part_table", "remarks_of", "rests_on_indentation", "table_element",
           "table_lines", "write_node_sources"]
