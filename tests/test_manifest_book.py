"""The manifest's fields for the printed book: each source's description for readers, the publisher and
the copyright line, validated like the other fields (a string, on one line, named at its line)."""
import pytest

from pipeline.core.errors import LawbookError
from pipeline.reading import manifest

from conftest import ROOT


def write(folder, text):
    (folder / "a.txt").write_text("x\n", encoding="utf-8")
    (folder / "sources.toml").write_text(text, encoding="utf-8")


def test_description_publisher_and_copyright_are_read_with_their_spaces_made_one(tmp_path):
    write(tmp_path, 'publisher = "Een  Bond"\ncopyright = "© 2017  Een Bond"\n\n[[source]]\nfile = "a.txt"\n'
                    'edition = "2017"\norigin = "Wiki page export"\ndescription = """Een bladzijde\n  van de wiki"""\n')
    (source,) = manifest.load_manifest(tmp_path)
    assert (source.description, source.publisher, source.copyright, source.origin) == (
        "Een bladzijde van de wiki", "Een Bond", "© 2017 Een Bond", "Wiki page export")


def test_left_out_they_are_empty(tmp_path):
    write(tmp_path, '[[source]]\nfile = "a.txt"\nedition = "2017"\n')
    (source,) = manifest.load_manifest(tmp_path)
    assert (source.description, source.publisher, source.copyright) == ("", "", "")


@pytest.mark.parametrize("text, message, line", [
    ('copyright = 2017\n[[source]]\nfile = "a.txt"\nedition = "2017"\n', "the manifest's copyright must be a string", 1),
    ('language = "nl"\ncopyright = """©\n2017"""\n[[source]]\nfile = "a.txt"\nedition = "2017"\n',
     "the manifest's copyright must be one line", 2),
    ('[[source]]\nfile = "a.txt"\nedition = "2017"\ndescription = 5\n',
     "[[source]] number 1 (a.txt): description must be a string", 4),
])
def test_a_field_that_is_not_one_line_of_text_is_refused_at_its_line(tmp_path, text, message, line):
    write(tmp_path, text)
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(tmp_path)
    assert (caught.value.message, caught.value.line) == (message, line)


def test_every_dutch_source_has_a_dutch_description():
    sources = manifest.load_manifest(ROOT / "sources")
    assert all(s.description for s in sources)
    assert sources[0].description == ("Wikipagina ‘ARTIKEL 54’: de artikelen 53, 41, 24 en 50D, met een persoonlijke "
                                      "toelichting op artikel 54")
    assert sources[0].copyright.startswith("Spelregels © World Bridge Federation")
