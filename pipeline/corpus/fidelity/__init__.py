"""Never a quietly wrong book: the corpus, once read, against what law text cannot contain.

Reads: the corpus (after the book check, before the references: no <ref> stands in it yet, so a citation
is found as the references stage finds it, refs.find_citations), the readings (the page furniture their
readers dropped), every source's lines (the line a finding stands on; the book's vocabulary,
repair.book_vocabulary), the book's profile (its citation words, its conjunctions) and the report so far
(what a reader reported already). Writes: an error in the report for each finding, so that the build
fails, or an "uncertain" inference where two readings fit; each names the file and line and the node.

Law text is what the nodes hold (articles and their parts, the introduction, the definitions): their
paragraphs, titles and headings and the notes in them. A commentary is a personal remark, not law text,
and is not checked. The checks:

  1. marker       a footnote marker's form left in a paragraph's own text (outside its notes): a word of two
                  letters or more, not all capitals, with one or two digits glued after it ("leider2",
                  "beneden1."), or a sign glued after a word or its punctuation ("exiger*", "séance*.",
                  "woord†", "woord[1]", "woord¹"). Never a citation ("artikel 12C1", "40B2(a)", "Law12": as
                  the references stage reads them), a call ("4NT", "1NT", "2♠"), a card holding in capitals
                  ("AQ2"), an ordinal ("1e", "2nd"), an ID ("2017/41A/noot1") or an address.
  2. notes        a note without text (its marker stands, the footnote it marks says nothing); a paragraph
                  that is a footnote's body kept as law text: it starts with a footnote's label ("1) Het …",
                  "[1] …", "¹ …", "↑ …"): an error where a marker of that number stands in its article's
                  text, else uncertain (a list entry numbered "1)" reads so too); a paragraph that goes on
                  with the next label ("1) The process … 2) The aggregate …", a definition's senses) is a
                  list. What a reader already reported as an error at the same line (a footnote without a
                  marker, a marker without a footnote) is not reported again.
  3. furniture    the running heads and feet of the source's pages (the readers' dropped entries name them)
                  of HEAD_LENGTH characters or more inside a paragraph, and the source's own page number
                  forms with a word ("Page 12"): an error where the source line it stands on holds nothing
                  else (a page break the reader did not see), else uncertain (the book's title may be cited
                  in its text); a page number between dashes between words ("kaart - 28 - wordt"): always an
                  error. A running head that cites ("Artikel 41") is the law's words too: never looked for.
  4. hyphens      a soft hyphen (U+00AD) left in law text: always an error; a word split by a line-end hyphen
                  and a space ("voor- spelen", "ove- rtredende": the word after it in lower case, no
                  conjunction: "bied- of speelwijze" is an elliptic compound): an error where the book's
                  vocabulary has the joined word and not the hyphenated one (or the hyphenated one alone),
                  uncertain where it has both, nothing where it has neither; a compound written joined where
                  the edition writes it hyphenated more often ("nonoffending", "non-offending": an extraction
                  that joins a word broken at a line's end drops the hyphen of a compound broken there too):
                  uncertain, the word kept as the source has it.
  5. indentation  nodes whose level rests on a source's indentation alone (structure.rests_on_indentation:
                  "list number N. indented k level(s)" and no citation confirming it) and whose list number
                  reads as a wrapped line's: it is not the number of its place in the list ("16." where item
                  (a) would stand), or its line goes on from the line before (which ends in no punctuation,
                  no list word and is no heading). A plain-text export whose wrapped lines are indented reads
                  so; a wiki's lists, nested by indentation, numbered in order after an entry that ends, do not
                  (the wiki's 50D, the generated books). Where one source gives MANY_INDENTED or more, one error
                  naming the first and how many; fewer, uncertain.
  6. no notes     an edition without any note whose text holds LOST_NOTES or more marker forms (check 1's):
                  one error, the readers lost its footnotes.

A paragraph's first finding of each kind is reported with how many more of that kind stand in it: the
report grows with the paragraphs, never with what one paragraph holds. Each check is one pass over the
text (a running head is looked up by its first word, never searched for in every paragraph).

One job per module: forms.py (what is looked for), checks.py (the checks), stage.py (check_fidelity).
"""
from .forms import (ADDRESS, BODY, COMPOUND, DASHED_FOLIO, FOLIO_BESIDE, FOLIO_SHAPE_MAX, FURNITURE, Finding, Form, Furniture,
    GLUED, HEAD_LENGTH, HOLDERS, HYPHENATED, LAW_NODES, LETTER, LOST_NOTES, MANY_INDENTED, NEAR,
    OPENING_STARS, PAGE_NUMBER, PARTS, Place, Run, SHOWN, SIGN, SIGN_CHARS, SOFT_HYPHEN, SPACE, SPLIT,
    SUPERSCRIPTS, Sources, TEMPLATE_MARKER, TWO_LETTERS, holder_of, marker_forms, more, node_of, number_of,
    own_runs, shown, shown_end, template_markers, times)
from .checks import Check
from .stage import check_fidelity

__all__ = ["ADDRESS", "BODY", "COMPOUND", "Check", "DASHED_FOLIO", "FOLIO_BESIDE", "FOLIO_SHAPE_MAX", "FURNITURE",
           "Finding", "Form", "Furniture", "GLUED", "HEAD_LENGTH", "HOLDERS", "HYPHENATED", "LAW_NODES", "LETTER",
           "LOST_NOTES", "MANY_INDENTED", "NEAR", "OPENING_STARS", "PAGE_NUMBER", "PARTS", "Place", "Run", "SHOWN",
           "SIGN", "SIGN_CHARS", "SOFT_HYPHEN", "SPACE", "SPLIT", "SUPERSCRIPTS", "Sources", "TEMPLATE_MARKER",
           "TWO_LETTERS", "check_fidelity", "holder_of", "marker_forms", "more", "node_of", "number_of", "own_runs",
           "shown", "shown_end", "template_markers", "times"]
