"""More made-up layouts of a book's PDF, compiled with Typst here, read as a source with their exact nodes
(pipeline/reading/book/): list markers hanging in the margin, two page sizes in one PDF, and pages set in
two columns (read column by column, reading/book/pdf_lines.py)."""
from hypothesis import assume, example, given, settings, strategies as st

from pipeline.reading.book import pdf as pdfadapter, pdf_glyphs, pdf_lines
from test_pdf_source import build, compile_typst, headings, pdf_source, read_back, set_line

LINES = st.lists(st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=9), min_size=1, max_size=10),
                 min_size=6, max_size=30)

RULE = ("The director sees to it that every player knows this before the first board is played, and that it "
        "holds until the last board of the session has been scored.")

# Each list entry's marker hangs in the left margin (placed 2.2em left of the text), its lines at the body's
# left edge: the marker is not where its text starts. A sub-item's text is set in by 2em, its marker too.
HANGING = r"""
#set page(width: 14.8cm, height: 21cm, margin: (left: 3cm, right: 1.5cm, y: 2cm),
  footer: context align(center, text(size: 8pt, counter(page).display())))
#set text(size: 10pt, lang: "en")
#set par(justify: true)
#let law(n, title) = block(above: 1.8em, below: 0.8em)[LAW #n \ #text(size: 13pt)[#title]]
#let entry(marker, body) = block[#place(dx: -2.2em)[#marker]#body]
#let rule = [RULE]

#law(1)[THE BIDDING BOX]
A player uses the bidding box for each call, and the calls stay on the table until the auction ends. #rule
#entry[1.][A bid is made by taking the card of the bid from the box and placing it on the table in front
  of the player, so that the other players can see it.]
#entry[2.][A pass is made with the green card:]
#entry[(a)][before the auction has begun;]
#entry[(b)][after a bid, when the player has nothing to add:]
#pad(left: 2em, entry[(i)][however long the player has thought about the call;])
#pad(left: 2em, entry[(ii)][whatever the player holds.])
#entry[3.][The box is closed when the auction ends.]
#pagebreak()
#law(2)[SCREENS]
Screens are used in some events. #rule
#pagebreak()
#law(3)[TRAYS]
Trays pass under the screen. #rule
""".replace("RULE", RULE)


def test_list_markers_hanging_in_the_margin_give_their_entries(tmp_path):
    # An article without lettered sections: its numbers are read as its sections, its letters as their
    # subsections, the roman numerals as their items (the corpus's levels, as for the text sources).
    read = read_back(tmp_path, "hanging.pdf", compile_typst(HANGING))
    assert read == {
        "2017/1": "THE BIDDING BOX A player uses the bidding box for each call, and the calls stay on the table until "
                  "the auction ends. " + RULE,
        "2017/1A": "A bid is made by taking the card of the bid from the box and placing it on the table in front of "
                    "the player, so that the other players can see it.",
        "2017/1B": "A pass is made with the green card:",
        "2017/1B1": "before the auction has begun;",
        "2017/1B2": "after a bid, when the player has nothing to add:",
        "2017/1B2a": "however long the player has thought about the call;",
        "2017/1B2b": "whatever the player holds.",
        "2017/1C": "The box is closed when the auction ends.",
        "2017/2": "SCREENS Screens are used in some events. " + RULE,
        "2017/3": "TRAYS Trays pass under the screen. " + RULE}


# Three pages in A5 (their running head and page number where A5's margins put them), then three in US
# letter (margins, head and foot elsewhere): each page's own margins and furniture.
TWO_SIZES = r"""
#set page(paper: "a5", header: context align(right, text(size: 7pt)[Laws of Quiet Play]),
  footer: context align(center, text(size: 8pt, counter(page).display())))
#set text(size: 10pt, lang: "en")
#set par(justify: true)
#let law(n, title) = block(above: 1.8em, below: 0.8em)[LAW #n \ #text(size: 13pt)[#title]]
#set enum(indent: 0pt, body-indent: 0.6em)

#law(1)[THE CLOCK]
A clock is placed where every table can see it, and the director starts it when the round begins.
#enum(numbering: "1.", [The round lasts seven minutes a board.], [The director may add time for a slow
  table, but never more than the time of one board.])
#pagebreak()
#law(2)[THE BELL]
The bell rings two minutes before the end of the round, and again at its end.
#pagebreak()
#law(3)[THE SCORE]
The score is entered at once.
#set page(paper: "us-letter")
#law(4)[THE TRAVELLER]
The traveller goes with the board. It is folded so that the scores of the tables before cannot be seen.

#strong[A. Folding]

The traveller is folded twice.
#pagebreak()
#law(5)[THE RECAP]
The recap sheet lists every score of the session.
#pagebreak()
#law(6)[THE RESULTS]
The results are published after the session.
"""


def test_pages_of_two_sizes_in_one_pdf_give_their_nodes_and_lose_their_furniture(tmp_path):
    read = read_back(tmp_path, "sizes.pdf", compile_typst(TWO_SIZES))
    assert read == {
        "2017/1": "THE CLOCK A clock is placed where every table can see it, and the director starts it when the round "
                  "begins.",
        "2017/1A": "The round lasts seven minutes a board.",
        "2017/1B": "The director may add time for a slow table, but never more than the time of one board.",
        "2017/2": "THE BELL The bell rings two minutes before the end of the round, and again at its end.",
        "2017/3": "THE SCORE The score is entered at once.",
        "2017/4": "THE TRAVELLER The traveller goes with the board. It is folded so that the scores of the tables "
                  "before cannot be seen.",
        "2017/4A": "Folding The traveller is folded twice.",
        "2017/5": "THE RECAP The recap sheet lists every score of the session.",
        "2017/6": "THE RESULTS The results are published after the session."}
    assert headings(tmp_path / "out-sizes.pdf" / "corpus.xml") == {"2017/4A": "Folding"}
    report = (tmp_path / "out-sizes.pdf" / "report.txt").read_text(encoding="utf-8")
    for page in range(1, 7):
        assert f"p{page}:1  dropped   running head or page number 'Laws of Quiet Play' at the page " \
               f"top" in report


TWO_COLUMNS = r"""
#set page(width: 21cm, height: 14cm, margin: 1.5cm, columns: 2,
  footer: context align(center, text(size: 8pt, counter(page).display())))
#set text(size: 10pt, lang: "en")
#set par(justify: true)
#let law(n, title) = block(above: 1.8em, below: 0.8em)[LAW #n \ #text(size: 13pt)[#title]]
#law(1)[THE TABLE]
#range(12).map(_ => [RULE]).join(" ")
#law(2)[THE CHAIRS]
#range(14).map(_ => [RULE]).join(" ")
#law(3)[THE CARDS]
#range(30).map(_ => [RULE]).join(" ")
""".replace("RULE", RULE)


def test_a_page_set_in_two_columns_is_read_column_by_column(tmp_path):
    # Three pages in two columns and a fourth with one line: each page's left column, then its right, then
    # its page number (centred under the gutter: in neither column), every law word for word.
    data = compile_typst(TWO_COLUMNS)
    lines = pdfadapter.page_lines(data, "columns.pdf", "columns.pdf")
    for page in (1, 2, 3):
        columns = [line.column for line in lines if line.page == page]
        assert columns == sorted(columns[:-1]) + [None] and columns[0] == 0 and 1 in columns
        assert [line.text for line in lines if line.page == page][-1] == str(page)
    assert {line.column for line in lines if line.page == 4} == {None}
    read = read_back(tmp_path, "columns.pdf", data)
    assert read == {"2017/1": "THE TABLE " + " ".join([RULE] * 12), "2017/2": "THE CHAIRS " + " ".join([RULE] * 14),
                    "2017/3": "THE CARDS " + " ".join([RULE] * 30)}


def shifted(glyphs: list, dx: float) -> list:
    return [pdf_glyphs.Glyph(g.char, g.x0 + dx, g.x1 + dx, g.y, g.bottom, g.size, g.bold) for g in glyphs]


def laid_out(rows: list) -> list:
    """(text, column) of each line of rows of glyphs, in the order the adapter reads them."""
    pieced = [pdf_lines._pieces(row, 10.0) for row in rows]
    return [("".join(g.char for p in pieces for g in p.glyphs), column)
            for pieces, column in pdf_lines._layout(pieced, 10.0)]


@settings(max_examples=60, deadline=None)
@given(LINES, st.floats(min_value=0.2, max_value=0.65))
def test_lines_of_one_column_are_read_row_by_row_however_their_words_fall(lines, gap):
    # Words spaced up to 0.65 of a character (the books' word spaces are 0.67 at most; from 0.7, RUN_GAP,
    # words are runs, as a table's cells are): the spaces of one column never make two columns.
    rows = [set_line(words, 700 - 12 * k, gap=gap) for k, words in enumerate(lines)]
    assert laid_out(rows) == [("".join(words), None) for words in lines]


@settings(max_examples=60, deadline=None)
@given(LINES, LINES, st.floats(min_value=1.0, max_value=4.0), st.floats(min_value=0.0, max_value=6.0))
@example(left=[["a"], ["a"], ["a"], ["a"], ["a"], ["a", "a"]], right=[["a"], ["a"], ["a"], ["a"], ["aaaaa"], ["a"]],
         gutter=1.0, offset=2.0)  # the margin right of the short lines is no gutter: the last line is the right's
def test_two_columns_side_by_side_are_read_column_by_column(left, right, gutter, offset):
    # The right column starts a gutter (1 to 4 characters of 10 pt) after the left column's longest line,
    # its baselines the left's or offset from them (a heading in one column shifts its lines).
    lefts = [set_line(words, 700 - 12 * k) for k, words in enumerate(left)]
    edge = max(g.x1 for row in lefts for g in row)
    rights = [shifted(set_line(words, 700 - 12 * k - offset), edge + gutter * 10 - 50) for k, words in enumerate(right)]
    end = max(g.x1 for row in rights for g in row)
    wide_left, wide_right = edge - 50, end - (edge + gutter * 10)
    middle = (edge + edge + gutter * 10) / 2
    assume(min(wide_left, wide_right) >= 0.4 * max(wide_left, wide_right))  # columns alike in width
    assume(50 + (end - 50) / 5 <= middle <= 50 + (end - 50) * 4 / 5)  # the gutter in the middle three fifths
    rows = pdf_lines._rows([g for row in [*lefts, *rights] for g in row])
    assert laid_out(rows) == [("".join(words), 0) for words in left] + [("".join(words), 1) for words in right]
