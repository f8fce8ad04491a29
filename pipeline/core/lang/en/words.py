"""The words English readers see in the outputs. Every output names its words in English
(_("…")), so an English word is its own key; only where the book's own usage differs is it
rewritten here: the WBF Laws say "Law 53", not "article 53" (capitalised where it has a number).

The keys are the Dutch profile's (nl/words.py), the one list of words every profile covers;
tests/test_profile.py checks that both profiles have every key the outputs use."""
import re

from ..nl.words import WORDS as _KEYS

# In order: a numbered law is "Law 53", whatever the case of the word before its number.
_OWN_WORDS = ((re.compile(r"\b[Aa]rticles (%\(\w+\)s)"), r"Laws \1"),
              (re.compile(r"\b[Aa]rticle (%\(\w+\)s)"), r"Law \1"),
              (re.compile(r"\bthe law text of\b"), "the text of"),
              (re.compile(r"\ban article\b"), "a law"),
              (re.compile(r"\bArticles\b"), "Laws"), (re.compile(r"\barticles\b"), "laws"),
              (re.compile(r"\bArticle\b"), "Law"), (re.compile(r"\barticle\b"), "law"))


def _english(key: str) -> str:
    """The key in the book's words; its placeholders (%(articles)s) stay as the outputs name them."""
    for pattern, ours in _OWN_WORDS[:2]:  # "article %(num)s": the word before a placeholder
        key = pattern.sub(ours, key)
    parts = re.split(r"(%\(\w+\)s)", key)
    for n in range(0, len(parts), 2):
        for pattern, ours in _OWN_WORDS[2:]:
            parts[n] = pattern.sub(ours, parts[n])
    return "".join(parts)


WORDS = {key: _english(key) for key in _KEYS}
