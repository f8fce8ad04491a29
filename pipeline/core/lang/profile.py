"""The Profile type: what one language brings to the pipeline (see __init__.py)."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Profile:
    code: str  # ISO 639-1: "nl"; the HTML lang attribute and the search stemming language
    region: str  # "NL": with the code, the PDF's /Lang (nl-NL) and the hyphenation patterns
    name: str  # the language's own name: "Nederlands"
    rules: object  # how the language writes the law: see nl/rules.py
    words: dict  # reader-facing words: English -> this language (see nl/words.py)

    @property
    def tag(self):
        """The BCP 47 tag: 'nl-NL'."""
        return f"{self.code}-{self.region}"

    def word(self, english):
        """The reader-facing word or phrase for `english`; a missing one is a fault that tests catch."""
        try:
            return self.words[english]
        except KeyError:
            raise KeyError(f"the {self.code} profile has no words for {english!r} (add them to "
                           f"pipeline/core/lang/{self.code}/words.py)") from None
