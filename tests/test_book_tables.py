"""Tables on a book's pages (reading/book/tables.py): rows and cells found from the runs of lines set in
columns, on made-up pages in layouts of their own (a PDF's geometry, a -layout text's columns of
characters); the real books' tables are tested with the books (test_english_extractors.py, test_french.py)."""
from hypothesis import given, settings, strategies as st

from pipeline.core.model import NOTE_MARK
from pipeline.reading.book import tables
from pipeline.reading.book.stream import PrintedLine, Run

LEADING = 11.0


def line(num, y, *cells, page=1, unit=5.0):
    """A printed line of `cells`, each (x0, text) set `unit` a character (5 pt; a -layout text: 1 column), at
    height y (None: not known)."""
    text, runs = "", []
    for x0, words in cells:
        if text:
            text += " "
        runs.append(Run(len(text), len(text) + len(words), float(x0), float(x0 + unit * len(words))))
        text += words
    return PrintedLine("book.pdf", num, text, page=page, x=float(cells[0][0]), y=y, size=9.0, runs=tuple(runs))


def found(lines, leading=LEADING):
    return [[(row.line, row.cells) for row in t.rows] for t in tables.find([(p, p.text) for p in lines], leading)]


def test_a_table_of_full_rows_is_its_rows_and_columns():
    page = [line(1, 300, (30, "The boards are dealt as follows:")),
            line(2, 285, (30, "Dealer North"), (150, "1"), (180, "5")),
            line(3, 273, (30, "Dealer East"), (150, "2"), (180, "6")),
            line(4, 261, (30, "Dealer South"), (150, "3"), (180, "7")),
            line(5, 245, (30, "The table is read from left to right, row by row."))]
    assert found(page) == [[(2, ["Dealer North", "1", "5"]), (3, ["Dealer East", "2", "6"]),
                            (4, ["Dealer South", "3", "7"])]]


def test_a_label_wrapped_around_its_figures_is_one_row():
    # "For first / odd trick bid  40  80 / and made": the label's lines at the leading, the rows further apart.
    page = [line(1, 450, (100, "Undoubled"), (160, "Doubled")),
            line(2, 423, (36, "For first")),
            line(3, 412, (36, "odd trick bid"), (110, "40"), (165, "80")),
            line(4, 401, (36, "and made")),
            line(5, 386, (36, "For each")),
            line(6, 375, (36, "additional"), (110, "30"), (165, "60")),
            line(7, 364, (36, "odd trick"))]
    assert found(page) == [[(1, ["", "Undoubled", "Doubled"]),
                            (3, ["For first odd trick bid and made", "40", "80"]),
                            (6, ["For each additional odd trick", "30", "60"])]]


def test_head_cells_stacked_closer_than_the_leading_are_one_row():
    # "Non / Contré / contré" stacked at half the leading over the figures: one head row.
    page = [line(1, 706, (248, "Non"), (390, "Non")),
            line(2, 700, (285, "Contre"), (431, "Contre")),
            line(3, 693, (243, "contre"), (385, "contre")),
            line(4, 679, (78, "Pour la premiere"), (251, "50"), (292, "100"), (391, "100"), (437, "200")),
            line(5, 665, (78, "Pour chaque"), (251, "50"), (292, "200"), (391, "100"), (437, "300"))]
    assert found(page, leading=13.4) == [[(1, ["", "Non contre", "Contre", "Non contre", "Contre"]),
                                          (4, ["Pour la premiere", "50", "100", "100", "200"]),
                                          (5, ["Pour chaque", "50", "200", "100", "300"])]]


def test_a_sub_head_between_rows_is_a_row_of_its_own():
    page = [line(1, 132, (35, "If Trumps are:"), (120, "C"), (160, "D")),
            line(2, 117, (35, "For each odd trick bid and made")),
            line(3, 102, (35, "Undoubled"), (118, "20"), (157, "20")),
            line(4, 86, (35, "Doubled"), (118, "40"), (157, "40"))]
    assert found(page) == [[(1, ["If Trumps are:", "C", "D"]), (2, ["For each odd trick bid and made", "", ""]),
                            (3, ["Undoubled", "20", "20"]), (4, ["Doubled", "40", "40"])]]


def test_list_entries_set_with_a_tab_are_no_table():
    # "1.<tab>text": a marker and its text apart by a wide gap, line after line: a list, not a table.
    page = [line(1, 500, (57, "1."), (75, "The players take their seats when the round is called.")),
            line(2, 486, (57, "2."), (75, "The Director may move a player to another table.")),
            line(3, 472, (57, "3."), (75, "The boards are placed in the middle of the table."))]
    assert found(page) == []


def test_one_row_is_no_table_and_running_text_ends_one():
    one = [line(1, 300, (30, "Total"), (150, "100"))]
    assert found(one) == []
    page = [line(1, 300, (30, "Undoubled"), (150, "50")),
            line(2, 285, (30, "Doubled"), (150, "100")),
            line(3, 270, (30, "If all four players pass the board is scored as a zero for each side.")),
            line(4, 255, (30, "Redoubled"), (150, "200")),
            line(5, 240, (30, "Surdoubled"), (150, "400"))]
    assert found(page) == [[(1, ["Undoubled", "50"]), (2, ["Doubled", "100"])],
                           [(4, ["Redoubled", "200"]), (5, ["Surdoubled", "400"])]]


def test_a_table_ends_with_its_page():
    page = [line(1, 100, (30, "Undoubled"), (150, "50"), page=1), line(2, 85, (30, "Doubled"), (150, "100"), page=1),
            line(3, 480, (30, "Redoubled"), (150, "200"), page=2), line(4, 465, (30, "Other"), (150, "400"), page=2)]
    assert [[row for row, _ in t] for t in found(page)] == [[1, 2], [3, 4]]


def test_a_layout_texts_columns_of_characters_give_a_row_a_line():
    # pdftotext -layout: x in characters, no heights: every line its own row.
    page = [line(1, None, (0, "If Trumps are:"), (22, "C"), (32, "D"), unit=1),
            line(2, None, (0, "For each odd trick bid and made"), unit=1),
            line(3, None, (0, "Undoubled"), (22, "20"), (32, "20"), unit=1),
            line(4, None, (0, "Doubled"), (21, "40"), (32, "40"), unit=1)]
    assert found(page, leading=None) == [[(1, ["If Trumps are:", "C", "D"]), (2, ["For each odd trick bid and made", "", ""]),
                                          (3, ["Undoubled", "20", "20"]), (4, ["Doubled", "40", "40"])]]


def test_a_footnote_marker_in_a_cell_stays_in_its_cell():
    page = [line(1, 300, (30, "For each undertrick*"), (150, "50")), line(2, 285, (30, "Doubled"), (150, "100"))]
    read = [(page[0], page[0].text.replace("*", NOTE_MARK)), (page[1], page[1].text)]
    rows = tables.find(read, LEADING)[0].rows
    assert rows[0].cells == [f"For each undertrick{NOTE_MARK}", "50"]


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["10", "20", "Doubled", "x", "Vulnerable", "Boards"]), min_size=2, max_size=5),
                min_size=2, max_size=8))
def test_every_word_of_a_table_is_in_one_of_its_cells_once(grid):
    # Whatever the grid, a table's cells hold its lines' words, each once and in the rows' order.
    width = max(len(row) for row in grid)
    page = [line(k + 1, 400 - 15 * k, *[(30 + 60 * c, word) for c, word in enumerate(row)])
            for k, row in enumerate(grid)]
    result = tables.find([(p, p.text) for p in page], LEADING)
    assert len(result) == 1
    words = [w for row in result[0].rows for cell in row.cells for w in cell.split()]
    assert words == [w for row in grid for w in row]
    assert all(len(row.cells) == width for row in result[0].rows)
